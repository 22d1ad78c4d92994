/**
 * Import wizard for broker reports (the BRIM API under /brokers/import): upload → detected plugin
 * → parse into a preview → map each asset to an existing one or a new one, correct or leave out
 * rows. The page sends decisions, never rows: each change asks the commit route for a dry run
 * (what would be written, duplicates left out, problems per row), and Import sends the same
 * decisions for real, so the server writes the new assets and the rows in one transaction.
 */
import { useEffect, useLayoutEffect, useMemo, useState } from "preact/hooks";
import { api, ApiError, type Body, type Result } from "../api/client.ts";
import { Badge, Dialog, ErrorNote, Field, Loading, Page, Select } from "../components/ui.tsx";
import { formatDate, formatDecimal, formatMoney } from "../lib/format.ts";
import { Link, useLocation } from "../lib/router.tsx";
import { localeOf, useApp } from "../lib/store.ts";
import { useAsync } from "../lib/use-async.ts";
import {
  applyForm, checkRowForm, type CommitIssue, commitProblems, type ImportRow, openProblems, type Problem, type RowField, type RowForm, toEdit, toForm,
} from "../lib/import-rows.ts";
import { msg, t } from "../lib/i18n.ts";
import { txTypeLabel } from "../lib/tx-form.ts";

type FileInfo = Result<"post", "/brokers/import/upload">;
type Parsed = Result<"post", "/brokers/import/files/{file_id}/parse">;
type CommitPath = "/brokers/import/files/{file_id}/commit";
type Decisions = Body<"post", CommitPath>;
type Preview = Result<"post", CommitPath>;
/** A mapping choice: an existing asset id, or "new" to create one from the report's name. */
type Choice = number | "new" | "";

/** Dry runs in a row at most: rows with problems are held back and the rest checked again (a pair's other leg, say). */
const HOLD_ROUNDS = 4;

