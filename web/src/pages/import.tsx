/**
 * Import wizard for broker reports (the BRIM API under /brokers/import): upload → detected plugin
 * → parse into a preview → map each asset to an existing one or a new one → leave out duplicates
 * and rows with open blockers → commit the rows through the transaction batch (all or nothing).
 */
import { useMemo, useState } from "preact/hooks";
import { api, errorText, type Body, type Result } from "../api/client.ts";
import { Badge, ErrorNote, Field, Loading, Page, Select } from "../components/ui.tsx";
import { formatDate, formatDecimal, formatMoney } from "../lib/format.ts";
import { Link } from "../lib/router.tsx";
import { localeOf, useApp } from "../lib/store.ts";
import { useAsync } from "../lib/use-async.ts";
import { t } from "../lib/i18n.ts";

type FileInfo = Result<"post", "/brokers/import/upload">;
type Parsed = Result<"post", "/brokers/import/files/{file_id}/parse">;
/** A mapping choice: an existing asset id, or "new" to create one from the extracted name. */
type Choice = number | "new" | "";

export function ImportPage() {
  const { prefs } = useApp();
  const locale = localeOf(prefs);
  const brokers = useAsync(async (signal) => (await api.get("/brokers", { signal })).items.filter((b) => b.user_role !== "VIEWER"), []);
  const [brokerId, setBrokerId] = useState("");
  const [file, setFile] = useState<File | null>(null);
  const [uploaded, setUploaded] = useState<FileInfo | null>(null);
  const [plugin, setPlugin] = useState("auto");
  const [parsed, setParsed] = useState<Parsed | null>(null);
  const [choices, setChoices] = useState<Record<number, Choice>>({});
  const [skip, setSkip] = useState<Set<number>>(new Set());
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState<number | null>(null);

  // Asset todos are what step 3 answers (every asset must be mapped before committing); the others block their row.
  const isBlocker = (x: { severity: string; field: string }) => x.severity === "blocker" && x.field !== "asset_id";
  const blocked = useMemo(() => new Set((parsed?.field_todos ?? []).filter(isBlocker).map((x) => x.tx_index)), [parsed]);
  const likely = useMemo(() => new Set((parsed?.duplicates.tx_likely_duplicates ?? []).map((d) => d.tx_index)), [parsed]);
  const possible = useMemo(() => new Set((parsed?.duplicates.tx_possible_duplicates ?? []).map((d) => d.tx_index)), [parsed]);
  const mappingOf = useMemo(() => new Map((parsed?.asset_mappings ?? []).map((m) => [m.fake_asset_id, m])), [parsed]);

  const run = async (label: string, work: () => Promise<void>) => {
    setBusy(label); setError(null);
    try { await work(); } catch (e) { setError(e); } finally { setBusy(null); }
  };
  const upload = (e: Event) => {
    e.preventDefault();
    if (!file || !brokerId) { setError(new Error(t("Choose a broker and a file."))); return; }
    void run(t("Uploading…"), async () => {
      const form = new FormData();
      form.append("file", file);
      const info = await api.post("/brokers/import/upload", { query: { broker_id: Number(brokerId) }, body: form as never });
      setUploaded(info); setParsed(null); setDone(null);
      setPlugin(info.compatible_plugins[0] ?? "auto");
    });
  };
  const parse = () => void run(t("Reading the report…"), async () => {
    const r = await api.post("/brokers/import/files/{file_id}/parse", { path: { file_id: uploaded!.file_id }, body: { plugin_code: plugin, broker_id: Number(brokerId) } });
    setParsed(r);
    setChoices(Object.fromEntries(r.asset_mappings.map((m) => [m.fake_asset_id, m.selected_asset_id ?? m.candidates.find((c) => c.match_confidence === "exact" || c.match_confidence === "high")?.asset_id ?? "new"])));
    setSkip(new Set([...r.duplicates.tx_likely_duplicates.map((d) => d.tx_index), ...r.field_todos.filter(isBlocker).map((x) => x.tx_index)]));
  });
  const commit = () => void run(t("Importing…"), async () => {
    const p = parsed!;
    const ids = new Map<number, number>();
    const toCreate = p.asset_mappings.filter((m) => choices[m.fake_asset_id] === "new");
    if (p.asset_mappings.some((m) => choices[m.fake_asset_id] === "")) throw new Error(t("Choose an asset for every line of the mapping."));
    if (toCreate.length) {
      const currencyOf = (fake: number) => p.transactions.find((x) => x.asset_id === fake && x.cash)?.cash?.code ?? prefs.base_currency;
      const r = await api.post("/assets", { body: toCreate.map((m) => ({
        name: m.extracted_name || m.extracted_symbol || m.extracted_isin || t("Imported asset {id}", { id: m.fake_asset_id }),
        currency: currencyOf(m.fake_asset_id),
        identifier_isin: m.extracted_isin || null, identifier_ticker: m.extracted_symbol || null,
      })) });
      r.results.forEach((res, i) => {
        if (!res.success || !res.asset_id) throw new Error(`${res.name}: ${res.message}`);
        ids.set(toCreate[i]!.fake_asset_id, res.asset_id);
      });
    }
    for (const m of p.asset_mappings) if (typeof choices[m.fake_asset_id] === "number") ids.set(m.fake_asset_id, choices[m.fake_asset_id] as number);
    const creates = p.transactions.filter((_, i) => !skip.has(i)).map((x) => ({ ...x, asset_id: x.asset_id !== undefined && x.asset_id !== null ? ids.get(x.asset_id) ?? x.asset_id : undefined }));
    const r = await api.post("/transactions/commit", { body: { creates } as unknown as Body<"post", "/transactions/commit"> });
    if (!r.committed) throw new Error(r.issues.map((i) => `${t("row {n}", { n: i.index + 1 })}: ${i.error}`).join("; ") || t("Nothing was imported."));
    setDone(creates.length);
  });

  const toggle = (i: number) => setSkip((s) => { const n = new Set(s); if (n.has(i)) n.delete(i); else n.add(i); return n; });

  return (
    <Page title={t("Import")}>
      <form class="card form" onSubmit={upload} aria-labelledby="h-up">
        <h2 id="h-up">{t("1. Upload a broker report")}</h2>
        <div class="row">
          <Field label={t("Into broker")}>{(id) => <Select id={id} value={brokerId} placeholder={t("Choose…")} options={(brokers.data ?? []).map((b) => ({ value: String(b.id), label: b.name }))} onChange={setBrokerId} />}</Field>
          <Field label={t("Report file")}>{(id) => <input id={id} type="file" onChange={(e) => setFile((e.target as HTMLInputElement).files?.[0] ?? null)} />}</Field>
        </div>
        <button type="submit" class="primary" disabled={!!busy}>{t("Upload")}</button>
      </form>
      {uploaded && (
        <section class="card form" aria-labelledby="h-plugin">
          <h2 id="h-plugin">{t("2. Read it")}</h2>
          <p>{uploaded.filename}: {uploaded.compatible_plugins.length ? t("recognised by {readers}", { readers: uploaded.compatible_plugins.join(", ") }) : t("no reader recognised it; try the generic CSV reader")}.</p>
          <Field label={t("Reader")}>{(id) => <Select id={id} value={plugin} options={[...new Set([...uploaded.compatible_plugins, "auto", "broker_generic_csv"])].map((p) => ({ value: p, label: p }))} onChange={setPlugin} />}</Field>
          <button type="button" class="primary" disabled={!!busy} onClick={parse}>{t("Read the report")}</button>
        </section>
      )}
      {busy && <Loading label={busy} />}
      <ErrorNote error={error} />
      {parsed && done === null && (
        <>
          {parsed.asset_mappings.length > 0 && (
            <section class="card" aria-labelledby="h-map">
              <h2 id="h-map">{t("3. Assets")}</h2>
              <div class="table-wrap"><table class="table compact">
                <thead><tr><th scope="col">{t("In the report")}</th><th scope="col">{t("Use")}</th></tr></thead>
                <tbody>{parsed.asset_mappings.map((m) => {
                  const label = [m.extracted_name, m.extracted_symbol, m.extracted_isin].filter(Boolean).join(" · ");
                  return (
                    <tr key={m.fake_asset_id}>
                      <td>{label}</td>
                      <td><Select aria-label={t("Asset for {label}", { label })} value={choices[m.fake_asset_id] ?? ""}
                        options={[{ value: "new", label: t("Create a new asset") }, ...m.candidates.map((c) => ({ value: c.asset_id, label: `${c.name} (${c.match_confidence})` }))]}
                        onChange={(v) => setChoices({ ...choices, [m.fake_asset_id]: v === "new" ? "new" : v ? Number(v) : "" })} /></td>
                    </tr>
                  );
                })}</tbody>
              </table></div>
            </section>
          )}
          <section class="card" aria-labelledby="h-rows">
            <h2 id="h-rows">{t("4. Rows ({selected} of {total} selected)", { selected: parsed.transactions.length - skip.size, total: parsed.transactions.length })}</h2>
            {parsed.warnings.map((w, i) => <p key={i} class="note warning">{w.message}</p>)}
            {parsed.validation_issues.map((v, i) => <p key={i} class="note error">{t("Row {n}", { n: v.row })}: {v.message}</p>)}
            <div class="table-wrap"><table class="table compact">
              <thead><tr><th scope="col">{t("Import")}</th><th scope="col">{t("Date")}</th><th scope="col">{t("Type")}</th><th scope="col">{t("Asset")}</th><th scope="col" class="num">{t("Quantity")}</th><th scope="col" class="num">{t("Cash")}</th><th scope="col">{t("Notes")}</th></tr></thead>
              <tbody>{parsed.transactions.map((tx, i) => {
                const m = tx.asset_id !== undefined && tx.asset_id !== null ? mappingOf.get(tx.asset_id) : undefined;
                const todos = parsed.field_todos.filter((x) => x.tx_index === i && (x.field !== "asset_id" || !m || choices[m.fake_asset_id] === ""));
                return (
                  <tr key={i}>
                    <td><input type="checkbox" aria-label={t("Import row {n}", { n: i + 1 })} checked={!skip.has(i)} disabled={blocked.has(i)} onChange={() => toggle(i)} /></td>
                    <td>{formatDate(tx.date, locale)}</td><td>{tx.type}</td>
                    <td>{m ? m.extracted_name ?? m.extracted_symbol ?? m.extracted_isin : ""}</td>
                    <td class="num">{tx.quantity && tx.quantity !== "0" ? formatDecimal(tx.quantity, locale, { maxPlaces: 8 }) : ""}</td>
                    <td class="num">{tx.cash ? formatMoney(tx.cash.amount, tx.cash.code, locale) : ""}</td>
                    <td>
                      {likely.has(i) && <Badge kind="warning">{t("likely duplicate")}</Badge>}
                      {possible.has(i) && <Badge>{t("possible duplicate")}</Badge>}
                      {todos.map((x, k) => <div key={k} class={x.severity === "blocker" ? "field-error" : "muted"}>{x.field}: {x.message}</div>)}
                    </td>
                  </tr>
                );
              })}</tbody>
            </table></div>
            <div class="form-actions">
              <button type="button" class="primary" disabled={!!busy || skip.size === parsed.transactions.length} onClick={commit}>
                {t("Import {n} rows", { n: parsed.transactions.length - skip.size })}
              </button>
            </div>
          </section>
        </>
      )}
      {done !== null && (
        <p class="note" role="status">{t("Imported {n} transactions.", { n: done })} <Link href={`/transactions?broker_id=${brokerId}`}>{t("See them")}</Link></p>
      )}
    </Page>
  );
}
