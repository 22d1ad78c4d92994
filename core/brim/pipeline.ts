import type { ImportResult, ImportWarning } from "../../sdk/index.ts";
import { addDays } from "../dates/calendar.ts";
import { candidateIndex, findCandidates, type KnownAsset, selectedAsset } from "./asset-candidates.calc.ts";
import { findDuplicates, type ImportedFact, type LedgerFact, POSSIBLE_WINDOW_DAYS } from "./duplicates.calc.ts";
import { type AssetMappingDoc, type DuplicateReportDoc, isFakeAssetId, type ParseResultDoc, type TxCreateDoc } from "./parse-result.ts";
import { assignFakeAssets, fieldTodos, mergeFills, pairFx, pluginWarnings, toCreates, validateCreates } from "./rows.calc.ts";

/** The reads the pipeline needs: the assets candidates come from, and the broker's ledger within days. */
export interface PipelineData {
  assets(): Promise<KnownAsset[]>;
  ledger(brokerId: number, from: string, to: string): Promise<LedgerFact[]>;
}

/** SQL of {@link PipelineData}, one text for every connection that runs it (the service's and the worker's). */
export const ASSETS_SQL = `SELECT id, name, identifier_isin AS isin, identifier_ticker AS ticker FROM assets`;
export const LEDGER_SQL = `SELECT id, type, date, quantity, amount, currency, asset_id AS "assetId" FROM transactions
  WHERE broker_id = ? AND date BETWEEN ? AND ?`;

/**
 * A reading of the declared changes (`data_changes`, migration 1795000012000: every write to the
 * ledger, assets, brokers or prices stores one in its own transaction): how many rows and the sum
 * of their numbers. A new row raises the sum; pruning removes older (smaller) numbers than any
 * new one. Equal readings, equal ledger: a duplicate report read at one reading still holds in a
 * write that reads the same (a different reading only makes the write read the ledger again).
 */
export const LEDGER_GENERATION_SQL = `SELECT count(*) || ':' || coalesce(sum("seq"), 0) AS "generation" FROM "data_changes"`;

/** Parameters of {@link LEDGER_SQL}: the broker's rows from `from` to `to`, widened by the possible-duplicate window. */
export function ledgerParams(brokerId: number, from: string, to: string): [number, string, string] {
  return [brokerId, addDays(from, -POSSIBLE_WINDOW_DAYS), addDays(to, POSSIBLE_WINDOW_DAYS)];
}

export interface PipelineMeta {
  brokerId: number;
  fileId: string;
  pluginCode: string;
  pluginVersion: string;
}

/**
 * From a plugin's rows to the parse result, as named stages in order (the shape of the
 * transaction batch): merge the fills of one order → pair currency exchanges → give assets fake
 * ids → asset candidates → commit creates → the ledger's row checks → what the user must fill →
 * duplicates against the broker's ledger. Pure apart from the reads in `data`; runs in the worker.
 */
export async function buildParseResult(result: ImportResult, meta: PipelineMeta, data: PipelineData, uuid: () => string): Promise<ParseResultDoc> {
  const warnings = pluginWarnings(result.warnings as ImportWarning[]);
  const merged = mergeFills(result.transactions);
  warnings.push(...merged.warnings);
  const paired = pairFx(merged.rows, uuid);
  warnings.push(...paired.warnings);
  const { assetOf, mappings } = assignFakeAssets(paired.rows);
  const index = candidateIndex(mappings.length > 0 ? await data.assets() : []);
  for (const m of mappings) {
    m.candidates = findCandidates(m, index);
    m.selected_asset_id = selectedAsset(m.candidates);
  }
  const creates = toCreates(paired.rows, meta.brokerId, assetOf, paired.links);
  return {
    file_id: meta.fileId, plugin_code: meta.pluginCode, plugin_version: meta.pluginVersion, broker_id: meta.brokerId,
    transactions: creates, asset_mappings: mappings,
    duplicates: await duplicateReport(creates, mappings, (from, to) => data.ledger(meta.brokerId, from, to)),
    warnings, validation_issues: validateCreates(creates), field_todos: fieldTodos(creates, mappings, paired.rows),
    ...(result.detectedFormat ? { detected_format: result.detectedFormat } : {}),
    ...(result.skippedRows ? { skipped_rows: result.skippedRows.map((s) => ({ line: s.line, reason: s.reason })) } : {}),
  };
}

/** Duplicates of `creates` against the ledger rows `ledger(from, to)` returns; fake ids resolve through the mappings' selection. */
export async function duplicateReport(
  creates: readonly TxCreateDoc[],
  mappings: readonly Pick<AssetMappingDoc, "fake_asset_id" | "selected_asset_id">[],
  ledger: (from: string, to: string) => LedgerFact[] | Promise<LedgerFact[]>,
): Promise<DuplicateReportDoc> {
  if (creates.length === 0) return { tx_unique_indices: [], tx_possible_duplicates: [], tx_likely_duplicates: [] };
  const selected = new Map(mappings.map((m) => [m.fake_asset_id, m.selected_asset_id ?? null]));
  let from = creates[0]!.date;
  let to = from;
  const facts: ImportedFact[] = creates.map((c) => {
    if (c.date < from) from = c.date;
    if (c.date > to) to = c.date;
    return {
      type: c.type, date: c.date, quantity: c.quantity, amount: c.cash?.amount ?? null, currency: c.cash?.code ?? null,
      assetNamed: c.asset_id !== undefined,
      assetId: c.asset_id === undefined ? null : isFakeAssetId(c.asset_id) ? selected.get(c.asset_id) ?? null : c.asset_id,
    };
  });
  return findDuplicates(facts, await ledger(from, to));
}
