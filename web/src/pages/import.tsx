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
  const isBlocker = (t: { severity: string; field: string }) => t.severity === "blocker" && t.field !== "asset_id";
  const blocked = useMemo(() => new Set((parsed?.field_todos ?? []).filter(isBlocker).map((t) => t.tx_index)), [parsed]);
  const likely = useMemo(() => new Set((parsed?.duplicates.tx_likely_duplicates ?? []).map((d) => d.tx_index)), [parsed]);
  const possible = useMemo(() => new Set((parsed?.duplicates.tx_possible_duplicates ?? []).map((d) => d.tx_index)), [parsed]);
  const mappingOf = useMemo(() => new Map((parsed?.asset_mappings ?? []).map((m) => [m.fake_asset_id, m])), [parsed]);

  const run = async (label: string, work: () => Promise<void>) => {
    setBusy(label); setError(null);
    try { await work(); } catch (e) { setError(e); } finally { setBusy(null); }
  };
  const upload = (e: Event) => {
    e.preventDefault();
    if (!file || !brokerId) { setError(new Error("Choose a broker and a file.")); return; }
    void run("Uploading…", async () => {
      const form = new FormData();
      form.append("file", file);
      const info = await api.post("/brokers/import/upload", { query: { broker_id: Number(brokerId) }, body: form as never });
      setUploaded(info); setParsed(null); setDone(null);
      setPlugin(info.compatible_plugins[0] ?? "auto");
    });
  };
  const parse = () => void run("Reading the report…", async () => {
    const r = await api.post("/brokers/import/files/{file_id}/parse", { path: { file_id: uploaded!.file_id }, body: { plugin_code: plugin, broker_id: Number(brokerId) } });
    setParsed(r);
    setChoices(Object.fromEntries(r.asset_mappings.map((m) => [m.fake_asset_id, m.selected_asset_id ?? m.candidates.find((c) => c.match_confidence === "exact" || c.match_confidence === "high")?.asset_id ?? "new"])));
    setSkip(new Set([...r.duplicates.tx_likely_duplicates.map((d) => d.tx_index), ...r.field_todos.filter(isBlocker).map((t) => t.tx_index)]));
  });
  const commit = () => void run("Importing…", async () => {
    const p = parsed!;
    const ids = new Map<number, number>();
    const toCreate = p.asset_mappings.filter((m) => choices[m.fake_asset_id] === "new");
    if (p.asset_mappings.some((m) => choices[m.fake_asset_id] === "")) throw new Error("Choose an asset for every line of the mapping.");
    if (toCreate.length) {
      const currencyOf = (fake: number) => p.transactions.find((t) => t.asset_id === fake && t.cash)?.cash?.code ?? prefs.base_currency;
      const r = await api.post("/assets", { body: toCreate.map((m) => ({
        name: m.extracted_name || m.extracted_symbol || m.extracted_isin || `Imported asset ${m.fake_asset_id}`,
        currency: currencyOf(m.fake_asset_id),
        identifier_isin: m.extracted_isin || null, identifier_ticker: m.extracted_symbol || null,
      })) });
      r.results.forEach((res, i) => {
        if (!res.success || !res.asset_id) throw new Error(`${res.name}: ${res.message}`);
        ids.set(toCreate[i]!.fake_asset_id, res.asset_id);
      });
    }
    for (const m of p.asset_mappings) if (typeof choices[m.fake_asset_id] === "number") ids.set(m.fake_asset_id, choices[m.fake_asset_id] as number);
    const creates = p.transactions.filter((_, i) => !skip.has(i)).map((t) => ({ ...t, asset_id: t.asset_id !== undefined && t.asset_id !== null ? ids.get(t.asset_id) ?? t.asset_id : undefined }));
    const r = await api.post("/transactions/commit", { body: { creates } as unknown as Body<"post", "/transactions/commit"> });
    if (!r.committed) throw new Error(r.issues.map((i) => `row ${i.index + 1}: ${i.error}`).join("; ") || "Nothing was imported.");
    setDone(creates.length);
  });

  const toggle = (i: number) => setSkip((s) => { const n = new Set(s); if (n.has(i)) n.delete(i); else n.add(i); return n; });

  return (
    <Page title="Import">
      <form class="card form" onSubmit={upload} aria-labelledby="h-up">
        <h2 id="h-up">1. Upload a broker report</h2>
        <div class="row">
          <Field label="Into broker">{(id) => <Select id={id} value={brokerId} placeholder="Choose…" options={(brokers.data ?? []).map((b) => ({ value: String(b.id), label: b.name }))} onChange={setBrokerId} />}</Field>
          <Field label="Report file">{(id) => <input id={id} type="file" onChange={(e) => setFile((e.target as HTMLInputElement).files?.[0] ?? null)} />}</Field>
        </div>
        <button type="submit" class="primary" disabled={!!busy}>Upload</button>
      </form>
      {uploaded && (
        <section class="card form" aria-labelledby="h-plugin">
          <h2 id="h-plugin">2. Read it</h2>
          <p>{uploaded.filename}: {uploaded.compatible_plugins.length ? `recognised by ${uploaded.compatible_plugins.join(", ")}` : "no reader recognised it; try the generic CSV reader"}.</p>
          <Field label="Reader">{(id) => <Select id={id} value={plugin} options={[...new Set([...uploaded.compatible_plugins, "auto", "broker_generic_csv"])].map((p) => ({ value: p, label: p }))} onChange={setPlugin} />}</Field>
          <button type="button" class="primary" disabled={!!busy} onClick={parse}>Read the report</button>
        </section>
      )}
      {busy && <Loading label={busy} />}
      <ErrorNote error={error} />
      {parsed && done === null && (
        <>
          {parsed.asset_mappings.length > 0 && (
            <section class="card" aria-labelledby="h-map">
              <h2 id="h-map">3. Assets</h2>
              <div class="table-wrap"><table class="table compact">
                <thead><tr><th scope="col">In the report</th><th scope="col">Use</th></tr></thead>
                <tbody>{parsed.asset_mappings.map((m) => {
                  const label = [m.extracted_name, m.extracted_symbol, m.extracted_isin].filter(Boolean).join(" · ");
                  return (
                    <tr key={m.fake_asset_id}>
                      <td>{label}</td>
                      <td><Select aria-label={`Asset for ${label}`} value={choices[m.fake_asset_id] ?? ""}
                        options={[{ value: "new", label: "Create a new asset" }, ...m.candidates.map((c) => ({ value: c.asset_id, label: `${c.name} (${c.match_confidence})` }))]}
                        onChange={(v) => setChoices({ ...choices, [m.fake_asset_id]: v === "new" ? "new" : v ? Number(v) : "" })} /></td>
                    </tr>
                  );
                })}</tbody>
              </table></div>
            </section>
          )}
          <section class="card" aria-labelledby="h-rows">
            <h2 id="h-rows">4. Rows ({parsed.transactions.length - skip.size} of {parsed.transactions.length} selected)</h2>
            {parsed.warnings.map((w, i) => <p key={i} class="note warning">{w.message}</p>)}
            {parsed.validation_issues.map((v, i) => <p key={i} class="note error">Row {v.row}: {v.message}</p>)}
            <div class="table-wrap"><table class="table compact">
              <thead><tr><th scope="col">Import</th><th scope="col">Date</th><th scope="col">Type</th><th scope="col">Asset</th><th scope="col" class="num">Quantity</th><th scope="col" class="num">Cash</th><th scope="col">Notes</th></tr></thead>
              <tbody>{parsed.transactions.map((t, i) => {
                const m = t.asset_id !== undefined && t.asset_id !== null ? mappingOf.get(t.asset_id) : undefined;
                const todos = parsed.field_todos.filter((x) => x.tx_index === i && (x.field !== "asset_id" || !m || choices[m.fake_asset_id] === ""));
                return (
                  <tr key={i}>
                    <td><input type="checkbox" aria-label={`Import row ${i + 1}`} checked={!skip.has(i)} disabled={blocked.has(i)} onChange={() => toggle(i)} /></td>
                    <td>{formatDate(t.date, locale)}</td><td>{t.type}</td>
                    <td>{m ? m.extracted_name ?? m.extracted_symbol ?? m.extracted_isin : ""}</td>
                    <td class="num">{t.quantity && t.quantity !== "0" ? formatDecimal(t.quantity, locale, { maxPlaces: 8 }) : ""}</td>
                    <td class="num">{t.cash ? formatMoney(t.cash.amount, t.cash.code, locale) : ""}</td>
                    <td>
                      {likely.has(i) && <Badge kind="warning">likely duplicate</Badge>}
                      {possible.has(i) && <Badge>possible duplicate</Badge>}
                      {todos.map((x, k) => <div key={k} class={x.severity === "blocker" ? "field-error" : "muted"}>{x.field}: {x.message}</div>)}
                    </td>
                  </tr>
                );
              })}</tbody>
            </table></div>
            <div class="form-actions">
              <button type="button" class="primary" disabled={!!busy || skip.size === parsed.transactions.length} onClick={commit}>
                Import {parsed.transactions.length - skip.size} rows
              </button>
            </div>
          </section>
        </>
      )}
      {done !== null && (
        <p class="note" role="status">Imported {done} transactions. <Link href={`/transactions?broker_id=${brokerId}`}>See them</Link></p>
      )}
    </Page>
  );
}
