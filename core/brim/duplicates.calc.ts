import { Decimal } from "../money/decimal.ts";
import type { DuplicateLevel, DuplicateMatchDoc, DuplicateReportDoc } from "./parse-result.ts";

/** A stored row of the broker, as duplicate detection reads it. */
export interface LedgerFact {
  amount: string | null;
  assetId: number | null;
  currency: string | null;
  date: string;
  id: number;
  quantity: string;
  type: string;
}

/** An imported row; `assetId` is the real asset when known (a mapped fake id), else null. */
export interface ImportedFact {
  amount: string | null;
  assetId: number | null;
  /** Whether the row names an asset at all (rows of asset-less types never match "with asset"). */
  assetNamed: boolean;
  currency: string | null;
  date: string;
  quantity: string;
  type: string;
}

/** Days either side of the date within which an equal amount is a possible duplicate. */
export const POSSIBLE_WINDOW_DAYS = 3;

const norm = (v: string | null) => (v === null || v === "" ? "0" : new Decimal(v).toFixed());
const keyOf = (r: { amount: string | null; currency: string | null; type: string }) => `${r.type}|${r.currency ?? ""}|${norm(r.amount)}`;
const dayNumber = (d: string) => Date.UTC(+d.slice(0, 4), +d.slice(5, 7) - 1, +d.slice(8, 10)) / 86_400_000;

/**
 * Duplicate report of REFERENCE-API 2.9 against the broker's ledger. Levels:
 * - `likely`: same type, day, quantity, currency and amount; `likely_with_asset` when the asset is
 *   also the same. Each stored row is the likely twin of at most one imported row (a report may hold
 *   two equal rows, and the ledger only one of them).
 * - `possible`: same type, currency and amount within ±3 days (or the same day with another
 *   quantity); `possible_with_asset` when the asset is also the same.
 * Rows whose known asset differs from the stored row's are never duplicates of it.
 */
export function findDuplicates(rows: readonly ImportedFact[], ledger: readonly LedgerFact[]): DuplicateReportDoc {
  const byKey = new Map<string, LedgerFact[]>();
  for (const l of ledger) {
    const key = keyOf(l);
    const list = byKey.get(key);
    if (list) list.push(l);
    else byKey.set(key, [l]);
  }
  const used = new Set<number>();
  const report: DuplicateReportDoc = { tx_unique_indices: [], tx_possible_duplicates: [], tx_likely_duplicates: [] };
  rows.forEach((r, i) => {
    const same = byKey.get(keyOf(r)) ?? [];
    const day = dayNumber(r.date);
    const quantity = norm(r.quantity);
    const assetOk = (l: LedgerFact) => r.assetId === null || l.assetId === r.assetId;
    const withAsset = (l: LedgerFact) => r.assetNamed && r.assetId !== null && l.assetId === r.assetId;
    const likely = same.filter((l) => !used.has(l.id) && l.date === r.date && norm(l.quantity) === quantity && assetOk(l));
    if (likely.length > 0) {
      const twin = likely.find(withAsset) ?? likely[0]!;
      used.add(twin.id);
      report.tx_likely_duplicates.push(match(i, withAsset(twin) ? "likely_with_asset" : "likely", [twin.id]));
      return;
    }
    const possible = same.filter((l) => Math.abs(dayNumber(l.date) - day) <= POSSIBLE_WINDOW_DAYS && assetOk(l));
    if (possible.length > 0) {
      const level: DuplicateLevel = possible.some(withAsset) ? "possible_with_asset" : "possible";
      report.tx_possible_duplicates.push(match(i, level, possible.map((l) => l.id)));
      return;
    }
    report.tx_unique_indices.push(i);
  });
  return report;
}

function match(index: number, level: DuplicateLevel, ids: number[]): DuplicateMatchDoc {
  return { tx_index: index, match_level: level, existing_transaction_ids: ids };
}
