/**
 * Import wizard for broker reports (the BRIM API under /brokers/import): upload → detected plugin
 * → parse into a preview → map each asset to an existing one or a new one → leave out duplicates
 * and rows with open blockers → commit the rows through the transaction batch (all or nothing).
 */
import { useMemo, useState } from "preact/hooks";
import { api, errorText, type Body, type Result } from "../api/client.ts";
import { Badge, Dialog, ErrorNote, Field, Loading, Page, Select } from "../components/ui.tsx";
import { formatDate, formatDecimal, formatMoney } from "../lib/format.ts";
import { Link } from "../lib/router.tsx";
import { localeOf, useApp } from "../lib/store.ts";
import { useAsync } from "../lib/use-async.ts";
import { applyForm, checkRowForm, type ImportRow, openProblems, type Problem, type RowField, type RowForm, toForm } from "../lib/import-rows.ts";
import { msg, t } from "../lib/i18n.ts";

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
  const [edits, setEdits] = useState<Record<number, ImportRow>>({});
  const [editing, setEditing] = useState<number | null>(null);
  const assets = useAsync((signal) => api.get("/assets/all", { signal }), []);

  // The rows as the user corrected them, and what each still needs. An unmapped asset is answered
  // by step 3; every other blocker todo and every validation issue keeps its row out until fixed.
  const rows = useMemo(() => (parsed?.transactions ?? []).map((x, i) => edits[i] ?? x), [parsed, edits]);
  const problems = useMemo(() => rows.map((row, i) => openProblems(i, parsed!.transactions[i]!, row, parsed!.field_todos, parsed!.validation_issues)), [rows]);
  const blocked = useMemo(() => new Set(problems.flatMap((p, i) => p.some((x) => x.blocker) ? [i] : [])), [problems]);
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
    setEdits({});
    const stuck = r.transactions.flatMap((x, i) => openProblems(i, x, x, r.field_todos, r.validation_issues).some((p) => p.blocker) ? [i] : []);
    setSkip(new Set([...r.duplicates.tx_likely_duplicates.map((d) => d.tx_index), ...stuck]));
  });
  const commit = () => void run(t("Importing…"), async () => {
    const p = parsed!;
    const ids = new Map<number, number>();
    const toCreate = p.asset_mappings.filter((m) => choices[m.fake_asset_id] === "new");
    if (p.asset_mappings.some((m) => choices[m.fake_asset_id] === "")) throw new Error(t("Choose an asset for every line of the mapping."));
    if (toCreate.length) {
      const currencyOf = (fake: number) => rows.find((x) => x.asset_id === fake && x.cash)?.cash?.code ?? prefs.base_currency;
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
    if (rows.some((_, i) => !skip.has(i) && blocked.has(i))) throw new Error(t("Fix or leave out the rows marked in red first."));
    const creates = rows.filter((_, i) => !skip.has(i)).map((x) => ({ ...x, asset_id: x.asset_id !== undefined && x.asset_id !== null ? ids.get(x.asset_id) ?? x.asset_id : undefined }));
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
            {blocked.size > 0 && <p class="note error" role="status">{t("{n} row(s) need a correction before they can be imported: use Edit on the row.", { n: blocked.size })}</p>}
            <div class="table-wrap"><table class="table compact">
              <thead><tr><th scope="col">{t("Import")}</th><th scope="col">{t("Date")}</th><th scope="col">{t("Type")}</th><th scope="col">{t("Asset")}</th><th scope="col" class="num">{t("Quantity")}</th><th scope="col" class="num">{t("Cash")}</th><th scope="col">{t("Notes")}</th><th scope="col"><span class="sr-only">{t("Actions")}</span></th></tr></thead>
              <tbody>{rows.map((tx, i) => {
                const m = tx.asset_id !== undefined && tx.asset_id !== null ? mappingOf.get(tx.asset_id) : undefined;
                const existing = m ? undefined : (assets.data ?? []).find((a) => a.id === tx.asset_id);
                const unmapped = parsed.field_todos.filter((x) => x.tx_index === i && x.reason_code === "assetUnmapped" && m && choices[m.fake_asset_id] === "");
                return (
                  <tr key={i} class={blocked.has(i) ? "invalid" : ""}>
                    <td><input type="checkbox" aria-label={t("Import row {n}", { n: i + 1 })} checked={!skip.has(i)} disabled={blocked.has(i)} onChange={() => toggle(i)} /></td>
                    <td>{formatDate(tx.date, locale)}</td><td>{tx.type}</td>
                    <td>{m ? m.extracted_name ?? m.extracted_symbol ?? m.extracted_isin : existing?.name ?? ""}</td>
                    <td class="num">{tx.quantity && tx.quantity !== "0" ? formatDecimal(tx.quantity, locale, { maxPlaces: 8 }) : ""}</td>
                    <td class="num">{tx.cash ? formatMoney(tx.cash.amount, tx.cash.code, locale) : ""}</td>
                    <td>
                      {likely.has(i) && <Badge kind="warning">{t("likely duplicate")}</Badge>}
                      {possible.has(i) && <Badge>{t("possible duplicate")}</Badge>}
                      {edits[i] && <Badge kind="info">{t("corrected")}</Badge>}
                      {unmapped.map((x, k) => <div key={`u${k}`} class="field-error">{x.message}</div>)}
                      {problems[i]!.map((x, k) => <div key={k} class={x.blocker ? "field-error" : "muted"}>{x.field ? `${t(ROW_FIELD_LABEL[x.field])}: ` : ""}{x.message}</div>)}
                    </td>
                    <td><button type="button" class="ghost" onClick={() => setEditing(i)} aria-label={t("Edit row {n}", { n: i + 1 })}>{t("Edit")}</button></td>
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
      {parsed && editing !== null && (
        <RowEditor index={editing} row={rows[editing]!} problems={problems[editing]!}
          assets={[
            ...parsed.asset_mappings.map((m) => ({ value: String(m.fake_asset_id), label: t("From the report: {name}", { name: m.extracted_name ?? m.extracted_symbol ?? m.extracted_isin ?? String(m.fake_asset_id) }) })),
            ...(assets.data ?? []).map((a) => ({ value: String(a.id), label: a.name })),
          ]}
          currencyOf={(id) => (assets.data ?? []).find((a) => a.id === id)?.currency ?? prefs.base_currency}
          onClose={() => setEditing(null)}
          onSave={(row) => {
            const i = editing;
            const next = { ...edits, [i]: row };
            const nowBlocked = openProblems(i, parsed.transactions[i]!, row, parsed.field_todos, parsed.validation_issues).some((x) => x.blocker);
            setEdits(next);
            setSkip((s) => { const n = new Set(s); if (nowBlocked) n.add(i); else if (blocked.has(i)) n.delete(i); return n; });
            setEditing(null);
          }} />
      )}
      {done !== null && (
        <p class="note" role="status">{t("Imported {n} transactions.", { n: done })} <Link href={`/transactions?broker_id=${brokerId}`}>{t("See them")}</Link></p>
      )}
    </Page>
  );
}

const ROW_FIELD_LABEL: Record<RowField, string> = {
  date: msg("Date"), asset_id: msg("Asset"), quantity: msg("Quantity"), cash_amount: msg("Amount"),
  cash_currency: msg("Currency"), cost_basis: msg("Cost per unit"), description: msg("Description"),
};

/** Corrects one parsed row before commit; the parse's todos and issues are shown on their fields. */
function RowEditor(props: {
  index: number;
  row: ImportRow;
  problems: Problem[];
  assets: { value: string; label: string }[];
  currencyOf(assetId: number): string;
  onClose(): void;
  onSave(row: ImportRow): void;
}) {
  const [form, setForm] = useState<RowForm>(() => toForm(props.row));
  const [errors, setErrors] = useState<Partial<Record<RowField, string>>>({});
  const set = (k: RowField, v: string) => { setForm((f) => ({ ...f, [k]: v })); setErrors((e) => ({ ...e, [k]: undefined })); };
  const general = props.problems.filter((p) => p.field === null);
  const flagged = (k: RowField) => [errors[k], ...props.problems.filter((p) => p.field === k).map((p) => p.message)].filter((x): x is string => !!x);
  const save = (e: Event) => {
    e.preventDefault();
    const found = checkRowForm(form);
    setErrors(found);
    if (Object.keys(found).length) return;
    props.onSave(applyForm(props.row, form, form.asset_id ? props.currencyOf(Number(form.asset_id)) : ""));
  };
  const input = (k: RowField, extra: Record<string, unknown> = {}) => (id: string, describedBy?: string) => (
    <input id={id} aria-describedby={describedBy} aria-invalid={flagged(k).length ? true : undefined} value={form[k]}
      onInput={(e) => set(k, (e.target as HTMLInputElement).value)} {...extra} />
  );
  return (
    <Dialog title={t("Row {n}: {type}", { n: props.index + 1, type: props.row.type })} open onClose={props.onClose}>
      <form class="form" onSubmit={save} noValidate>
        {general.length > 0 && <div class="note error" role="alert">{general.map((g, i) => <p key={i}>{g.message}</p>)}</div>}
        <Field label={t("Date")} error={flagged("date")}>{input("date", { type: "date" })}</Field>
        <Field label={t("Asset")} error={flagged("asset_id")}>{(id, d) => (
          <Select id={id} aria-describedby={d} aria-invalid={flagged("asset_id").length ? true : undefined} value={form.asset_id}
            placeholder={t("None")} options={props.assets} onChange={(v) => set("asset_id", v)} />
        )}</Field>
        <Field label={t("Quantity")} error={flagged("quantity")}>{input("quantity", { inputMode: "decimal" })}</Field>
        <div class="row">
          <Field label={t("Amount")} error={flagged("cash_amount")} hint={t("Signed: negative leaves the account.")}>{input("cash_amount", { inputMode: "decimal" })}</Field>
          <Field label={t("Currency")} error={flagged("cash_currency")}>{input("cash_currency", { maxLength: 3, size: 4 })}</Field>
        </div>
        <Field label={t("Cost per unit")} error={flagged("cost_basis")} hint={t("For units received without a price.")}>{input("cost_basis", { inputMode: "decimal" })}</Field>
        <Field label={t("Description")}>{input("description", { maxLength: 500 })}</Field>
        <div class="form-actions">
          <button type="button" onClick={props.onClose}>{t("Cancel")}</button>
          <button type="submit" class="primary">{t("Apply to the row")}</button>
        </div>
      </form>
    </Dialog>
  );
}
