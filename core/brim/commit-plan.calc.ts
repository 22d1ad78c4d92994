import type { NewAsset } from "../assets/asset.service.ts";
import { eventLoopBreather, IMPORT_SLICE_MS } from "../async/yield-to-event-loop.ts";
import type { Issue } from "../errors/validation-issues.ts";
import type { CreateInput, RuleError } from "../transactions/batch.types.ts";
import { type LedgerFact, norm } from "./duplicates.calc.ts";
import { type AssetMappingDoc, type CashDoc, type DuplicateLevel, type DuplicateReportDoc, isFakeAssetId, type ParseResultDoc, type TxCreateDoc } from "./parse-result.ts";
import { duplicateReport } from "./pipeline.ts";

/**
 * The pure stages of an import commit (`POST /brokers/import/files/{id}/commit`): the user's
 * decisions applied to the stored parse, and what follows from them. The worker runs the first
 * part ({@link planCommit}: references, edits and skips, field checks, asset decisions, the
 * duplicate report against a snapshot of the ledger); the write runs the rest ({@link decideRows}:
 * duplicates skipped or kept, pairs kept whole, the assets the written rows need) on the report
 * it trusts, then the ledger's batch.
 */

/** The fields an edit may set on a parsed row, in the parse's names; null clears one. */
export interface RowEditFields {
  asset_id?: number | null;
  cash?: CashDoc | null;
  cost_basis_mode?: "auto" | "auto-detail" | "manual" | null;
  cost_basis_override?: CashDoc | null;
  date?: string;
  description?: string | null;
  quantity?: string;
  tags?: string[] | null;
  type?: string;
}

export interface RowEdit extends RowEditFields {
  /** Index of the row in the parse's `transactions`. */
  row: number;
}

/** Core fields of an asset to create (as `POST /assets` takes them); name and currency default from the report. */
export type AssetDraft = Partial<NewAsset>;

export type AssetChoice =
  | { action: "create"; asset: AssetDraft; fakeAssetId: number }
  | { action: "use"; assetId: number; fakeAssetId: number };

/** What the user decided about a stored parse. */
export interface CommitDecisions {
  assetChoices: AssetChoice[];
  /** The broker to write into; null: the parse's. */
  brokerId: number | null;
  edits: RowEdit[];
  keepDuplicates: number[];
  skips: number[];
}

/** A problem that keeps the import from being written: of a row, of an asset to create, or of a broker (both null). */
export interface ImportIssue {
  code: string;
  fakeAssetId: number | null;
  field: string | null;
  message: string;
  params: Record<string, unknown> | null;
  row: number | null;
}

/** A parsed row the user did not leave out, with its final fields. */
export interface PlannedRow {
  /** The ledger create (asset not set yet: see `assetId` and `newAsset`); null when its fields cannot be read. */
  create: CreateInput | null;
  /** The row as edited, in the parse's names, kept only when its fields cannot be read (a plan of 50,000 rows crosses threads). */
  doc?: TxCreateDoc;
  edited: boolean;
  /** The real asset, when known before the write. */
  assetId: number | null;
  /** The report's asset key the row's asset came from. */
  fakeAssetId: number | null;
  /** The asset is created by this import (its `fakeAssetId`). */
  newAsset: boolean;
  row: number;
}

export type PlannedAsset =
  | { action: "create"; fakeAssetId: number; fields: NewAsset | null; issue: Omit<ImportIssue, "fakeAssetId" | "row"> | null }
  | { action: "use"; assetId: number; fakeAssetId: number };

/** Everything the write needs, made off the request thread; plain data (it crosses threads as JSON). */
export interface CommitPlan {
  assets: PlannedAsset[];
  brokerId: number;
  /** Duplicates of `rows` (tx_index = position in `rows`) against the ledger as of `generation`. */
  duplicates: DuplicateReportDoc;
  /** The ledger's change counter when the duplicates were read: the write re-checks when it moved. */
  generation: string;
  issues: ImportIssue[];
  keep: number[];
  /** Index → the other leg, for the parse's paired rows. */
  partners: [number, number][];
  rowCount: number;
  rows: PlannedRow[];
  skipped: number[];
}

/** Reads one row's fields with the transaction write routes' schema: the create (asset left out), or why not. */
export type FieldCheck = (doc: TxCreateDoc) => { create: CreateInput; ok: true } | { errors: RuleError[]; ok: false };

/**
 * The decisions' references to the parse: rows in range and edited once, choices for assets the
 * report names, once each. Their issues refuse the request as a 422 (`loc` under `body`).
 */
