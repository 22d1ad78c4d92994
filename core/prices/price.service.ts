import { inject, injectable } from "tsyringe";
import type { EntityManager } from "typeorm";
import { earliestDate } from "../cache/portfolio-caches.ts";
import { declareChange } from "../db/data-changes.ts";
import { eventLoopBreather } from "../async/yield-to-event-loop.ts";
import { Database } from "../db/database.ts";
import { InputError, NotFoundError } from "../errors/domain-error.ts";
import { execute, MANUAL_SOURCE, type PriceRowWrite, type StoredPrice, writePriceRows } from "./price-rows.ts";
import { ASSET_NOT_FOUND, assetCurrencies, type DateRange, type PriceQueryResult, queryPrices } from "./price-query.ts";

export type { DateRange, PriceQueryResult, StoredEvent } from "./price-query.ts";
export { readEvents } from "./price-query.ts";

/** One manual price point; decimals as strings. `volume`: undefined keeps, null clears. */
export interface PriceInput {
  close: string;
  currency?: string;
  date: string;
  high?: string | null;
  low?: string | null;
  open?: string | null;
  volume?: string | null;
}

export interface UpsertOutcome {
  results: { assetId: number; count: number; message: string; success: boolean }[];
  inserted: number;
  updated: number;
}

export interface DeleteOutcome {
  assetId: number;
  deletedCount: number;
  message: string;
  success: boolean;
}

export interface WipeOutcome {
  eventsDeleted: number;
  pricesDeleted: number;
  transactionsUnlinked: number;
}

/** Manual price history: upsert, delete by ranges, and range queries with events. */
@injectable()
export class PriceService {
  constructor(
    @inject(Database) private readonly db: Database,
  ) {}

  /**
   * Stores manual prices (source `manual`). Every item is checked before anything is written: a
   * point whose explicit currency differs from its asset's refuses the whole request
   * (PRICE_CURRENCY_MISMATCH); an unknown asset is a per-item error. Within one item the last
   * point of a date wins.
   */
  async upsert(items: readonly { assetId: number; prices: readonly PriceInput[] }[]): Promise<UpsertOutcome> {
    const currencies = await this.currencies(items.map((i) => i.assetId));
    for (const item of items) {
      const currency = currencies.get(item.assetId);
      const wrong = currency === undefined ? undefined : item.prices.find((p) => p.currency !== undefined && p.currency !== currency);
      if (wrong) {
        throw new InputError("PRICE_CURRENCY_MISMATCH", `Price currency ${wrong.currency} differs from the asset's currency ${currency}`,
          { asset_id: item.assetId, date: wrong.date, currency: wrong.currency, asset_currency: currency });
      }
    }
    return this.db.write(async (tx) => {
      const outcome: UpsertOutcome = { results: [], inserted: 0, updated: 0 };
      const breathe = eventLoopBreather();
      for (const item of items) {
        await breathe();
        const currency = currencies.get(item.assetId);
        if (currency === undefined) {
          outcome.results.push({ assetId: item.assetId, count: 0, message: ASSET_NOT_FOUND, success: false });
          continue;
        }
        const rows = manualRows(item.assetId, currency, item.prices);
        const existing = await storedDates(tx, item.assetId, rows);
        const updated = rows.filter((r) => existing.has(r.date)).length;
        await writePriceRows(tx, rows);
        outcome.inserted += rows.length - updated;
        outcome.updated += updated;
        outcome.results.push({
          assetId: item.assetId, count: rows.length, success: true,
          message: `Stored ${rows.length} prices (${rows.length - updated} inserted, ${updated} updated)`,
        });
      }
      if (outcome.inserted + outcome.updated > 0) {
        const written = items.filter((i) => currencies.has(i.assetId));
        declareChange(tx, { kind: "prices", ids: written.map((i) => i.assetId), from: earliestDate(written.flatMap((i) => i.prices.map((p) => p.date))) });
      }
      return outcome;
    });
  }

