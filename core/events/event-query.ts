import type { Queryable } from "../db/sql-reader.ts";
import type { AssetEventType } from "./asset-event.entity.ts";

/**
 * Reads of asset events by range (`POST /assets/events/query`), on plain SQL and without TypeORM:
 * the worker pool runs them on its own connection (host/api/assets/events-query.task.ts), EventService
 * on the request thread's reader.
 */

export interface EventRead {
  assetId: number;
  currency: string;
  date: string;
  id: number;
  /** True when a provider assignment wrote the event. */
  isAuto: boolean;
  notes: string | null;
  type: AssetEventType;
  value: string;
}

export interface EventQuery { assetId: number; start: string; end: string; targetCurrency?: string }
export interface EventQueryResult { assetId: number; events: EventRead[]; errors: string[] }

export const EVENT_COLUMNS = "id, asset_id, date, type, value, currency, notes, provider_assignment_id";

export const toEventRead = (r: any): EventRead => ({
  id: r.id, assetId: r.asset_id, date: r.date, type: r.type, value: r.value, currency: r.currency,
  notes: r.notes ?? null, isAuto: r.provider_assignment_id !== null,
});

/**
 * How many events the ranges of `requests` hold (one indexed count per request), counting no
 * further once past `above`: what an answer would carry, known before any row is read.
 */
export async function countEvents(db: Queryable, requests: readonly EventQuery[], above = Infinity): Promise<number> {
  let n = 0;
  for (const q of requests) {
    const [row] = await db.query(`SELECT COUNT(*) AS n FROM asset_events WHERE asset_id = ? AND date >= ? AND date <= ?`, [q.assetId, q.start, q.end]);
    n += Number(row?.n ?? 0);
    if (n > above) break;
  }
  return n;
}

/** Events of each asset within the inclusive range, by date then id; manual and provider alike. */
export async function queryEvents(db: Queryable, requests: readonly EventQuery[]): Promise<EventQueryResult[]> {
  const out: EventQueryResult[] = [];
  for (const q of requests) {
    const [asset] = await db.query(`SELECT id FROM assets WHERE id = ?`, [q.assetId]);
    if (!asset) {
      out.push({ assetId: q.assetId, events: [], errors: [`Asset ${q.assetId} not found`] });
      continue;
    }
    const rows: any[] = await db.query(
      `SELECT ${EVENT_COLUMNS} FROM asset_events WHERE asset_id = ? AND date >= ? AND date <= ? ORDER BY date, id`,
      [q.assetId, q.start, q.end],
    );
    const events = rows.map(toEventRead);
    out.push({ assetId: q.assetId, events, errors: conversionErrors(events, q.targetCurrency) });
  }
  return out;
}

/** No FX conversion exists yet: events in another currency than the target stay as stored, reported once per currency. */
function conversionErrors(events: EventRead[], target: string | undefined): string[] {
  if (!target) return [];
  const others = [...new Set(events.map((e) => e.currency))].filter((c) => c !== target).sort();
  return others.map((c) => `Cannot convert events from ${c} to ${target}: no FX conversion available; values stay in ${c}`);
}
