import { Database } from "bun:sqlite";
import type pg from "pg";
import type { SqlReader } from "../../core/db/sql-reader.ts";
import type { DatabaseTarget } from "./dialect.ts";
import { LONG_STATEMENT_CHARS, runOnce } from "./bun-sqlite-driver.ts";

/**
 * Runs `work` on a {@link SqlReader} inside one read-only transaction of its own, on either
 * database (docs/decisions.md "PostgreSQL"). Connections are kept per thread (the
 * report, risk and BRIM workers each hold their own) and reused between tasks:
 * - SQLite: a read-only connection to the file; WAL lets it read committed data while the server writes;
 * - PostgreSQL: a small pool; `REPEATABLE READ READ ONLY`, the same committed snapshot for every query.
 */
export async function withReadSnapshot<T>(target: DatabaseTarget, work: (db: SqlReader) => Promise<T>): Promise<T> {
  return target.kind === "postgres" ? postgresSnapshot(target.url, work) : sqliteSnapshot(target.file, work);
}

const sqlite = new Map<string, Database>();

/**
 * This thread's connection to `file` of that mode (opened once, kept as long as the thread): the
 * read-only one of reports and other bulk reads, the read-write one of checkpoints (wal-checkpoint.ts).
 */
export function threadConnection(file: string, mode: "readonly" | "readwrite"): Database {
  const key = `${mode}:${file}`;
  let db = sqlite.get(key);
  if (!db) {
    db = new Database(file, mode === "readonly" ? { readonly: true } : { readwrite: true });
    db.exec("PRAGMA busy_timeout = 5000");
    sqlite.set(key, db);
  }
  return db;
}

/** Closes this thread's connection to `file` of that mode, if it has one. */
export function closeThreadConnection(file: string, mode: "readonly" | "readwrite"): void {
  const key = `${mode}:${file}`;
  sqlite.get(key)?.close();
  sqlite.delete(key);
}

/** This thread's read-only connection to `file` (opened once). */
export function sqliteReader(file: string): Database {
  return threadConnection(file, "readonly");
}

/**
 * The {@link SqlReader} of a bun:sqlite connection (the caller holds the read transaction). Short
 * SQL goes through bun:sqlite's statement cache; long SQL (an IN list of thousands of ids) is
 * compiled for one run and finalised: the cache would keep every distinct one compiled (~130 kB for
 * 3,000 parameters) as long as the connection, which lives as long as its worker thread.
 */
export function sqliteSqlReader(db: Database): SqlReader {
  return {
    all: async <R>(sql: string, params: unknown[] = []) => {
      if (sql.length <= LONG_STATEMENT_CHARS) return db.query(sql).all(...(params as any[])) as R[];
      return runOnce(db.prepare(sql), (s) => s.all(...(params as any[])) as R[]);
    },
  };
}

async function sqliteSnapshot<T>(file: string, work: (db: SqlReader) => Promise<T>): Promise<T> {
  const db = sqliteReader(file);
  // bun:sqlite answers synchronously, so the work never interleaves with another task of this thread.
  if (db.inTransaction) return work(sqliteSqlReader(db));
  db.exec("BEGIN");
  try {
    return await work(sqliteSqlReader(db));
  } finally {
    db.exec("COMMIT");
  }
}

const pools = new Map<string, pg.Pool>();

async function postgresSnapshot<T>(url: string, work: (db: SqlReader) => Promise<T>): Promise<T> {
  let pool = pools.get(url);
  if (!pool) {
    // Loaded on first use: a SQLite server never loads the PostgreSQL client.
    const { postgresPool } = await import("./postgres.ts");
    pool = postgresPool(url, 2);
    pool.on("error", () => undefined); // an idle connection dropped by the server is replaced on next use
    pools.set(url, pool);
  }
  const client = await pool.connect();
  let broken = false;
  try {
    await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
    const result = await work({ all: async <R>(sql: string, params: unknown[] = []) => (await client.query(sql, params)).rows as R[] });
    await client.query("COMMIT");
    return result;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => { broken = true; });
    throw error;
  } finally {
    client.release(broken);
  }
}
