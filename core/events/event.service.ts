import { inject, injectable } from "tsyringe";
import type { EntityManager } from "typeorm";
import { declareChange } from "../db/data-changes.ts";
import { eventLoopBreather, yieldToEventLoop } from "../async/yield-to-event-loop.ts";
import { Database } from "../db/database.ts";
import { NotFoundError } from "../errors/domain-error.ts";
import { typedParam } from "../db/sql-types.ts";
import { EVENT_COLUMNS, type EventQuery, type EventQueryResult, type EventRead, queryEvents, toEventRead } from "./event-query.ts";
import {
  checkNoDuplicateIds, type EventRow, type EventUpsertPlan, type IncomingEvent, planEventUpsert, type StoredManualEvent,
} from "./event-upsert.calc.ts";

/** The event upsert slice: every `IN (…)` list and bulk statement carries at most this many keys. */
export const EVENT_SLICE = 1000;

export interface EventUpsertItem { assetId: number; events: IncomingEvent[] }
export interface EventUpsertResult { assetId: number; count: number; message: string }
export type EventDeleteStatus = "deleted" | "in_use" | "not_found";
export interface EventDeleteResult { eventId: number; status: EventDeleteStatus; message?: string }

export type { EventQuery, EventQueryResult, EventRead } from "./event-query.ts";

const COLUMNS = EVENT_COLUMNS;

export function slices<T>(list: T[], size = EVENT_SLICE): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

const marks = (n: number, one = "?") => Array.from({ length: n }, () => one).join(",");

const toRead = toEventRead;

/** Removed duplicates: their transactions move to the oldest surviving row of the key first (no transaction loses its event), then the rows go. */
async function removeDuplicates(tx: EntityManager, removals: EventUpsertPlan["removals"]): Promise<void> {
  for (const part of slices(removals)) {
    await tx.query(
      `WITH r(id, survivor) AS (VALUES ${marks(part.length, `(${typedParam(tx, "bigint")}, ${typedParam(tx, "bigint")})`)})
       UPDATE transactions SET asset_event_id = (SELECT survivor FROM r WHERE r.id = transactions.asset_event_id),
         updated_at = datetime('now')
       WHERE asset_event_id IN (SELECT id FROM r)`,
      part.flatMap((r) => [r.id, r.survivorId]),
    );
    await tx.query(`DELETE FROM asset_events WHERE provider_assignment_id IS NULL AND id IN (${marks(part.length)})`,
      part.map((r) => r.id));
  }
}

async function updateRows(tx: EntityManager, updates: StoredManualEvent[]): Promise<void> {
  const breathe = eventLoopBreather();
  for (const part of slices(updates)) {
    await breathe();
    await tx.query(
      `WITH v(id, date, type, value, currency, notes) AS (VALUES ${marks(part.length,
        `(${typedParam(tx, "bigint")}, ${typedParam(tx, "date")}, ?, ${typedParam(tx, "numeric")}, ?, ?)`)})
       UPDATE asset_events SET date = v.date, type = v.type, value = v.value, currency = v.currency, notes = v.notes,
         updated_at = datetime('now')
       FROM v WHERE asset_events.id = v.id AND asset_events.provider_assignment_id IS NULL`,
      part.flatMap((u) => [u.id, u.date, u.type, u.value, u.currency, u.notes]),
    );
  }
}

async function insertRows(tx: EntityManager, assetId: number, inserts: EventRow[]): Promise<void> {
  const breathe = eventLoopBreather();
  for (const part of slices(inserts)) {
    await breathe();
    await tx.query(
      `INSERT INTO asset_events (asset_id, date, type, value, currency, notes) VALUES ${marks(part.length, "(?, ?, ?, ?, ?, ?)")}`,
      part.flatMap((e) => [assetId, e.date, e.type, e.value, e.currency, e.notes]),
    );
  }
}

function describePlan(plan: EventUpsertPlan, count: number): string {
  const parts = [`${plan.edited} edited by id`, `${plan.matched} matched by date and type`, `${plan.inserts.length} inserted`];
  if (plan.removals.length) parts.push(`${plan.removals.length} duplicates removed`);
  return `Stored ${count} events (${parts.join(", ")})`;
}

/** Manual asset events: the upsert of `POST /assets/events`, deletes, and reads (docs/events.md). */
@injectable()
export class EventService {
  constructor(
    @inject(Database) private readonly db: Database,
  ) {}

