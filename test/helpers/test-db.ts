import { Database } from "bun:sqlite";
import { join } from "node:path";
import { MessageChannel, receiveMessageOnPort, Worker } from "node:worker_threads";
import { testDatabaseUrl } from "./server.ts";

/**
 * Direct access to a test server's database, for seeding rows that have no API and asserting
 * what is stored. SQLite: its own connection to DATA_DIR/portfolio.sqlite (the server sees the
 * committed rows, WAL). Under `npm run test:postgres`: the data dir's PostgreSQL database, through
 * a worker thread the caller waits for (Atomics), so callers stay synchronous (SQL in SQLite's
 * spelling, translated as the server translates it; booleans come back as 1/0 as from bun:sqlite).
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
    const reply = askWorker(url, statements.map((s) => ({ sql: s.sql, params: s.params ?? [] })));
    if ("error" in reply) throw new Error(`test database query failed: ${reply.error}`);
    return reply.results;
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

type Reply = { results: { rows: Record<string, any>[]; changes: number }[] } | { error: string };

let worker: Worker | undefined;

/** Posts the statements to the PostgreSQL worker and blocks this thread until it answers. */
function askWorker(url: string, statements: { sql: string; params: unknown[] }[]): Reply {
  if (!worker) {
    worker = new Worker(join(import.meta.dir, "pg-sync-worker.ts"));
    worker.unref();
  }
  const signal = new Int32Array(new SharedArrayBuffer(4));
  const { port1, port2 } = new MessageChannel();
  worker.postMessage({ signal, port: port2, url, statements }, [port2]);
  if (Atomics.wait(signal, 0, 0, 60_000) === "timed-out") throw new Error("test database query timed out");
  const message = receiveMessageOnPort(port1);
  port1.close();
  if (!message) throw new Error("test database worker gave no answer");
  return message.message as Reply;
}

/**
 * Makes every INSERT into `table` whose new row matches `when` (SQL over `NEW`) fail, on either
 * database (a trigger; PostgreSQL needs a trigger function). Returns the undo.
 */
export function failInsertsWhen(dataDir: string, name: string, table: string, when: string): () => void {
  if (testDatabaseUrl(dataDir)) {
    execDb(dataDir, [
      { sql: `CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF ${when} THEN RAISE EXCEPTION '${name}'; END IF; RETURN NEW; END $$` },
      { sql: `CREATE TRIGGER ${name} BEFORE INSERT ON ${table} FOR EACH ROW EXECUTE FUNCTION ${name}()` },
    ]);
    return () => void execDb(dataDir, [{ sql: `DROP TRIGGER ${name} ON ${table}` }, { sql: `DROP FUNCTION ${name}()` }]);
  }
  execDb(dataDir, [{ sql: `CREATE TRIGGER ${name} BEFORE INSERT ON ${table} WHEN ${when} BEGIN SELECT RAISE(ABORT, '${name}'); END` }]);
  return () => void execDb(dataDir, [{ sql: `DROP TRIGGER ${name}` }]);
}
