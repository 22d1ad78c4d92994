import type { EntityManager } from "typeorm";

export interface ProviderEventWrite {
  currency: string;
  date: string;
  type: string;
  value: string;
}

interface StoredProviderEvent extends ProviderEventWrite {
  id: number;
}

const CHUNK = 500;

/**
 * Writes provider events under the assignment's id. An event returned again
 * updates the stored event of the same (date, type) of THAT assignment in place, keeping its id
 * (pairs are made in id order when a key repeats); surplus events are inserted. Stored events the
 * provider no longer returns are kept, and manual events and other assignments' events are never
 * read or touched.
 */
export async function writeProviderEvents(
  tx: EntityManager, assetId: number, assignmentId: number, events: readonly ProviderEventWrite[],
): Promise<{ inserted: number; updated: number }> {
  if (events.length === 0) return { inserted: 0, updated: 0 };
  const dates = events.map((e) => e.date).sort();
  const stored: StoredProviderEvent[] = await tx.query(
    `SELECT "id", "date", "type", "value", "currency" FROM "asset_events"
     WHERE "asset_id" = ? AND "provider_assignment_id" = ? AND "date" BETWEEN ? AND ? ORDER BY "id"`,
    [assetId, assignmentId, dates[0], dates.at(-1)]);
  const byKey = new Map<string, StoredProviderEvent[]>();
  for (const s of stored) {
    const key = `${s.date}|${s.type}`;
    byKey.set(key, [...(byKey.get(key) ?? []), s]);
  }
  const inserts: ProviderEventWrite[] = [];
  let updated = 0;
  for (const e of events) {
    const match = byKey.get(`${e.date}|${e.type}`)?.shift();
    if (!match) { inserts.push(e); continue; }
    if (match.value === e.value && match.currency === e.currency) continue;
    await tx.query(`UPDATE "asset_events" SET "value" = ?, "currency" = ?, "updated_at" = datetime('now') WHERE "id" = ?`,
      [e.value, e.currency, match.id]);
    updated++;
  }
  for (let i = 0; i < inserts.length; i += CHUNK) {
    const chunk = inserts.slice(i, i + CHUNK);
    await tx.query(
      `INSERT INTO "asset_events" ("asset_id", "date", "type", "value", "currency", "provider_assignment_id")
       VALUES ${chunk.map(() => "(?, ?, ?, ?, ?, ?)").join(", ")}`,
      chunk.flatMap((e) => [assetId, e.date, e.type, e.value, e.currency, assignmentId]));
  }
  return { inserted: inserts.length, updated };
}
