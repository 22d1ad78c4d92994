import type { EntityManager } from "typeorm";
import type { ChangeBatch, ChangeSource, StoredChange } from "../../core/cache/change-feed.ts";
import type { ChangeJournal, Database } from "../../core/db/database.ts";
import { type DataChange, mergeDeclarations } from "../../core/db/data-changes.ts";
import { CACHE_GENERATION_TABLES } from "../../migrations/1795000008500-ScaleOut.ts";

/**
 * The SQL of declared changes (docs/decisions.md "Declared changes"; migration 1795000012000):
 * the journal stores each write's declarations in its transaction, the source reads them back in
 * every process.
 */

const GROUPS = Object.keys(CACHE_GENERATION_TABLES);
/** Rows kept: a process that fell further behind clears everything once (undated). */
export const CHANGES_KEPT = 2000;
/** One write in this many prunes (a cheap indexed delete). */
const PRUNE_EVERY = 64;

/** True when a write's declarations cover a cache group (any declaration clears the group's caches). */
function covers(records: readonly DataChange[], group: string): boolean {
  return records.some((r) => (r.kind === "uploads") === (group === "uploads"));
}

function row(change: Required<DataChange>): unknown[] {
  return [change.kind, change.ids.length > 0 ? JSON.stringify(change.ids) : null, change.from];
}

const PRUNE = `DELETE FROM "data_changes" WHERE "seq" < (SELECT max("seq") FROM "data_changes") - ${CHANGES_KEPT}`;

/** The journal for `db` (SQLite or PostgreSQL). */
export function changeJournal(db: Database): ChangeJournal {
  return db.postgres ? postgresJournal(db) : sqliteJournal();
}

const COUNTERS = `SELECT "name", sum("generation") AS "g" FROM "cache_generations" GROUP BY "name"`;

async function counters(tx: EntityManager): Promise<Map<string, number>> {
  const rows = (await tx.query(COUNTERS)) as { name: string; g: number | string }[];
  return new Map(rows.map((r) => [r.name, Number(r.g)]));
}

/**
 * SQLite: the triggers' counters (migration 1795000008500, bumped per row) read at the start and
 * end of the write tell which cache groups it changed; writers queue, so the rows' `seq` is the
 * commit order. Each row holds the counters' sum after its write.
 */
function sqliteJournal(): ChangeJournal {
  return {
    begin: (tx) => counters(tx),
    async finish(tx, began, declared) {
      const before = began as Map<string, number>;
      const after = await counters(tx);
      const records = mergeDeclarations(declared);
      for (const group of GROUPS) {
        if (after.get(group) !== before.get(group) && !covers(records, group)) records.push({ kind: group as DataChange["kind"], ids: [], from: null });
      }
      if (records.length === 0) return;
      const total = [...after.values()].reduce((a, b) => a + b, 0);
      await tx.query(`INSERT INTO "data_changes" ("kind", "ids", "from_date", "generation") VALUES ${records.map(() => "(?, ?, ?, ?)").join(", ")}`,
        records.flatMap((r) => [...row(r), total]));
      if (Math.random() * PRUNE_EVERY < 1) await tx.query(PRUNE);
    },
    committed() {},
  };
}

/**
 * PostgreSQL: the trigger function marks the transaction per cache group (a transaction-local
 * setting) instead of bumping a counter; the write pool's sessions are marked as journaled
 * (`pt.journal`, host/db/data-source.ts), so the trigger leaves the row to the write. Pruning runs
 * after the commit, outside the SERIALIZABLE write (two writes deleting the same rows would make
 * one of them run again).
 */
function postgresJournal(db: Database): ChangeJournal {
  return {
    begin: async () => undefined,
    async finish(tx, _began, declared) {
      const records = mergeDeclarations(declared);
      const parts = records.map(() => `SELECT ?::varchar AS "kind", ?::text AS "ids", ?::varchar AS "from_date"`);
      for (const group of GROUPS) {
        if (!covers(records, group)) parts.push(`SELECT '${group}', NULL, NULL WHERE current_setting('pt.touched_${group}', true) = '1'`);
      }
      await tx.query(`INSERT INTO "data_changes" ("kind", "ids", "from_date") ${parts.join(" UNION ALL ")}`, records.flatMap(row));
    },
    committed() {
      if (Math.random() * PRUNE_EVERY >= 1) return;
      db.writer.query(PRUNE).catch(() => undefined);
    },
  };
}

/** A stored row as read: [seq, kind, from, ids] (SQLite) or [seq, xid, kind, from, ids] (PostgreSQL). */
type SqliteRow = [number, string, string | null, string | null];
type PostgresRow = [string, string, string, string | null, string | null];

