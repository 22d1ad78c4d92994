import "reflect-metadata";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import type { EntityManager } from "typeorm";
import type { Database } from "../../core/db/database.ts";
import { openDatabase, PG_WRITE_POOL } from "../../host/db/data-source.ts";
import { createTestDatabase, dropTestDatabase, ON_POSTGRES, PG_ADMIN_ENV } from "../helpers/postgres.ts";
import { tempDataDir } from "../helpers/server.ts";

/**
 * How one process runs its writes (core/db/database.ts; docs/decisions.md "PostgreSQL"): one at a
 * time on SQLite; on PostgreSQL several at once, SERIALIZABLE, and a write that collided with
 * another of the process runs again alone. Runs on both databases (`bun test/postgres-run.ts
 * test/host/db-write-concurrency.test.ts` for PostgreSQL).
 */
let dir = "";
let url: string | undefined;
let db: Database;
let retries = 0;

beforeAll(async () => {
  dir = tempDataDir("pt-db-writes-");
  url = ON_POSTGRES ? await createTestDatabase(process.env[PG_ADMIN_ENV]!) : undefined;
  db = await openDatabase(dir, url ? { DATABASE_URL: url } : {});
  db.observeWrites({ retried: () => { retries++; }, ended: () => {} });
});

afterAll(async () => {
  await db?.close();
  if (url) await dropTestDatabase(process.env[PG_ADMIN_ENV]!, url);
  rmSync(dir, { recursive: true, force: true });
});

beforeEach(async () => {
  await db.write((tx) => tx.query(`DELETE FROM scheduler_claims`));
  retries = 0;
});

/** Resolves once `count` callers arrived, or after `ms` (a database that runs writes one at a time never gets them all). */
function barrier(count: number, ms: number): () => Promise<void> {
  let arrived = 0;
  let open!: () => void;
  const all = new Promise<void>((resolve) => { open = resolve; });
  return () => {
    if (++arrived >= count) open();
    return Promise.race([all, Bun.sleep(ms)]);
  };
}

const claimed = async (tx: EntityManager) => (await tx.query(`SELECT slot FROM scheduler_claims WHERE job = 'count'`) as { slot: string }[]).length;
const claim = (tx: EntityManager, slot: string) =>
  tx.query(`INSERT INTO scheduler_claims (job, slot, claimed_at, owner) VALUES ('count', ?, '2024-01-01T00:00:00Z', 'test')`, [slot]);

describe("writes of one process", () => {
  test(ON_POSTGRES ? "on PostgreSQL, as many writes as the write pool holds run at once" : "on SQLite, writes run one at a time", async () => {
    const expected = ON_POSTGRES ? PG_WRITE_POOL : 1;
    const arrive = barrier(PG_WRITE_POOL, 300);
    let inside = 0;
    let most = 0;
    await Promise.all(Array.from({ length: PG_WRITE_POOL }, (_, i) => db.write(async (tx) => {
      most = Math.max(most, ++inside);
      await arrive();
      await claim(tx, `at-once-${i}`);
      inside--;
    })));
    expect(most).toBe(expected);
  });

  test("a write reads what the writes committed before it: concurrent count-then-insert writes number their rows 1..n, none lost", async () => {
    const n = PG_WRITE_POOL;
    // On PostgreSQL all read before any inserts, so every pair collides and all but one must run again.
    const arrive = barrier(n, ON_POSTGRES ? 5_000 : 0);
    const attempts = new Map<number, number>();
    let inside = 0;
    const alone: boolean[] = [];
    await Promise.all(Array.from({ length: n }, (_, i) => db.write(async (tx) => {
      const attempt = (attempts.get(i) ?? 0) + 1;
      attempts.set(i, attempt);
      inside++;
      try {
        if (attempt > 1) alone.push(inside === 1);
        const before = await claimed(tx);
        if (attempt === 1) await arrive();
        await claim(tx, `${before + 1}:${i}`);
      } finally {
        inside--;
      }
    })));
    const rows = await db.reads.query(`SELECT slot FROM scheduler_claims WHERE job = 'count'`) as { slot: string }[];
    expect(rows.map((r) => Number(r.slot.split(":")[0])).sort((a, b) => a - b)).toEqual(Array.from({ length: n }, (_, i) => i + 1));
    if (ON_POSTGRES) {
      expect(retries).toBeGreaterThanOrEqual(n - 1);
      // A write run again after colliding with another write of this process runs alone in it.
      expect(alone.length).toBeGreaterThanOrEqual(n - 1);
      expect(alone.every(Boolean)).toBe(true);
    } else {
      expect(retries).toBe(0);
    }
  });

  test.skipIf(!ON_POSTGRES)("a write on PostgreSQL is SERIALIZABLE and marked as journaled", async () => {
    const [row] = await db.write((tx) => tx.query(
      `SELECT current_setting('transaction_isolation') AS "isolation", current_setting('pt.journal', true) AS "journal"`,
    )) as { isolation: string; journal: string }[];
    expect(row).toEqual({ isolation: "serializable", journal: "1" });
    // Reads are not: they take no part in serialisation conflicts.
    const [read] = await db.reads.query(`SELECT current_setting('transaction_isolation') AS "isolation"`) as { isolation: string }[];
    expect(read!.isolation).toBe("read committed");
  });
});
