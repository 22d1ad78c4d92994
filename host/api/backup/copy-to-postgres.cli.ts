import { Database as Sqlite } from "bun:sqlite";
import { existsSync } from "node:fs";
import pg from "pg";
import { databaseFile, openDatabase } from "../../db/data-source.ts";

/** Tables the copy leaves alone: bookkeeping each database keeps for itself. */
const SKIP = new Set(["migrations", "typeorm_metadata", "sqlite_sequence", "cache_generations", "data_changes", "scheduler_claims", "ledger_checkpoints"]);
/** At most this many rows per INSERT, and PostgreSQL's 65 535 bind parameters (about 20 k rows at 3 columns). */
const MAX_ROWS = 20_000;
const MAX_PARAMS = 60_000;

export class DbCopyError extends Error {}

export interface CopiedTable {
  rows: number;
  table: string;
}

const q = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * `npm run cli -- db copy-to-postgres <url>` (docs/deploy.md "Moving to PostgreSQL"): copies every
 * table of DATA_DIR's SQLite database into an empty PostgreSQL database, which gets the schema
 * first (the same migrations). Tables go in foreign-key order, in chunks of at most 20 000 rows,
 * in ONE PostgreSQL transaction (a failure leaves the target empty); a column referencing its own
 * table (a transaction's related transaction) is filled in a second pass. Identity sequences
 * continue after the copied ids; row counts are compared table by table before the commit.
 * The SQLite file is read in one read transaction, a consistent snapshot.
 */
export async function copyToPostgres(dataDir: string, url: string, out: (line: string) => void): Promise<CopiedTable[]> {
  if (!/^postgres(ql)?:\/\//i.test(url)) throw new DbCopyError(`Not a postgres:// URL: ${url.split(":")[0]}:…`);
  const file = databaseFile(dataDir);
  if (!existsSync(file)) throw new DbCopyError(`No SQLite database at ${file}`);
  // The target's schema: the same migrations the server runs.
  await (await openDatabase(dataDir, { DATABASE_URL: url })).close();
  const source = new Sqlite(file, { readonly: true });
  const target = new pg.Client({ connectionString: url });
  await target.connect();
  try {
    source.exec("BEGIN");
    const tables = copyOrder(source);
    await target.query("BEGIN");
    await target.query("SET LOCAL TIME ZONE 'UTC'");
    const copied: CopiedTable[] = [];
    for (const table of tables) {
      const existing = Number((await target.query(`SELECT count(*) AS n FROM ${q(table)}`)).rows[0].n);
      if (existing > 0) throw new DbCopyError(`The target database is not empty: table ${table} has ${existing} rows`);
    }
    for (const table of tables) {
      const rows = await copyTable(source, target, table);
      out(`${table}: ${rows} rows`);
      copied.push({ table, rows });
    }
    for (const { table, rows } of copied) {
      const n = Number((await target.query(`SELECT count(*) AS n FROM ${q(table)}`)).rows[0].n);
      if (n !== rows) throw new DbCopyError(`Row count of ${table} differs after the copy: ${rows} in SQLite, ${n} in PostgreSQL`);
    }
    await target.query("COMMIT");
    out(`Copied ${copied.length} tables, ${copied.reduce((s, t) => s + t.rows, 0)} rows; row counts verified`);
    return copied;
  } catch (error) {
    await target.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    source.close();
    await target.end();
  }
}

/** Every copied table, each after the tables its foreign keys reference (a self-reference aside). */
function copyOrder(db: Sqlite): string[] {
  const names = (db.query(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`).all() as { name: string }[])
    .map((r) => r.name).filter((n) => !SKIP.has(n));
  const deps = new Map(names.map((n) => [n, new Set((db.query(`PRAGMA foreign_key_list(${q(n)})`).all() as { table: string }[]).map((f) => f.table).filter((t) => t !== n))]));
  const order: string[] = [];
  const done = new Set<string>();
  const visit = (n: string, path: Set<string>) => {
    if (done.has(n)) return;
    if (path.has(n)) throw new DbCopyError(`Foreign keys form a cycle through ${n}`);
    path.add(n);
    for (const d of deps.get(n) ?? []) if (deps.has(d)) visit(d, path);
    path.delete(n);
    done.add(n);
    order.push(n);
  };
  for (const n of names) visit(n, new Set());
  return order;
}

async function copyTable(source: Sqlite, target: pg.Client, table: string): Promise<number> {
  const columns = (source.query(`PRAGMA table_info(${q(table)})`).all() as { name: string }[]).map((c) => c.name);
  const info = (await target.query(
    `SELECT column_name, data_type, is_identity FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1`, [table],
  )).rows as { column_name: string; data_type: string; is_identity: string }[];
  const pgColumns = new Map(info.map((c) => [c.column_name, c]));
  const missing = columns.filter((c) => !pgColumns.has(c));
  if (missing.length) throw new DbCopyError(`PostgreSQL table ${table} lacks the columns ${missing.join(", ")}`);
  const selfRefs = (source.query(`PRAGMA foreign_key_list(${q(table)})`).all() as { table: string; from: string }[])
    .filter((f) => f.table === table).map((f) => f.from);
  const booleans = new Set(columns.filter((c) => pgColumns.get(c)!.data_type === "boolean"));
  const identity = columns.filter((c) => pgColumns.get(c)!.is_identity === "YES");
  const value = (column: string, v: unknown) => {
    if (v === null || v === undefined) return null;
    if (selfRefs.includes(column)) return null;
    if (booleans.has(column)) return Boolean(v);
    return v;
  };
  const chunk = Math.max(1, Math.min(MAX_ROWS, Math.floor(MAX_PARAMS / columns.length)));
  const key = columns.includes("id") ? `ORDER BY "id"` : "";
  const total = Number((source.query(`SELECT count(*) AS n FROM ${q(table)}`).get() as { n: number }).n);
  const select = source.query(`SELECT ${columns.map(q).join(", ")} FROM ${q(table)} ${key} LIMIT ? OFFSET ?`);
  for (let offset = 0; offset < total; offset += chunk) {
    const rows = select.all(chunk, offset) as Record<string, unknown>[];
    if (rows.length === 0) break;
    const params: unknown[] = [];
    const tuples = rows.map((row) => `(${columns.map((c) => { params.push(value(c, row[c])); return `$${params.length}`; }).join(", ")})`);
    await target.query(`INSERT INTO ${q(table)} (${columns.map(q).join(", ")}) ${identity.length ? "OVERRIDING SYSTEM VALUE " : ""}VALUES ${tuples.join(", ")}`, params);
  }
  // Second pass: references to rows of the same table, now that they all exist.
  for (const column of selfRefs) {
    const refs = source.query(`SELECT "id", ${q(column)} AS ref FROM ${q(table)} WHERE ${q(column)} IS NOT NULL ORDER BY "id"`).all() as { id: number; ref: number }[];
    for (let i = 0; i < refs.length; i += MAX_ROWS) {
      const part = refs.slice(i, i + MAX_ROWS);
      await target.query(
        `UPDATE ${q(table)} AS t SET ${q(column)} = v.ref FROM unnest($1::bigint[], $2::bigint[]) AS v(id, ref) WHERE t."id" = v.id`,
        [part.map((r) => r.id), part.map((r) => r.ref)],
      );
    }
  }
  for (const column of identity) {
    await target.query(`SELECT setval(pg_get_serial_sequence($1, $2), GREATEST((SELECT max(${q(column)}) FROM ${q(table)}), 1), (SELECT max(${q(column)}) FROM ${q(table)}) IS NOT NULL)`, [q(table), column]);
  }
  return total;
}
