import type { Queryable } from "../db/sql-reader.ts";
import type { StoredPrice } from "./price-rows.ts";

/**
 * Stored prices and events of date ranges (`POST /assets/prices/query`), on plain SQL and without
 * TypeORM: the worker pool runs it on its own connection (host/api/assets/price-query.task.ts),
 * PriceService on the request thread's reader.
 */

export interface DateRange {
  end: string;
  start: string;
}

export interface StoredEvent {
  currency: string;
  date: string;
  id: number;
  notes: string | null;
  provider_assignment_id: number | null;
  type: string;
  value: string;
}

export interface PriceQueryResult {
  assetId: number;
  errors: string[];
  events: StoredEvent[];
  prices: StoredPrice[];
}

export interface PriceQueryItem {
  assetId: number;
  events: boolean;
  prices: boolean;
  range: DateRange;
}

export const ASSET_NOT_FOUND = "Asset not found";

/** Stored rows of one asset within an inclusive range, oldest first. */
export function readPriceRows(db: Queryable, assetId: number, start: string, end: string): Promise<StoredPrice[]> {
  return db.query(
    `SELECT "date", "open", "high", "low", "close", "volume", "currency", "source_plugin_key", "provider_assignment_id"
     FROM "price_history"
     WHERE "asset_id" = ? AND "date" BETWEEN ? AND ? ORDER BY "date"`, [assetId, start, end]);
}

/** Events of one asset within an inclusive range, by date then id. */
export function readEvents(db: Queryable, assetId: number, start: string, end: string): Promise<StoredEvent[]> {
  return db.query(
    `SELECT "id", "date", "type", "value", "currency", "provider_assignment_id", "notes" FROM "asset_events"
     WHERE "asset_id" = ? AND "date" BETWEEN ? AND ? ORDER BY "date", "id"`, [assetId, start, end]);
}

/** Currency of each existing asset among `ids`. */
export async function assetCurrencies(db: Queryable, ids: readonly number[]): Promise<Map<number, string>> {
  const unique = [...new Set(ids)];
  const out = new Map<number, string>();
  for (let i = 0; i < unique.length; i += 500) {
    const chunk = unique.slice(i, i + 500);
    const rows: { currency: string; id: number }[] = await db.query(
      `SELECT "id", "currency" FROM "assets" WHERE "id" IN (${chunk.map(() => "?").join(",")})`, chunk);
    for (const r of rows) out.set(r.id, r.currency);
  }
  return out;
}

/** Prices (ascending by date) and, on request, events of each asset within its range, in request order. */
export async function queryPrices(db: Queryable, items: readonly PriceQueryItem[]): Promise<PriceQueryResult[]> {
  const currencies = await assetCurrencies(db, items.map((i) => i.assetId));
  const out: PriceQueryResult[] = [];
  for (const item of items) {
    if (!currencies.has(item.assetId)) {
      out.push({ assetId: item.assetId, errors: [ASSET_NOT_FOUND], events: [], prices: [] });
      continue;
    }
    const { start, end } = item.range;
    out.push({
      assetId: item.assetId,
      errors: [],
      prices: item.prices ? await readPriceRows(db, item.assetId, start, end) : [],
      events: item.events ? await readEvents(db, item.assetId, start, end) : [],
    });
  }
  return out;
}
