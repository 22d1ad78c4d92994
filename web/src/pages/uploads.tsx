/** Uploaded files: list, upload, download, delete. */
import { useState } from "preact/hooks";
import { api, ApiError, errorText } from "../api/client.ts";
import { ErrorNote, Field, Loading, Page } from "../components/ui.tsx";
import { formatDateTime, formatDecimal } from "../lib/format.ts";
import { localeOf, useApp } from "../lib/store.ts";
import { useAsync } from "../lib/use-async.ts";

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
    if (!file) { setMsg({ ok: false, text: "Choose a file first." }); return; }
    const form = new FormData();
    form.append("file", file);
    if (description) form.append("description", description);
    try {
      const r = await api.post("/uploads", { body: form as never });
      setMsg({ ok: true, text: `Uploaded ${r.filename}.` });
      setFile(null); setDescription(""); (e.target as HTMLFormElement).reset();
      list.reload();
    } catch (err) {
      setMsg({ ok: false, text: err instanceof ApiError && err.code === "FILE_TOO_LARGE"
        ? `The file is larger than the server's limit of ${String(err.params.max_file_upload_mb)} MB.` : errorText(err) });
    }
  };
  const remove = async (id: number) => {
    try { await api.delete("/uploads/{file_id}", { path: { file_id: id } }); list.reload(); }
    catch (err) { setMsg({ ok: false, text: errorText(err) }); }
  };
  return (
    <Page title="Uploads">
      <form class="card form" onSubmit={upload}>
        <h2>Upload a file</h2>
        <Field label="File">{(id) => <input id={id} type="file" onChange={(e) => setFile((e.target as HTMLInputElement).files?.[0] ?? null)} />}</Field>
        <Field label="Description (optional)">{(id) => <input id={id} maxLength={500} value={description} onInput={(e) => setDescription((e.target as HTMLInputElement).value)} />}</Field>
        {msg && <p class={`note ${msg.ok ? "" : "error"}`} role={msg.ok ? "status" : "alert"}>{msg.text}</p>}
        <button type="submit" class="primary">Upload</button>
      </form>
      <label class="check"><input type="checkbox" checked={mine} onChange={(e) => setMine((e.target as HTMLInputElement).checked)} /> Only my files</label>
      <ErrorNote error={list.error} />
      {list.loading && !list.data && <Loading />}
      {list.data && (list.data.items.length === 0 ? <p class="muted">No files.</p> : (
        <div class="table-wrap"><table class="table">
          <thead><tr><th scope="col">File</th><th scope="col">Description</th><th scope="col" class="num">Size</th><th scope="col">Uploaded</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
          <tbody>{list.data.items.map((f) => (
            <tr key={f.id}>
              <td><a href={`/api/v1/uploads/file/${f.id}?download=true`} download>{f.filename}</a></td>
              <td>{f.description ?? ""}</td>
              <td class="num">{formatDecimal(String(Math.ceil(f.size_bytes / 1024)), locale)} KB</td>
              <td>{formatDateTime(f.created_at, locale)}</td>
              <td>{f.uploaded_by === me.id && <button type="button" class="ghost" onClick={() => remove(f.id)} aria-label={`Delete ${f.filename}`}>Delete</button>}</td>
            </tr>
          ))}</tbody>
        </table></div>
      ))}
    </Page>
  );
}