/** The ids column (a JSON array, or null): which brokers or assets the change touched. */
function idsOf(text: string | null | undefined): number[] {
  return text ? parsed<number>(text) : [];
}

function parsed<T>(value: unknown): T[] {
  if (value === null || value === undefined) return [];
  return (typeof value === "string" ? JSON.parse(value) : value) as T[];
}

/** The reader `CacheRegistry.followChanges` calls before serving a cached value built from stored data. */
export function changeSource(db: Database): ChangeSource {
  return db.postgres ? postgresSource(db) : sqliteSource(db);
}

/**
 * SQLite: one statement (one read transaction) returns the rows after the last seen `seq`, the
 * oldest kept (a gap after the last seen: pruned rows, clear all), and the counters' sum against
 * the newest row's (different: a write went around the journal, clear all).
 */
function sqliteSource(db: Database): ChangeSource {
  const statement = db.prepareRead<{ counter: number; journaled: number | null; oldest: number | null; rows: string }>(`SELECT
    (SELECT coalesce(sum("generation"), 0) FROM "cache_generations") AS "counter",
    (SELECT "generation" FROM "data_changes" ORDER BY "seq" DESC LIMIT 1) AS "journaled",
    (SELECT min("seq") FROM "data_changes") AS "oldest",
    (SELECT json_group_array(json_array("seq", "kind", "from_date", "ids")) FROM
      (SELECT "seq", "kind", "from_date", "ids" FROM "data_changes" WHERE "seq" > ? ORDER BY "seq")) AS "rows"`);
  let last: number | null = null;
  let counter = 0;
  return async () => {
    const out = (await statement.get(last ?? 0))!;
    const rows = parsed<SqliteRow>(out.rows);
    const first = last === null;
    const unknown = !first && ((Number(out.counter) !== counter && Number(out.counter) !== Number(out.journaled))
      || (out.oldest !== null && Number(out.oldest) > last! + 1));
    counter = Number(out.counter);
    if (rows.length > 0) last = rows.at(-1)![0];
    else last ??= 0;
    if (first) return { changes: [], unknown: false };
    return { changes: rows.map(([, kind, from, ids]): StoredChange => ({ kind, from, ids: idsOf(ids) })), unknown };
  };
}

/**
 * PostgreSQL: `seq` is taken at insert, not at commit, so a row with a smaller `seq` can commit
 * later. Each read also takes its snapshot's oldest running transaction id (`horizon`); every
 * transaction this read did not see is at or after it, so the next read takes every row from that
 * transaction id on and skips the ones already applied.
 */
function postgresSource(db: Database): ChangeSource {
  const statement = db.prepareRead<{ horizon: string; oldest: string | null; newest: string | null; rows: unknown }>(`SELECT
    pg_snapshot_xmin(pg_current_snapshot())::text AS "horizon",
    (SELECT min("seq") FROM "data_changes")::text AS "oldest",
    (SELECT max("seq") FROM "data_changes")::text AS "newest",
    (SELECT coalesce(json_agg(json_build_array("seq"::text, "xid"::text, "kind", "from_date", "ids") ORDER BY "seq"), '[]'::json)
      FROM "data_changes" WHERE "xid" >= ?::xid8) AS "rows"`);
  let horizon: string | null = null;
  let seen = new Map<string, bigint>();
  let maxSeq = 0n;
  return async () => {
    const out = (await statement.get(horizon ?? "0"))!;
    const rows = parsed<PostgresRow>(out.rows);
    const first = horizon === null;
    const fresh = rows.filter(([seq]) => !seen.has(seq));
    // Sequence numbers have gaps here (a write run again takes a new one), so only a process far
    // enough behind for pruning to matter reads a gap before the oldest row as rows it missed.
    const unknown = !first && out.oldest !== null && BigInt(out.oldest) > maxSeq + 1n
      && BigInt(out.newest ?? "0") - maxSeq > BigInt(CHANGES_KEPT / 2);
    const next = BigInt(out.horizon);
    seen = new Map([...seen, ...rows.map(([seq, xid]) => [seq, BigInt(xid)] as const)].filter(([, xid]) => xid >= next));
    for (const [seq] of rows) if (BigInt(seq) > maxSeq) maxSeq = BigInt(seq);
    horizon = out.horizon;
    if (first) return { changes: [], unknown: false };
    return { changes: fresh.map(([, , kind, from, ids]): StoredChange => ({ kind, from, ids: idsOf(ids) })), unknown };
  };
}
