import { Database } from "bun:sqlite";
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { rename, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { SnapshotReader } from "../../core/backup/snapshot-reader.ts";
import type { DatabaseTarget } from "./dialect.ts";

/**
 * A read-only connection of its own inside one read transaction: every query sees the same
 * committed state (SQLite's WAL, or PostgreSQL's REPEATABLE READ snapshot) while the server keeps
 * writing, and no other request shares it.
 */
export interface OpenSnapshot extends SnapshotReader {
  close(): Promise<void>;
}

/** Rows fetched per round trip from a PostgreSQL cursor. */
const FETCH_ROWS = 2_000;

export async function openSnapshot(target: DatabaseTarget): Promise<OpenSnapshot> {
  return target.kind === "postgres" ? openPostgresSnapshot(target.url) : openSqliteSnapshot(target.file);
}

async function openPostgresSnapshot(url: string): Promise<OpenSnapshot> {
  // Loaded on first use: a SQLite server never loads the PostgreSQL client.
  const { pgConfig } = await import("./postgres.ts");
  const config = pgConfig(url);
  const client = new config.Client(config);
  await client.connect();
  await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
  let open = true;
  let cursors = 0;
  return {
    all: async <T>(sql: string, params: unknown[] = []) => (await client.query(sql, params)).rows as T[],
    async *iterate<T>(sql: string, params: unknown[] = []): AsyncIterable<T> {
      const name = `export_${++cursors}`;
      await client.query(`DECLARE ${name} NO SCROLL CURSOR FOR ${sql}`, params);
      try {
        while (true) {
          const { rows } = await client.query(`FETCH ${FETCH_ROWS} FROM ${name}`);
          for (const row of rows) yield row as T;
          if (rows.length < FETCH_ROWS) break;
        }
      } finally {
        if (open) await client.query(`CLOSE ${name}`).catch(() => undefined);
      }
    },
    async close() {
      if (!open) return;
      open = false;
      try { await client.query("COMMIT"); } finally { await client.end(); }
    },
  };
}

function openSqliteSnapshot(file: string): OpenSnapshot {
  const db = new Database(file, { readonly: true });
  db.exec("PRAGMA busy_timeout = 5000");
  db.exec("BEGIN");
  // The read transaction starts at the first read: pin it now, before anything else is asked.
  db.query("SELECT count(*) FROM sqlite_master").get();
  let open = true;
  return {
    all: async <T>(sql: string, params: unknown[] = []) => db.query(sql).all(...(params as any[])) as T[],
    iterate: <T>(sql: string, params: unknown[] = []) => db.query(sql).iterate(...(params as any[])) as Iterable<T>,
    async close() {
      if (!open) return;
      open = false;
      try { db.exec("COMMIT"); } finally { db.close(); }
    },
  };
}

/**
 * A consistent copy of the live database at `target` (`VACUUM INTO` with a bound path, as bun:sqlite
 * has no online-backup API; it refuses an existing file, so the copy goes to a fresh name beside
 * the target and is renamed).
 * Uncommitted writes of other connections are not in the copy; the copy is not in WAL mode.
 */
export async function snapshotDatabase(file: string, target: string): Promise<void> {
  const temp = join(dirname(target), `.snapshot-${randomUUID()}.sqlite`);
  const db = new Database(file, { readonly: true });
  try {
    db.exec("PRAGMA busy_timeout = 5000");
    db.query("VACUUM INTO ?").run(temp);
  } finally {
    db.close();
  }
  try {
    await rename(temp, target);
  } catch (error) {
    if (existsSync(temp)) await rm(temp, { force: true });
    throw error;
  }
}