export function ImportPage() {
  const { prefs } = useApp();
  const locale = localeOf(prefs);
  const brokers = useAsync(async (signal) => (await api.get("/brokers", { signal })).items.filter((b) => b.user_role !== "VIEWER"), []);
  const [brokerId, setBrokerId] = useState("");
  // Several files only as PDFs: the server stores them as one ZIP of documents, read into one preview.
  const [files, setFiles] = useState<File[]>([]);
  const [uploaded, setUploaded] = useState<FileInfo | null>(null);
  const [plugin, setPlugin] = useState("auto");
  const [parsed, setParsed] = useState<Parsed | null>(null);
  const [choices, setChoices] = useState<Record<number, Choice>>({});
  // The user's decisions: rows left out, likely duplicates kept, corrected rows.
  const [skip, setSkip] = useState<Set<number>>(new Set());
  const [keep, setKeep] = useState<Set<number>>(new Set());
  const [edits, setEdits] = useState<Record<number, ImportRow>>({});
  // The server's answer to them: the dry run, and the rows held back for their problems.
  const [preview, setPreview] = useState<Preview | null>(null);
  const [held, setHeld] = useState<Map<number, CommitIssue[]>>(new Map());
  const [checking, setChecking] = useState(false);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState<{ written: number; duplicates: number } | null>(null);
  const [editing, setEditing] = useState<number | null>(null);
  const assets = useAsync((signal) => api.get("/assets/all", { signal }), []);
  const readers = useAsync((signal) => api.get("/brokers/import/plugins", { signal }), []);
  /** A reader (import plugin) by its name, not its code. */
  const readerName = (code: string) => code === "auto" ? t("Detect automatically") : readers.data?.items.find((p) => p.code === code)?.name ?? code;
  const resumeId = useLocation().query.get("file");

  const rows = useMemo(() => (parsed?.transactions ?? []).map((x, i) => edits[i] ?? x), [parsed, edits]);
  const mappingOf = useMemo(() => new Map((parsed?.asset_mappings ?? []).map((m) => [m.fake_asset_id, m])), [parsed]);
  const duplicateOf = useMemo(() => new Map((preview?.duplicates ?? []).map((d) => [d.row, d])), [preview]);
  const likely = (i: number) => duplicateOf.get(i)?.match_level.startsWith("likely") ?? false;
  const included = (i: number) => !held.has(i) && !skip.has(i) && (!likely(i) || keep.has(i));
  // The parse's words for a field first (they say what to do); the server's for what they leave out.
  const problems = useMemo(() => rows.map((row, i) => {
    const open = openProblems(i, parsed!.transactions[i]!, row, parsed!.field_todos, parsed!.validation_issues);
    const covered = new Set(open.flatMap((p) => (p.field ? [p.field] : [])));
    return [...open, ...commitProblems(i, held.get(i) ?? []).filter((p) => p.field === null || !covered.has(p.field))];
  }), [rows, held]);

  /** The decisions as the commit route takes them; `holding`: rows left out for their problems. */
  const decisions = (holding: Iterable<number>, dryRun: boolean): Decisions => ({
    dry_run: dryRun,
    edits: Object.entries(edits).map(([i, row]) => toEdit(Number(i), row)),
    skips: [...new Set([...skip, ...holding])].sort((a, b) => a - b),
    keep_duplicates: [...keep].sort((a, b) => a - b),
    asset_choices: (parsed?.asset_mappings ?? []).flatMap((m): Decisions["asset_choices"] => {
      const c = choices[m.fake_asset_id];
      if (typeof c === "number") return [{ fake_asset_id: m.fake_asset_id, action: "use", asset_id: c }];
      if (c !== "new") return [];
      // An asset none of whose rows moves cash takes the user's currency, as a new asset would in the form.
      const priced = rows.some((x) => x.asset_id === m.fake_asset_id && (x.cash || x.cost_basis_override));
      return [{ fake_asset_id: m.fake_asset_id, action: "create", ...(priced ? {} : { asset: { currency: prefs.base_currency } }) }];
    }),
  });

  // Every change of the decisions asks for a dry run (a short pause first, so a burst of clicks asks
  // once). Before paint, so Import is never enabled over the answer to older decisions.
  useLayoutEffect(() => {
    if (!parsed || !uploaded || done) return;
    let stale = false;
    setChecking(true);
    const timer = setTimeout(() => void (async () => {
      try {
        const holding = new Map<number, CommitIssue[]>();
        let answer: Preview | null = null;
        for (let round = 0; round < HOLD_ROUNDS; round++) {
          answer = await api.post("/brokers/import/files/{file_id}/commit", { path: { file_id: uploaded.file_id }, body: decisions(holding.keys(), true) });
          if (stale) return;
          const found = answer.issues.filter((i) => i.row !== null && !holding.has(i.row));
          if (found.length === 0) break;
          for (const i of found) holding.set(i.row!, [...(holding.get(i.row!) ?? []), i]);
        }
        setHeld(holding);
        setPreview(answer);
        setError(null);
      } catch (e) {
        if (!stale) setError(e);
      } finally {
        if (!stale) setChecking(false);
      }
    })(), 200);
    return () => { stale = true; clearTimeout(timer); };
  }, [parsed, edits, skip, keep, choices]);

  const run = async (label: string, work: () => Promise<void>) => {
    setBusy(label); setError(null);
    try { await work(); } catch (e) { setError(e); } finally { setBusy(null); }
  };
  const upload = (e: Event) => {
    e.preventDefault();
    if (files.length === 0 || !brokerId) { setError(new Error(t("Choose a broker and a file."))); return; }
    void run(t("Uploading…"), async () => {
      const form = new FormData();
      for (const file of files) form.append("file", file);
      const info = await api.post("/brokers/import/upload", { query: { broker_id: Number(brokerId) }, body: form as never });
      setUploaded(info); setParsed(null); setPreview(null); setDone(null);
      setPlugin(info.compatible_plugins[0] ?? "auto");
    });
  };
  const showParse = (r: Parsed) => {
    setPreview(null); setHeld(new Map()); setEdits({}); setSkip(new Set()); setKeep(new Set()); setDone(null);
    setChoices(Object.fromEntries(r.asset_mappings.map((m) => [m.fake_asset_id, m.selected_asset_id ?? m.candidates.find((c) => c.match_confidence === "exact" || c.match_confidence === "high")?.asset_id ?? "new"])));
    setParsed(r);
  };
  const parse = () => void run(t("Reading the report…"), async () => {
    showParse(await api.post("/brokers/import/files/{file_id}/parse", { path: { file_id: uploaded!.file_id }, body: { plugin_code: plugin, broker_id: Number(brokerId) } }));
  });
  // `/import?file=<id>` (from the Uploads page) continues the import of a report uploaded earlier, from its last reading.
  useEffect(() => {
    if (!resumeId) return;
    void run(t("Loading the report…"), async () => {
      const info = await api.get("/brokers/import/files/{file_id}", { path: { file_id: resumeId } });
      setUploaded(info); setParsed(null); setPreview(null); setDone(null);
      if (info.target_broker_id !== null) setBrokerId(String(info.target_broker_id));
      setPlugin(info.parsed_plugin_code ?? info.compatible_plugins[0] ?? "auto");
      if (info.status !== "parsed" || info.parse_is_stale) return;
      const last = await api.get("/brokers/import/files/{file_id}/last-parse", { path: { file_id: resumeId } });
      if (last) showParse(last);
    });
  }, [resumeId]);
  const commit = () => void run(t("Importing…"), async () => {
    if (parsed!.asset_mappings.some((m) => choices[m.fake_asset_id] === "")) throw new Error(t("Choose an asset for every line of the mapping."));
    // The decisions of the dry run shown, for real: the server refuses them if the file was read again since.
    const r = await api.post("/brokers/import/files/{file_id}/commit", {
      path: { file_id: uploaded!.file_id }, body: { ...decisions(held.keys(), false), parse_token: preview!.parse_token },
    });
    if (!r.committed) {
      setPreview(r);
      throw new Error(r.issues.map((i) => (i.row === null ? i.message : `${t("row {n}", { n: i.row + 1 })}: ${i.message}`)).join("; ") || t("Nothing was imported."));
    }
    setDone({ written: r.rows.length, duplicates: r.skipped.filter((s) => s.reason === "duplicate").length });
  });

  const toggle = (i: number) => {
    if (held.has(i)) return;
    if (included(i)) {
      if (keep.has(i)) setKeep((k) => { const n = new Set(k); n.delete(i); return n; });
      else setSkip((s) => new Set(s).add(i));
    } else if (skip.has(i)) setSkip((s) => { const n = new Set(s); n.delete(i); return n; });
    else if (likely(i)) setKeep((k) => new Set(k).add(i));
  };
  const selected = rows.filter((_, i) => included(i)).length;
  const generalIssues = (preview?.issues ?? []).filter((i) => i.row === null && i.fake_asset_id === null);

  return (
    <Page title={t("Import")}>
      <p class="muted">{t("Reports you sent earlier, and where each import stands, are listed under Uploads.")} <Link href="/uploads">{t("Your broker reports")}</Link></p>
      <form class="card form" onSubmit={upload} aria-labelledby="h-up">
        <h2 id="h-up">{t("1. Upload a broker report")}</h2>
        <div class="row">
          <Field label={t("Into broker")}>{(id) => <Select id={id} value={brokerId} placeholder={t("Choose…")} options={(brokers.data ?? []).map((b) => ({ value: String(b.id), label: b.name }))} onChange={setBrokerId} />}</Field>
          <Field label={t("Report file")} hint={t("Several PDFs of one broker can be chosen at once; they are read together.")}>{(id, d) => (
            <input id={id} type="file" multiple aria-describedby={d} onChange={(e) => setFiles([...((e.target as HTMLInputElement).files ?? [])])} />
          )}</Field>
        </div>
        <button type="submit" class="primary" disabled={!!busy}>{t("Upload")}</button>
      </form>
      {uploaded && (
        <section class="card form" aria-labelledby="h-plugin">
          <h2 id="h-plugin">{t("2. Read it")}</h2>
          <p>{uploaded.filename}: {uploaded.compatible_plugins.length ? t("recognised by {readers}", { readers: uploaded.compatible_plugins.map(readerName).join(", ") }) : t("no reader recognised it; try the generic CSV reader")}.</p>
          <Field label={t("Reader")}>{(id) => <Select id={id} value={plugin} options={[...new Set([...uploaded.compatible_plugins, "auto", "broker_generic_csv"])].map((p) => ({ value: p, label: readerName(p) }))} onChange={setPlugin} />}</Field>
          <button type="button" class="primary" disabled={!!busy} onClick={parse}>{t("Read the report")}</button>
        </section>
      )}
      {busy && <Loading label={busy} />}
      <ErrorNote error={error} />
      {uploaded && error instanceof ApiError && error.code === "PARSE_FAILED" && /\.(pdf|zip)$/i.test(uploaded.filename) && (
        <PdfTextForReport key={uploaded.file_id} fileId={uploaded.file_id} />
      )}
      {parsed && done === null && (
        <>
          {parsed.asset_mappings.length > 0 && (
            <section class="card" aria-labelledby="h-map">
              <h2 id="h-map">{t("3. Assets")}</h2>
              <div class="table-wrap"><table class="table compact">
                <thead><tr><th scope="col">{t("In the report")}</th><th scope="col">{t("Use")}</th></tr></thead>
                <tbody>{parsed.asset_mappings.map((m) => {
                  const label = [m.extracted_name, m.extracted_symbol, m.extracted_isin].filter(Boolean).join(" · ");
                  const refused = (preview?.issues ?? []).filter((i) => i.row === null && i.fake_asset_id === m.fake_asset_id);
                  return (
                    <tr key={m.fake_asset_id} class={refused.length ? "invalid" : ""}>
                      <td>{label}</td>
                      <td><Select aria-label={t("Asset for {label}", { label })} value={choices[m.fake_asset_id] ?? ""}
                        options={[{ value: "new", label: t("Create a new asset") }, ...m.candidates.map((c) => ({ value: c.asset_id, label: `${c.name} (${c.match_confidence})` }))]}
                        onChange={(v) => setChoices({ ...choices, [m.fake_asset_id]: v === "new" ? "new" : v ? Number(v) : "" })} />
                        {refused.map((x, k) => <div key={k} class="field-error">{x.message}</div>)}</td>
                    </tr>
                  );
                })}</tbody>
              </table></div>
            </section>
          )}
          {!preview && checking && <Loading label={t("Checking the rows against your ledger…")} />}
          {preview && (
            <section class="card" aria-labelledby="h-rows" aria-busy={checking}>
              <h2 id="h-rows">{t("4. Rows ({selected} of {total} selected)", { selected, total: parsed.transactions.length })}</h2>
              {parsed.warnings.map((w, i) => <p key={i} class="note warning">{w.message}</p>)}
              {held.size > 0 && <p class="note error" role="status">{t("{n} row(s) need a correction before they can be imported: use Edit on the row.", { n: held.size })}</p>}
              {generalIssues.map((x, i) => <p key={`g${i}`} class="note error" role="status">{x.message}</p>)}
              <div class="table-wrap"><table class="table compact">
                <thead><tr><th scope="col">{t("Import")}</th><th scope="col">{t("Date")}</th><th scope="col">{t("Type")}</th><th scope="col">{t("Asset")}</th><th scope="col" class="num">{t("Quantity")}</th><th scope="col" class="num">{t("Cash")}</th><th scope="col">{t("Notes")}</th><th scope="col"><span class="sr-only">{t("Actions")}</span></th></tr></thead>
                <tbody>{rows.map((tx, i) => {
                  const m = tx.asset_id !== undefined && tx.asset_id !== null ? mappingOf.get(tx.asset_id) : undefined;
                  const existing = m ? undefined : (assets.data ?? []).find((a) => a.id === tx.asset_id);
                  const unmapped = parsed.field_todos.filter((x) => x.tx_index === i && x.reason_code === "assetUnmapped" && m && choices[m.fake_asset_id] === "");
                  const dup = duplicateOf.get(i);
                  return (
                    <tr key={i} class={held.has(i) ? "invalid" : ""}>
                      <td><input type="checkbox" aria-label={t("Import row {n}", { n: i + 1 })} checked={included(i)} disabled={held.has(i)} onChange={() => toggle(i)} /></td>
                      <td>{formatDate(tx.date, locale)}</td><td>{txTypeLabel(tx.type)}</td>
                      <td>{m ? m.extracted_name ?? m.extracted_symbol ?? m.extracted_isin : existing?.name ?? ""}</td>
                      <td class="num">{tx.quantity && tx.quantity !== "0" ? formatDecimal(tx.quantity, locale, { maxPlaces: 8 }) : ""}</td>
                      <td class="num">{tx.cash ? formatMoney(tx.cash.amount, tx.cash.code, locale) : ""}</td>
                      <td>
                        {dup?.match_level.startsWith("likely") && <Badge kind="warning">{t("likely duplicate")}</Badge>}
                        {dup?.match_level.startsWith("possible") && <Badge>{t("possible duplicate")}</Badge>}
                        {dup?.match_level === "in_file" && <Badge>{t("same as row {n}", { n: (dup.same_as_rows[0] ?? 0) + 1 })}</Badge>}
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
                <button type="button" class="primary" disabled={!!busy || checking || selected === 0 || preview.issues.length > 0} onClick={commit}>
                  {t("Import {n} rows", { n: selected })}
                </button>
              </div>
            </section>
          )}
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
            setEdits({ ...edits, [i]: row });
            // Back in until the dry run of the corrected row says otherwise.
            setHeld((h) => { const n = new Map(h); n.delete(i); return n; });
            setEditing(null);
          }} />
      )}
      {done !== null && (
        <p class="note" role="status">
          {t("Imported {n} transactions.", { n: done.written })}{" "}
          {done.duplicates > 0 && <>{t("{n} likely duplicate(s) were left out.", { n: done.duplicates })}{" "}</>}
          <Link href={`/transactions?broker_id=${brokerId}`}>{t("See them")}</Link>
        </p>
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
  const locale = localeOf(useApp().prefs);
  const [form, setForm] = useState<RowForm>(() => toForm(props.row, locale));
  const [errors, setErrors] = useState<Partial<Record<RowField, string>>>({});
  const set = (k: RowField, v: string) => { setForm((f) => ({ ...f, [k]: v })); setErrors((e) => ({ ...e, [k]: undefined })); };
  const general = props.problems.filter((p) => p.field === null);
  const flagged = (k: RowField) => [errors[k], ...props.problems.filter((p) => p.field === k).map((p) => p.message)].filter((x): x is string => !!x);
  const save = (e: Event) => {
    e.preventDefault();
    const found = checkRowForm(form, locale);
    setErrors(found);
    if (Object.keys(found).length) return;
    props.onSave(applyForm(props.row, form, form.asset_id ? props.currencyOf(Number(form.asset_id)) : "", locale));
  };
  const input = (k: RowField, extra: Record<string, unknown> = {}) => (id: string, describedBy?: string) => (
    <input id={id} aria-describedby={describedBy} aria-invalid={flagged(k).length ? true : undefined} value={form[k]}
      onInput={(e) => set(k, (e.target as HTMLInputElement).value)} {...extra} />
  );
  return (
    <Dialog title={t("Row {n}: {type}", { n: props.index + 1, type: txTypeLabel(props.row.type) })} open onClose={props.onClose}>
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

/**
 * A document that failed to parse: its text as the importers read it, anonymised by the server
 * (names, addresses, IBANs, account numbers), ready to copy into a bug report.
 */
function PdfTextForReport(props: { fileId: string }) {
  const [text, setText] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [copied, setCopied] = useState(false);
  const load = () => void (async () => {
    setLoading(true); setError(null);
    try {
      const r = await api.get("/brokers/import/files/{file_id}/pdf-text", { path: { file_id: props.fileId }, query: { anonymise: "true" } });
      setText(r.documents.map((d) => `=== ${d.name} ===\n${d.text ?? t("(no text: {reason})", { reason: d.message ?? d.reason ?? "" })}`).join("\n\n"));
    } catch (e) { setError(e); } finally { setLoading(false); }
  })();
  const copy = () => void navigator.clipboard.writeText(text ?? "").then(() => setCopied(true), (e) => setError(e));
  return (
    <section class="card form" aria-labelledby="h-pdf-text">
      <h2 id="h-pdf-text">{t("Anonymised text for a bug report")}</h2>
      <p class="muted">{t("The documents' text as the importers read it, with names, addresses, IBANs and account numbers masked. Check it before you share it.")}</p>
      {text === null
        ? <button type="button" disabled={loading} onClick={load}>{loading ? t("Getting the text…") : t("Get the anonymised text")}</button>
        : (
          <>
            <Field label={t("Anonymised text")}>{(id) => <textarea id={id} readOnly rows={16} value={text} onFocus={(e) => (e.target as HTMLTextAreaElement).select()} />}</Field>
            <button type="button" onClick={copy}>{t("Copy")}</button>
            {copied && <span role="status" class="muted"> {t("Copied.")}</span>}
          </>
        )}
      <ErrorNote error={error} />
    </section>
  );
}