  /**
   * Duplicate ids refuse the whole request before any write; then each item is planned and
   * written in its own write transaction, so a refused item ends the request and earlier items stay.
   */
  async upsert(items: EventUpsertItem[]): Promise<EventUpsertResult[]> {
    checkNoDuplicateIds(items);
    const results: EventUpsertResult[] = [];
    for (const [i, item] of items.entries()) {
      // Each item is its own write; between them other requests get the thread.
      if (i > 0) await yieldToEventLoop();
      results.push(await this.db.write((tx) => this.upsertItem(tx, item, i)));
    }
    return results;
  }

  private async upsertItem(tx: EntityManager, item: EventUpsertItem, itemIndex: number): Promise<EventUpsertResult> {
    const [asset] = await tx.query(`SELECT currency FROM assets WHERE id = ?`, [item.assetId]);
    if (!asset) throw new NotFoundError("ASSET_NOT_FOUND", `Asset ${item.assetId} not found`, { asset_id: item.assetId, item_index: itemIndex });
    const stored: StoredManualEvent[] = await tx.query(
      `SELECT id, date, type, value, currency, notes FROM asset_events WHERE asset_id = ? AND provider_assignment_id IS NULL`,
      [item.assetId],
    );
    const plan = planEventUpsert({ assetId: item.assetId, assetCurrency: String(asset.currency).toUpperCase(), events: item.events, itemIndex, stored });
    await removeDuplicates(tx, plan.removals);
    await updateRows(tx, plan.updates);
    await insertRows(tx, item.assetId, plan.inserts);
    // Events (splits change every quantity) are not dated.
    declareChange(tx, { kind: "events", ids: [item.assetId] });
    return { assetId: item.assetId, count: item.events.length, message: describePlan(plan, item.events.length) };
  }

  /** Deletes manual events; one linked by a transaction is `in_use` and kept; unknown and provider events are `not_found`. */
  async delete(ids: number[]): Promise<EventDeleteResult[]> {
    const unique = [...new Set(ids)];
    const results = await this.db.write(async (tx) => {
      const rows = new Map<number, { provider: boolean }>();
      const linked = new Set<number>();
      for (const part of slices(unique)) {
        const found: any[] = await tx.query(`SELECT id, provider_assignment_id FROM asset_events WHERE id IN (${marks(part.length)})`, part);
        for (const r of found) rows.set(r.id, { provider: r.provider_assignment_id !== null });
        const used: any[] = await tx.query(`SELECT DISTINCT asset_event_id AS id FROM transactions WHERE asset_event_id IN (${marks(part.length)})`, part);
        for (const r of used) linked.add(r.id);
      }
      const results = unique.map((id) => deleteOutcome(id, rows.get(id), linked.has(id)));
      const doomed = results.filter((r) => r.status === "deleted").map((r) => r.eventId);
      for (const part of slices(doomed)) {
        await tx.query(`DELETE FROM asset_events WHERE provider_assignment_id IS NULL AND id IN (${marks(part.length)})`, part);
      }
      if (doomed.length > 0) declareChange(tx, { kind: "events" });
      return results;
    });
    return results;
  }

  /** Events of each asset within the inclusive range, by date then id; manual and provider alike. */
  query(requests: EventQuery[]): Promise<EventQueryResult[]> {
    return queryEvents(this.db.reads, requests);
  }

  /** Events by id in request order; unknown ids are skipped. */
  async byIds(ids: number[]): Promise<EventRead[]> {
    const found = new Map<number, EventRead>();
    for (const part of slices([...new Set(ids)])) {
      const rows: any[] = await this.db.reads.query(`SELECT ${COLUMNS} FROM asset_events WHERE id IN (${marks(part.length)})`, part);
      for (const r of rows) found.set(r.id, toRead(r));
    }
    return [...new Set(ids)].flatMap((id) => (found.has(id) ? [found.get(id)!] : []));
  }
}

function deleteOutcome(id: number, row: { provider: boolean } | undefined, linked: boolean): EventDeleteResult {
  if (!row) return { eventId: id, status: "not_found" };
  if (row.provider) return { eventId: id, status: "not_found", message: `Event ${id} is a provider event and read-only` };
  if (linked) return { eventId: id, status: "in_use", message: `Event ${id} is linked by a transaction` };
  return { eventId: id, status: "deleted" };
}