export function referenceIssues(parse: ParseResultDoc, d: CommitDecisions): Issue[] {
  const issues: Issue[] = [];
  const count = parse.transactions.length;
  const fakes = new Set(parse.asset_mappings.map((m) => m.fake_asset_id));
  const rowRef = (row: number, loc: (string | number)[]) => {
    if (row >= count) issues.push({ loc, msg: `No row ${row}: the parse has ${count} rows (0 to ${count - 1})`, type: "row_not_found" });
  };
  const seen = new Set<number>();
  d.edits.forEach((e, i) => {
    rowRef(e.row, ["body", "edits", i, "row"]);
    if (seen.has(e.row)) issues.push({ loc: ["body", "edits", i, "row"], msg: `Row ${e.row} is edited twice`, type: "duplicate_row" });
    seen.add(e.row);
    if (e.asset_id != null && isFakeAssetId(e.asset_id) && !fakes.has(e.asset_id)) {
      issues.push({ loc: ["body", "edits", i, "asset_id"], msg: `The report names no asset ${e.asset_id}`, type: "asset_not_found" });
    }
  });
  d.skips.forEach((row, i) => rowRef(row, ["body", "skips", i]));
  d.keepDuplicates.forEach((row, i) => rowRef(row, ["body", "keep_duplicates", i]));
  const chosen = new Set<number>();
  d.assetChoices.forEach((c, i) => {
    const loc = ["body", "asset_choices", i, "fake_asset_id"];
    if (!fakes.has(c.fakeAssetId)) issues.push({ loc, msg: `The report names no asset ${c.fakeAssetId}`, type: "asset_not_found" });
    if (chosen.has(c.fakeAssetId)) issues.push({ loc, msg: `Asset ${c.fakeAssetId} is chosen twice`, type: "duplicate_asset" });
    chosen.add(c.fakeAssetId);
  });
  return issues;
}

/** The fields of a row the ledger takes (the asset apart): anything else a parse may carry is not the ledger's. */
const CREATE_FIELDS = ["broker_id", "type", "date", "quantity", "cash", "link_uuid", "tags", "description", "cost_basis_override", "cost_basis_mode"] as const;

function createFields(doc: TxCreateDoc): TxCreateDoc {
  const out: Record<string, unknown> = {};
  for (const key of CREATE_FIELDS) if ((doc as unknown as Record<string, unknown>)[key] !== undefined) out[key] = (doc as unknown as Record<string, unknown>)[key];
  return out as unknown as TxCreateDoc;
}

/** The parse's row with the edit's fields: absent keeps, null clears. */
export function applyEdit(doc: TxCreateDoc, edit: RowEditFields | undefined): TxCreateDoc {
  if (!edit) return doc;
  const out: Record<string, unknown> = { ...doc };
  for (const [key, value] of Object.entries(edit)) {
    if (key === "row" || value === undefined) continue;
    if (value === null) delete out[key];
    else out[key] = value;
  }
  return out as unknown as TxCreateDoc;
}

const issue = (row: number | null, fakeAssetId: number | null, code: string, message: string, field: string | null = null, params: Record<string, unknown> | null = null): ImportIssue =>
  ({ row, fakeAssetId, code, message, field, params });

/**
 * Off the request thread: the rows the user kept, edited and checked field by field, each row's
 * asset decided (a choice; else the parse's pre-selected match; else `assetUnmapped`), the assets
 * to create with their fields (defaults from the report), and the duplicate report of the kept rows
 * against the broker's ledger as `ledger` reads it.
 */
