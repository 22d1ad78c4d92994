/**
 * Uploaded files: list, upload, download, delete. Broker reports are not uploads (they go through
 * the Import page and live apart, docs/import.md), but this is where people look for a file they
 * sent: they are listed here too, with where each import stands and a link to continue it.
 */
import { useState } from "preact/hooks";
import { api, ApiError, errorText } from "../api/client.ts";
import { ErrorNote, Field, Loading, Page } from "../components/ui.tsx";
import { formatDateTime, formatDecimal } from "../lib/format.ts";
import { reportStatusLabel } from "../lib/labels.ts";
import { Link } from "../lib/router.tsx";
import { localeOf, useApp } from "../lib/store.ts";
import { useAsync } from "../lib/use-async.ts";
import { t } from "../lib/i18n.ts";

export function UploadsPage() {
  const { prefs, me } = useApp();
  const locale = localeOf(prefs);
  const [mine, setMine] = useState(false);
  const list = useAsync((signal) => api.get("/uploads", { query: { my_files_only: mine ? "true" : undefined }, signal }), [mine]);
  const [file, setFile] = useState<File | null>(null);
  const [description, setDescription] = useState("");
  const [msg, setMsg] = useState<{ ok: boolean; text: string } | null>(null);
  const upload = async (e: Event) => {
    e.preventDefault();
    if (!file) { setMsg({ ok: false, text: t("Choose a file first.") }); return; }
    const form = new FormData();
    form.append("file", file);
    if (description) form.append("description", description);
    try {
      const r = await api.post("/uploads", { body: form as never });
      setMsg({ ok: true, text: t("Uploaded {name}.", { name: r.filename }) });
      setFile(null); setDescription(""); (e.target as HTMLFormElement).reset();
      list.reload();
    } catch (err) {
      setMsg({ ok: false, text: err instanceof ApiError && err.code === "FILE_TOO_LARGE"
        ? t("The file is larger than the server's limit of {mb} MB.", { mb: String(err.params.max_file_upload_mb) }) : errorText(err) });
    }
  };
  const remove = async (id: number) => {
    try { await api.delete("/uploads/{file_id}", { path: { file_id: id } }); list.reload(); }
    catch (err) { setMsg({ ok: false, text: errorText(err) }); }
  };
  return (
    <Page title={t("Uploads")}>
      <form class="card form" onSubmit={upload}>
        <h2>{t("Upload a file")}</h2>
        <Field label={t("File")}>{(id) => <input id={id} type="file" onChange={(e) => setFile((e.target as HTMLInputElement).files?.[0] ?? null)} />}</Field>
        <Field label={t("Description (optional)")}>{(id) => <input id={id} maxLength={500} value={description} onInput={(e) => setDescription((e.target as HTMLInputElement).value)} />}</Field>
        {msg && <p class={`note ${msg.ok ? "" : "error"}`} role={msg.ok ? "status" : "alert"}>{msg.text}</p>}
        <button type="submit" class="primary">{t("Upload")}</button>
      </form>
      <label class="check"><input type="checkbox" checked={mine} onChange={(e) => setMine((e.target as HTMLInputElement).checked)} /> {t("Only my files")}</label>
      <ErrorNote error={list.error} />
      {list.loading && !list.data && <Loading />}
      {list.data && (list.data.items.length === 0 ? <p class="muted">{t("No files.")}</p> : (
        <div class="table-wrap"><table class="table">
          <thead><tr><th scope="col">{t("File")}</th><th scope="col">{t("Description")}</th><th scope="col" class="num">{t("Size")}</th><th scope="col">{t("Uploaded")}</th><th scope="col"><span class="sr-only">{t("Actions")}</span></th></tr></thead>
          <tbody>{list.data.items.map((f) => (
            <tr key={f.id}>
              <td><a href={`/api/v1/uploads/file/${f.id}?download=true`} download>{f.filename}</a></td>
              <td>{f.description ?? ""}</td>
              <td class="num">{formatDecimal(String(Math.ceil(f.size_bytes / 1024)), locale)} KB</td>
              <td>{formatDateTime(f.created_at, locale)}</td>
              <td>{f.uploaded_by === me.id && <button type="button" class="ghost" onClick={() => remove(f.id)} aria-label={t("Delete {name}", { name: f.filename })}>{t("Delete")}</button>}</td>
            </tr>
          ))}</tbody>
        </table></div>
      ))}
      <BrokerReports />
    </Page>
  );
}

/** The broker reports of the brokers the caller can see, newest first, each with a way back into its import. */
function BrokerReports() {
  const { prefs } = useApp();
  const locale = localeOf(prefs);
  const reports = useAsync((signal) => api.get("/brokers/import/files", { signal }), []);
  const brokers = useAsync((signal) => api.get("/brokers", { signal }), []);
  const brokerName = (id: number | null) => (id === null ? "—" : brokers.data?.items.find((b) => b.id === id)?.name ?? "—");
  const items = [...(reports.data?.items ?? [])].sort((a, b) => b.uploaded_at.localeCompare(a.uploaded_at));
  return (
    <section class="card wide" aria-labelledby="h-reports">
      <h2 id="h-reports">{t("Broker reports")}</h2>
      <p class="muted">{t("Reports sent for import are kept with their broker, not with the files above.")} <Link href="/import">{t("Import a broker report")}</Link></p>
      <ErrorNote error={reports.error} />
      {reports.loading && !reports.data && <Loading />}
      {reports.data && (items.length === 0 ? <p class="muted">{t("No broker reports yet.")}</p> : (
        <div class="table-wrap"><table class="table">
          <thead><tr><th scope="col">{t("File")}</th><th scope="col">{t("Broker")}</th><th scope="col">{t("Status")}</th><th scope="col">{t("Uploaded")}</th><th scope="col"><span class="sr-only">{t("Actions")}</span></th></tr></thead>
          <tbody>{items.map((f) => (
            <tr key={f.file_id}>
              <td>{f.filename}</td>
              <td>{brokerName(f.target_broker_id)}</td>
              <td>{reportStatusLabel(f.status)}{f.status === "failed" && f.error_message ? <span class="muted"> ({f.error_message})</span> : null}</td>
              <td>{formatDateTime(f.uploaded_at, locale)}</td>
              <td><div class="row-actions">
                <Link href={`/import?file=${encodeURIComponent(f.file_id)}`} aria-label={t("Continue the import of {name}", { name: f.filename })}>{t("Continue the import")}</Link>
                {f.target_broker_id !== null && <Link href={`/transactions?broker_id=${f.target_broker_id}`}>{t("Transactions of {broker}", { broker: brokerName(f.target_broker_id) })}</Link>}
              </div></td>
            </tr>
          ))}</tbody>
        </table></div>
      ))}
    </section>
  );
}
