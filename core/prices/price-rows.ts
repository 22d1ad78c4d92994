import type { EntityManager } from "typeorm";
import { eventLoopBreather } from "../async/yield-to-event-loop.ts";

/** `manual` in `source_plugin_key` marks prices a user entered. */
export const MANUAL_SOURCE = "manual";

/**
 * One day's row to store. `volume` undefined keeps the stored volume (null on insert); null
 * clears it. `assignmentId` is null for manual rows.
 */
export interface PriceRowWrite {
  assetId: number;
  assignmentId: number | null;
  close: string;
  currency: string;
  date: string;
  high: string | null;
  low: string | null;
  open: string | null;
  source: string;
  volume?: string | null;
}

/** A stored row as the price services read it. */
export interface StoredPrice {
  close: string;
  currency: string;
  date: string;
  high: string | null;
  low: string | null;
  open: string | null;
  provider_assignment_id: number | null;
  source_plugin_key: string;
  volume: string | null;
}

/** Ten parameters per row, so a chunk stays far below SQLite's variable limit (STACK.md c: ≤ 500 rows). */
const CHUNK = 100;
const COLUMNS = `"asset_id", "date", "open", "high", "low", "close", "volume", "currency", "source_plugin_key", "provider_assignment_id"`;

function upsertSql(rows: number, keepVolume: boolean): string {
  const values = Array.from({ length: rows }, () => "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)").join(", ");
  const volume = keepVolume ? `COALESCE(excluded."volume", "price_history"."volume")` : `excluded."volume"`;
  return `INSERT INTO "price_history" (${COLUMNS}) VALUES ${values}
    ON CONFLICT ("asset_id", "date") DO UPDATE SET "open" = excluded."open", "high" = excluded."high",
      "low" = excluded."low", "close" = excluded."close", "volume" = ${volume}, "currency" = excluded."currency",
      "source_plugin_key" = excluded."source_plugin_key", "provider_assignment_id" = excluded."provider_assignment_id",
      "updated_at" = datetime('now')`;
}

async function upsertChunks(tx: EntityManager, rows: readonly PriceRowWrite[], keepVolume: boolean): Promise<void> {
  const breathe = eventLoopBreather();
  for (let i = 0; i < rows.length; i += CHUNK) {
    await breathe();
    const chunk = rows.slice(i, i + CHUNK);
    const params: unknown[] = [];
    for (const r of chunk) {
      params.push(r.assetId, r.date, r.open, r.high, r.low, r.close, r.volume ?? null, r.currency, r.source, r.assignmentId);
    }
    await tx.query(upsertSql(chunk.length, keepVolume), params);
  }
}

/** Inserts or replaces rows by (asset, date) with multi-row statements (one per 500 rows). */
export async function writePriceRows(tx: EntityManager, rows: readonly PriceRowWrite[]): Promise<void> {
  await upsertChunks(tx, rows.filter((r) => r.volume !== undefined), false);
  await upsertChunks(tx, rows.filter((r) => r.volume === undefined), true);
}

export { readPriceRows } from "./price-query.ts";

/** The latest stored close of each asset that has one (one query; the primary key finds each asset's last day). */
export async function latestCloses(db: EntityManager, assetIds: readonly number[]):
  Promise<Map<number, { close: string; currency: string; date: string }>> {
  const out = new Map<number, { close: string; currency: string; date: string }>();
  for (let i = 0; i < assetIds.length; i += CHUNK) {
    const chunk = assetIds.slice(i, i + CHUNK);
    // The latest day of each asset grouped once, then joined: the correlated form ("date = (SELECT
    // MAX ...) per row") had PostgreSQL run the subquery for every stored price of the chunk's assets
    // (1.1 s against 55 ms for 500 assets × 200 prices; docs/decisions.md "PostgreSQL").
    const rows: { asset_id: number; close: string; currency: string; date: string }[] = await db.query(
      `SELECT p."asset_id", p."date", p."close", p."currency" FROM "price_history" p
       JOIN (SELECT "asset_id", MAX("date") AS "latest" FROM "price_history"
             WHERE "asset_id" IN (${chunk.map(() => "?").join(",")}) GROUP BY "asset_id") m
         ON m."asset_id" = p."asset_id" AND p."date" = m."latest"`, chunk);
    for (const r of rows) out.set(r.asset_id, { close: r.close, currency: r.currency, date: r.date });
  }
  return out;
}

/** Runs a write statement and returns how many rows it changed. */
export async function execute(tx: EntityManager, sql: string, params: unknown[]): Promise<number> {
  const result = await tx.queryRunner!.query(sql, params, true);
  return result.affected ?? 0;
}