export async function planCommit(
  parse: ParseResultDoc, d: CommitDecisions, brokerId: number, check: FieldCheck,
  ledger: (from: string, to: string) => Promise<LedgerFact[]>, generation: string,
): Promise<CommitPlan> {
  const edits = new Map(d.edits.map((e) => [e.row, e]));
  const skipped = new Set(d.skips);
  const choices = new Map(d.assetChoices.map((c) => [c.fakeAssetId, c]));
  const mappings = new Map(parse.asset_mappings.map((m) => [m.fake_asset_id, m]));
  const issues: ImportIssue[] = [];
  const rows: PlannedRow[] = [];
  parse.transactions.forEach((original, row) => {
    if (skipped.has(row)) return;
    const edit = edits.get(row);
    const doc = { ...applyEdit(original, edit), broker_id: brokerId };
    const assetRef = doc.asset_id;
    const checked = check(createFields(doc));
    if (!checked.ok) {
      for (const e of checked.errors) issues.push(issue(row, null, e.code, e.msg, e.field ?? null, e.params ?? null));
    }
    const planned: PlannedRow = {
      row, edited: edit !== undefined, create: checked.ok ? checked.create : null, assetId: null, fakeAssetId: null, newAsset: false,
      ...(checked.ok ? {} : { doc }),
    };
    if (assetRef !== undefined && assetRef !== null) {
      if (!isFakeAssetId(assetRef)) planned.assetId = assetRef;
      else {
        planned.fakeAssetId = assetRef;
        const choice = choices.get(assetRef);
        const preselected = mappings.get(assetRef)?.selected_asset_id ?? null;
        if (choice?.action === "create") planned.newAsset = true;
        else if (choice?.action === "use") planned.assetId = choice.assetId;
        else if (preselected !== null) planned.assetId = preselected;
        else {
          issues.push(issue(row, assetRef, "assetUnmapped", "Choose an existing asset for this row's asset, or create it", "asset_id", { fake_asset_id: assetRef }));
        }
      }
    }
    if (planned.create) planned.create.assetId = planned.assetId;
    rows.push(planned);
  });
  const assets = plannedAssets(rows, mappings, choices);
  // Rows of an asset to create count as naming an unknown asset: no stored row can have it.
  const selected = [...mappings.keys()].map((fake) => {
    const c = choices.get(fake);
    return { fake_asset_id: fake, selected_asset_id: c?.action === "use" ? c.assetId : c?.action === "create" ? null : mappings.get(fake)!.selected_asset_id };
  });
  const duplicates = await duplicateReport(rows.map(factsOf), selected, ledger);
  return {
    brokerId, generation, rowCount: parse.transactions.length, rows, issues, assets, duplicates,
    skipped: [...skipped].sort((a, b) => a - b), keep: [...new Set(d.keepDuplicates)].sort((a, b) => a - b),
    partners: pairsOf(parse.transactions),
  };
}

/** A planned row as duplicate detection reads it: its final fields, its asset by the report's key when it has one. */
export function factsOf(r: PlannedRow): TxCreateDoc {
  if (!r.create) return r.doc!;
  const c = r.create;
  const asset = r.fakeAssetId ?? r.assetId;
  return {
    broker_id: c.brokerId ?? 0, type: c.type, date: c.date, quantity: c.quantity,
    ...(c.cash ? { cash: c.cash } : {}), ...(asset !== null ? { asset_id: asset } : {}),
  };
}

/** Index pairs of the parse's rows sharing a link_uuid (the two legs of an exchange). */
function pairsOf(rows: readonly TxCreateDoc[]): [number, number][] {
  const first = new Map<string, number>();
  const out: [number, number][] = [];
  rows.forEach((r, i) => {
    if (!r.link_uuid) return;
    const other = first.get(r.link_uuid);
    if (other === undefined) first.set(r.link_uuid, i);
    else out.push([other, i]);
  });
  return out;
}

/** Every asset a kept row takes from the report, decided: created (fields defaulted from the report) or an existing one. */
function plannedAssets(rows: readonly PlannedRow[], mappings: Map<number, AssetMappingDoc>, choices: Map<number, AssetChoice>): PlannedAsset[] {
  const used = new Map<number, PlannedRow[]>();
  for (const r of rows) if (r.fakeAssetId !== null) used.set(r.fakeAssetId, [...(used.get(r.fakeAssetId) ?? []), r]);
  const out: PlannedAsset[] = [];
  for (const [fake, users] of [...used].sort(([a], [b]) => a - b)) {
    const choice = choices.get(fake);
    if (choice?.action === "create") out.push({ action: "create", fakeAssetId: fake, ...draftAsset(choice.asset, mappings.get(fake)!, users) });
    else {
      const assetId = users[0]!.assetId;
      if (assetId !== null) out.push({ action: "use", fakeAssetId: fake, assetId });
    }
  }
  return out;
}

const ISIN = /^[A-Z0-9]{12}$/;

/**
 * An asset to create: the user's fields, the rest from the report as `POST /assets` would take
 * them (name: the report's name, else symbol, else ISIN; ISIN and ticker when well-formed; the
 * type the report states, else none; the currency of the first row of the asset with cash, else of
 * its cost basis). No currency → an issue.
 */