  /** Deletes the prices of each asset within its inclusive ranges; an unknown asset is a per-item error. */
  async deleteRanges(items: readonly { assetId: number; ranges: readonly DateRange[] }[]): Promise<DeleteOutcome[]> {
    const currencies = await this.currencies(items.map((i) => i.assetId));
    return this.db.write(async (tx) => {
      const out: DeleteOutcome[] = [];
      for (const item of items) {
        if (!currencies.has(item.assetId)) {
          out.push({ assetId: item.assetId, deletedCount: 0, message: ASSET_NOT_FOUND, success: false });
          continue;
        }
        let deleted = 0;
        for (const range of item.ranges) {
          deleted += await execute(tx, `DELETE FROM "price_history" WHERE "asset_id" = ? AND "date" BETWEEN ? AND ?`,
            [item.assetId, range.start, range.end]);
        }
        out.push({ assetId: item.assetId, deletedCount: deleted, message: `Deleted ${deleted} prices`, success: true });
      }
      const touched = out.filter((o) => o.deletedCount > 0).map((o) => o.assetId);
      if (touched.length > 0) {
        const from = earliestDate(items.filter((i) => touched.includes(i.assetId)).flatMap((i) => i.ranges.map((r) => r.start)));
        declareChange(tx, { kind: "prices", ids: touched, from });
      }
      return out;
    });
  }

  /** Prices (ascending by date) and, on request, events of each asset within its range. */
  query(items: readonly { assetId: number; events: boolean; prices: boolean; range: DateRange }[]): Promise<PriceQueryResult[]> {
    return queryPrices(this.db.reads, items);
  }

  /**
   * Deletes ALL prices and ALL events of an asset, manual ones included, in one write; the
   * transactions linked to those events are unlinked first (`asset_event_id` set to null).
   */
  async wipe(assetId: number): Promise<WipeOutcome> {
    if (!(await this.currencies([assetId])).has(assetId)) {
      throw new NotFoundError("ASSET_NOT_FOUND", `Asset ${assetId} not found`, { asset_id: assetId });
    }
    return this.db.write(async (tx) => {
      // Events go too (splits, dividends): undated.
      declareChange(tx, { kind: "events", ids: [assetId] });
      declareChange(tx, { kind: "prices", ids: [assetId] });
      const transactionsUnlinked = await execute(tx, `UPDATE "transactions" SET "asset_event_id" = NULL, "updated_at" = datetime('now')
        WHERE "asset_event_id" IN (SELECT "id" FROM "asset_events" WHERE "asset_id" = ?)`, [assetId]);
      const eventsDeleted = await execute(tx, `DELETE FROM "asset_events" WHERE "asset_id" = ?`, [assetId]);
      const pricesDeleted = await execute(tx, `DELETE FROM "price_history" WHERE "asset_id" = ?`, [assetId]);
      return { eventsDeleted, pricesDeleted, transactionsUnlinked };
    });
  }

  /** Currency of each existing asset among `ids`. */
  private currencies(ids: readonly number[]): Promise<Map<number, string>> {
    return assetCurrencies(this.db.reads, ids);
  }
}

function manualRows(assetId: number, currency: string, prices: readonly PriceInput[]): PriceRowWrite[] {
  const byDate = new Map<string, PriceRowWrite>();
  for (const p of prices) {
    byDate.set(p.date, {
      assetId, date: p.date, currency, source: MANUAL_SOURCE, assignmentId: null,
      open: p.open ?? null, high: p.high ?? null, low: p.low ?? null, close: p.close, volume: p.volume,
    });
  }
  return [...byDate.values()];
}

/** Dates among `rows` that are already stored (one range read inside the write). */
async function storedDates(tx: EntityManager, assetId: number, rows: readonly PriceRowWrite[]): Promise<Set<string>> {
  if (rows.length === 0) return new Set();
  let min = rows[0]!.date;
  let max = min;
  for (const r of rows) {
    if (r.date < min) min = r.date;
    if (r.date > max) max = r.date;
  }
  const stored: { date: string }[] = await tx.query(
    `SELECT "date" FROM "price_history" WHERE "asset_id" = ? AND "date" BETWEEN ? AND ?`, [assetId, min, max]);
  return new Set(stored.map((s) => s.date));
}

