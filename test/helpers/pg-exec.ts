/**
 * Child process of test/helpers/test-db.ts: runs the statements read from stdin (JSON
 * `{ url, statements: [{ sql, params }] }`, SQLite spelling) in one PostgreSQL transaction and
 * prints every statement's rows and changed-row count as JSON, booleans as 1/0 like bun:sqlite's rows.
 */
import pg from "pg";
import { pgConfig } from "../../host/db/postgres.ts";

const input = JSON.parse(await new Response(Bun.stdin.stream()).text()) as { url: string; statements: { sql: string; params: unknown[] }[] };
const DialectClient = pgConfig(input.url).Client;
const dialect = new DialectClient(pgConfig(input.url) as pg.ClientConfig);
await dialect.connect();
const results: { rows: unknown[]; changes: number }[] = [];
try {
  await dialect.query("BEGIN");
  for (const s of input.statements) {
    const { rows, rowCount } = await dialect.query(s.sql, s.params);
    results.push({ changes: rowCount ?? 0, rows: rows.map((row: Record<string, unknown>) =>
      Object.fromEntries(Object.entries(row).map(([k, v]) => [k, typeof v === "boolean" ? (v ? 1 : 0) : v]))) });
  }
  await dialect.query("COMMIT");
} finally {
  await dialect.end();
}
process.stdout.write(JSON.stringify(results));