export function draftAsset(draft: AssetDraft, mapping: AssetMappingDoc, rows: readonly PlannedRow[]): { fields: NewAsset | null; issue: Omit<ImportIssue, "fakeAssetId" | "row"> | null } {
  const isin = mapping.extracted_isin?.trim().toUpperCase();
  const ticker = mapping.extracted_symbol?.trim();
  const name = draft.name ?? (mapping.extracted_name || mapping.extracted_symbol || mapping.extracted_isin || `Imported asset ${mapping.fake_asset_id}`).trim().slice(0, 255);
  const fromRows = rows.map((r) => (r.create ? r.create.cash?.code ?? r.create.costBasisOverride?.code : r.doc!.cash?.code ?? r.doc!.cost_basis_override?.code))
    .find((c) => c !== undefined && /^[A-Za-z]{3}$/.test(c));
  const currency = draft.currency ?? fromRows?.toUpperCase();
  if (!currency) {
    return {
      fields: null,
      issue: {
        code: "assetCurrencyMissing", field: "currency", params: { name },
        message: `No row of '${name}' moves cash: give the new asset's currency`,
      },
    };
  }
  return {
    fields: {
      ...(isin && ISIN.test(isin) ? { identifierIsin: isin } : {}),
      ...(ticker && ticker.length <= 20 ? { identifierTicker: ticker } : {}),
      ...(mapping.extracted_asset_type ? { assetType: mapping.extracted_asset_type } : {}),
      ...draft, name, currency,
    },
    issue: null,
  };
}

/** One parsed row's place in the import: written, or left out and why. */
export interface RowDecision {
  duplicate: { existingIds: number[]; level: DuplicateLevel | "in_file"; sameAsRows: number[]; skipped: boolean } | null;
  planned: PlannedRow;
  write: boolean;
}

/**
 * On the report the write trusts: likely duplicates are left out unless kept, possible ones and
 * rows equal to an earlier row of the import are written and flagged; a leg of a pair whose other
 * leg is left out (by the user or as a duplicate) is an issue, so an exchange is never half written.
 */
export async function decideRows(plan: CommitPlan, report: DuplicateReportDoc): Promise<{ decisions: RowDecision[]; issues: ImportIssue[] }> {
  const keep = new Set(plan.keep);
  // The write runs on the request thread: its walks over every row give other requests a turn every few ms
  // (a re-import makes every row a likely duplicate, so the report is as long as the rows).
  const breathe = eventLoopBreather(IMPORT_SLICE_MS);
  const byIndex = new Map<number, { ids: number[]; level: DuplicateLevel }>();
  for (const list of [report.tx_likely_duplicates, report.tx_possible_duplicates]) {
    for (const m of list) {
      await breathe();
      byIndex.set(m.tx_index, { ids: m.existing_transaction_ids, level: m.match_level });
    }
  }
  const decisions: RowDecision[] = [];
  for (let i = 0; i < plan.rows.length; i++) {
    await breathe();
    const planned = plan.rows[i]!;
    const found = byIndex.get(i);
    if (!found) { decisions.push({ planned, write: true, duplicate: null }); continue; }
    const likely = found.level === "likely" || found.level === "likely_with_asset";
    const skipped = likely && !keep.has(planned.row);
    decisions.push({ planned, write: !skipped, duplicate: { level: found.level, existingIds: found.ids, sameAsRows: [], skipped } });
  }
  await markInFileTwins(decisions);
  const written = new Set<number>();
  for (const d of decisions) {
    await breathe();
    if (d.write) written.add(d.planned.row);
  }
  const issues: ImportIssue[] = [];
  for (const [a, b] of plan.partners) {
    for (const [leg, other] of [[a, b], [b, a]] as const) {
      if (!written.has(leg) || written.has(other)) continue;
      issues.push(issue(leg, null, "pairLegLeftOut",
        `The other leg of this exchange (row ${other}) is left out; leave out both legs or keep both`, "link_uuid", { other_row: other }));
    }
  }
  return { decisions, issues };
}

/** Rows to write that equal an earlier row to write (type, day, quantity, cash, asset): flagged, never left out (two equal trades happen). */
async function markInFileTwins(decisions: RowDecision[]): Promise<void> {
  const first = new Map<string, number>();
  const breathe = eventLoopBreather(IMPORT_SLICE_MS);
  for (let i = 0; i < decisions.length; i++) {
    await breathe();
    const d = decisions[i]!;
    if (!d.write) continue;
    const r = d.planned;
    const f = factsOf(r);
    const asset = r.assetId ?? (r.fakeAssetId !== null ? `f${r.fakeAssetId}` : "");
    const key = [f.type, f.date, norm(f.quantity), f.cash?.code ?? "", norm(f.cash?.amount), asset].join("|");
    const earlier = first.get(key);
    if (earlier === undefined) first.set(key, r.row);
    else if (d.duplicate === null) d.duplicate = { level: "in_file", existingIds: [], sameAsRows: [earlier], skipped: false };
  }
}
