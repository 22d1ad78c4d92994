import type { EntityManager } from "typeorm";
import { eventLoopBreather, IMPORT_SLICE_MS } from "../async/yield-to-event-loop.ts";
import type { BrokerAccessService } from "../brokers/broker-access.service.ts";
import type { AssetEventType } from "../events/asset-event.entity.ts";
import { selectBrokerFlags } from "./balance-check.ts";
import { BatchState } from "./batch-state.ts";
import type { BatchInput, Parsed } from "./batch.types.ts";
import { fromStored, STORED_COLUMNS, type StoredRow } from "./ledger-row.ts";

/** SQLite allows many bound parameters, but chunks keep statements small and plans stable. */
export const ID_CHUNK = 500;

/** Runs `SELECT … WHERE <column> IN (…)` over ids in chunks and concatenates the rows. */
export async function selectIn<T>(tx: EntityManager, sql: (placeholders: string) => string, ids: number[]): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < ids.length; i += ID_CHUNK) {
    const chunk = ids.slice(i, i + ID_CHUNK);
    out.push(...(await tx.query(sql(chunk.map(() => "?").join(",")), chunk)) as T[]);
  }
  return out;
}

const values = <T>(list: Parsed<T>[]): T[] => list.flatMap((p) => (p.ok ? [p.value] : []));

function referencedIds(input: BatchInput): number[] {
  const ids = new Set<number>(values(input.deletes));
  for (const u of values(input.updates)) ids.add(u.id);
  for (const s of values(input.splits)) { ids.add(s.idA); ids.add(s.idB); }
  for (const p of values(input.promotes)) for (const ref of [p.a, p.b]) if (ref.id !== undefined) ids.add(ref.id);
  return [...ids];
}

async function loadStored(tx: EntityManager, ids: number[]): Promise<StoredRow[]> {
  const rows = await selectIn<StoredRow>(tx, (p) => `SELECT ${STORED_COLUMNS} FROM transactions WHERE id IN (${p})`, ids);
  const have = new Set(rows.map((r) => r.id));
  const partners = [...new Set(rows.map((r) => r.related_transaction_id).filter((id): id is number => id !== null && !have.has(id)))];
  if (partners.length === 0) return rows;
  return rows.concat(await selectIn<StoredRow>(tx, (p) => `SELECT ${STORED_COLUMNS} FROM transactions WHERE id IN (${p})`, partners));
}

/**
 * Everything a batch reads before working, inside its write transaction: the caller's roles
 * (access rows only, no superuser bypass), the stored rows it names with their partners, and
 * the assets and asset events its rows refer to.
 */
export async function loadBatch(tx: EntityManager, access: BrokerAccessService, userId: number, input: BatchInput): Promise<BatchState> {
  const roles = await access.roles(userId, "VIEWER", tx);
  const stored = await loadStored(tx, referencedIds(input));
  const assetIds = new Set<number>(stored.flatMap((r) => (r.asset_id ? [r.asset_id] : [])));
  const createEvents: number[] = [];
  // An import's 50,000 creates, on the request thread: a turn for other requests every few ms
  // (read in place: a filtered copy of them was made in one piece, 50,000 small arrays).
  const breathe = eventLoopBreather(IMPORT_SLICE_MS);
  for (const p of input.creates) {
    await breathe();
    if (!p.ok) continue;
    const c = p.value;
    if (c.assetId) assetIds.add(c.assetId);
    if (c.assetEventId) createEvents.push(c.assetEventId);
  }
  const eventIds = new Set<number>([
    ...createEvents,
    ...values(input.updates).flatMap((u) => (u.assetEventId ? [u.assetEventId] : [])),
    ...stored.flatMap((r) => (r.asset_event_id ? [r.asset_event_id] : [])),
  ]);
  const assets = await selectIn<{ id: number; currency: string; name: string }>(tx, (p) => `SELECT id, currency, name FROM assets WHERE id IN (${p})`, [...assetIds]);
  const brokers = await selectBrokerFlags(tx, [...roles.keys()]);
  const events = await selectIn<{ id: number; asset_id: number; type: AssetEventType }>(
    tx, (p) => `SELECT id, asset_id, type FROM asset_events WHERE id IN (${p})`, [...eventIds],
  );
  const state = new BatchState({
    roles,
    assets: new Map(assets.map((a) => [a.id, { currency: a.currency, name: a.name }])),
    brokers: new Map(brokers.map((b) => [b.id, b])),
    events: new Map(events.map((e) => [e.id, { assetId: e.asset_id, type: e.type }])),
  });
  for (const row of stored) {
    const r = fromStored(row);
    state.rows.set(r.key, r);
    state.stored.set(r.key, { brokerId: r.brokerId, date: r.date });
  }
  return state;
}
