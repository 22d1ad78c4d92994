import { Database } from "bun:sqlite";
import { join } from "node:path";
import { testDatabaseUrl } from "./server.ts";

/**
 * Direct access to a test server's database, for seeding rows that have no API and asserting
 * what is stored. SQLite: its own connection to DATA_DIR/portfolio.sqlite (the server sees the
 * committed rows, WAL). Under `npm run test:postgres`: the data dir's PostgreSQL database, through
 * a short child process so callers stay synchronous (SQL in SQLite's spelling, translated as the
 * server translates it; booleans come back as 1/0 as from bun:sqlite).
 */
export interface Statement {
  sql: string;
  params?: unknown[];
}

/** Runs the statements in one transaction and returns each statement's rows. */
export function execDb(dataDir: string, statements: Statement[]): Record<string, any>[][] {
  return execute(dataDir, statements).map((r) => r.rows);
}

/** Runs one write statement and returns how many rows it changed. */
export function runDb(dataDir: string, sql: string, params: unknown[] = []): number {
  return execute(dataDir, [{ sql, params }])[0]!.changes;
}

function execute(dataDir: string, statements: Statement[]): { rows: Record<string, any>[]; changes: number }[] {
  const url = testDatabaseUrl(dataDir);
  if (url) {
    const child = Bun.spawnSync([process.execPath, join(import.meta.dir, "pg-exec.ts")], {
      stdin: Buffer.from(JSON.stringify({ url, statements: statements.map((s) => ({ sql: s.sql, params: s.params ?? [] })) })),
      stdout: "pipe",
      stderr: "pipe",
    });
    if (child.exitCode !== 0) throw new Error(`test database query failed: ${child.stderr.toString()}`);
    return JSON.parse(child.stdout.toString());
  }
  const db = new Database(join(dataDir, "portfolio.sqlite"));
  try {
    db.exec("PRAGMA busy_timeout = 5000");
    return db.transaction(() => statements.map((s) => {
      const query = db.query(s.sql);
      const params = (s.params ?? []) as any[];
      if (query.columnNames.length > 0) return { rows: query.all(...params) as Record<string, any>[], changes: 0 };
      return { rows: [], changes: query.run(...params).changes };
    }))();
  } finally {
    db.close();
  }
}

/** The rows of one query. */
export function queryRows<T = Record<string, any>>(dataDir: string, sql: string, params: unknown[] = []): T[] {
  return execDb(dataDir, [{ sql, params }])[0] as T[];
}
