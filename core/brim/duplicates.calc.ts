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
/** At most this many stored ids are named per possible duplicate. */
const MAX_IDS = 10;

const CANONICAL = /^-?(?:0|[1-9]\d*)(?:\.\d*[1-9])?$/;
/** The canonical text of a decimal (`-1.50` → `-1.5`; none is 0), without building a Decimal when it already is. */
export const norm = (v: string | null | undefined) =>
  (v === null || v === undefined || v === "" ? "0" : CANONICAL.test(v) ? (v === "-0" ? "0" : v) : new Decimal(v).toFixed());
const dayNumber = (d: string) => Date.UTC(+d.slice(0, 4), +d.slice(5, 7) - 1, +d.slice(8, 10)) / 86_400_000;

interface Stored {
  assetId: number | null;
  day: number;
  id: number;
  used: boolean;
}

/**
 * Duplicate report of a parse against the broker's ledger. Levels:
 * - `likely`: same type, day, quantity, currency and amount; `likely_with_asset` when the asset is
 *   also the same. Each stored row is the likely twin of at most one imported row (a report may hold
 *   two equal rows, and the ledger only one of them).
 * - `possible`: same type, currency and amount within ±3 days (or the same day with another
 *   quantity); `possible_with_asset` when the asset is also the same.
 * Rows whose known asset differs from the stored row's are never duplicates of it. Linear in the
 * number of rows: stored rows are indexed by their exact key and by type, currency and amount.
 */
export function findDuplicates(rows: readonly ImportedFact[], ledger: readonly LedgerFact[]): DuplicateReportDoc {
  const exact = new Map<string, Stored[]>();
  const byAmount = new Map<string, Stored[]>();
  for (const l of ledger) {
    const stored: Stored = { assetId: l.assetId, day: dayNumber(l.date), id: l.id, used: false };
    const amountKey = `${l.type}|${l.currency ?? ""}|${norm(l.amount)}`;
    const exactKey = `${amountKey}|${l.date}|${norm(l.quantity)}`;
    (exact.get(exactKey) ?? exact.set(exactKey, []).get(exactKey)!).push(stored);
    (byAmount.get(amountKey) ?? byAmount.set(amountKey, []).get(amountKey)!).push(stored);
  }
  for (const list of byAmount.values()) list.sort((a, b) => a.day - b.day);
  const report: DuplicateReportDoc = { tx_unique_indices: [], tx_possible_duplicates: [], tx_likely_duplicates: [] };
  rows.forEach((r, i) => {
    const amountKey = `${r.type}|${r.currency ?? ""}|${norm(r.amount)}`;
    const assetOk = (s: Stored) => r.assetId === null || s.assetId === r.assetId;
    const withAsset = (s: Stored) => r.assetNamed && r.assetId !== null && s.assetId === r.assetId;
    const twins = exact.get(`${amountKey}|${r.date}|${norm(r.quantity)}`);
    if (twins) {
      let twin: Stored | undefined;
      for (const s of twins) {
        if (s.used || !assetOk(s)) continue;
        if (withAsset(s)) { twin = s; break; }
        twin ??= s;
      }
      if (twin) {
        twin.used = true;
        report.tx_likely_duplicates.push(match(i, withAsset(twin) ? "likely_with_asset" : "likely", [twin.id]));
        return;
      }
    }
    const day = dayNumber(r.date);
    const near: Stored[] = [];
    let asset = false;
    const list = byAmount.get(amountKey) ?? [];
    for (let k = firstFrom(list, day - POSSIBLE_WINDOW_DAYS); k < list.length && list[k]!.day <= day + POSSIBLE_WINDOW_DAYS; k++) {
      const s = list[k]!;
      if (!assetOk(s)) continue;
      asset ||= withAsset(s);
      if (near.length < MAX_IDS) near.push(s);
    }
    if (near.length > 0) {
      report.tx_possible_duplicates.push(match(i, asset ? "possible_with_asset" : "possible", near.map((s) => s.id)));
      return;
    }
    report.tx_unique_indices.push(i);
  });
  return report;
}

/** The first index of `list` (sorted by day) whose day is at least `day`. */
function firstFrom(list: readonly Stored[], day: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid]!.day < day) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function match(index: number, level: DuplicateLevel, ids: number[]): DuplicateMatchDoc {
  return { tx_index: index, match_level: level, existing_transaction_ids: ids };
}
