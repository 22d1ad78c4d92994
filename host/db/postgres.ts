import pg from "pg";
import { toPostgresSql } from "./postgres-sql.ts";

/**
 * PostgreSQL through `pg` (DATABASE_URL; docs/decisions.md "PostgreSQL"). Rows come
 * back as on SQLite, so services and engines read one shape from either database:
 * - `bigint` (ids, counts) → number; `numeric` (money, quantities, rates) → its exact text;
 * - `date` → "YYYY-MM-DD"; `timestamptz` → an ISO-8601 UTC string (TypeORM entities still get Dates);
 * Raw SQL is written once, in the app's SQLite spelling, and translated by {@link toPostgresSql}.
 * No TypeORM here: the worker threads import this module for their pools, and TypeORM with the
 * entities and migrations cost each thread ~5–7 MB of loaded code (the request thread's data source
 * is in postgres-data-source.ts).
 */
const OID = { int8: 20, date: 1082, timestamp: 1114, timestamptz: 1184 } as const;

const types = {
  getTypeParser(oid: number, format?: "text" | "binary") {
    if (format === "binary") return pg.types.getTypeParser(oid, "binary");
    switch (oid) {
      case OID.int8: return (v: string) => Number(v);
      case OID.date: return (v: string) => v;
      case OID.timestamptz:
      case OID.timestamp: {
        const parse = pg.types.getTypeParser(oid, "text") as (v: string) => Date;
        return (v: string) => {
          const d = parse(v);
          return d instanceof Date && !Number.isNaN(d.getTime()) ? d.toISOString() : v;
        };
      }
      default: return pg.types.getTypeParser(oid, "text");
    }
  },
};

/**
 * Whether connections prepare their parameterised statements (DATABASE_PREPARED_STATEMENTS, on
 * unless "0" or "false": off behind a pooler that cannot keep them, docs/deploy.md).
 */
export function preparedStatements(env: Record<string, string | undefined> = process.env): boolean {
  return !["0", "false"].includes((env.DATABASE_PREPARED_STATEMENTS ?? "").trim().toLowerCase());
}

/**
 * Statements with more parameters are not prepared: an IN list's length makes a text of its own,
 * and each text prepared stays on its connection (client and server) as long as it lives.
 */
export const PREPARED_MAX_PARAMETERS = 64;
/** Distinct statements one connection prepares at most (later new ones run unnamed). */
export const PREPARED_PER_CONNECTION = 500;

/**
 * Statements whose columns come from a `*` (`SELECT *`, `t.*`, `a, *`, `RETURNING *`) are not
 * prepared: PostgreSQL refuses to run a kept plan once its table's columns changed ("cached plan
 * must not change result type"), which a newer version's migration does while older processes
 * still run (a rolling upgrade). `count(*)` is no column list and stays prepared.
 */
const STAR_COLUMNS = /(?:\bSELECT(?:\s+DISTINCT)?|,|\.|\bRETURNING)\s*\*/i;

/**
 * A `pg.Client` that says the app's SQLite-spelled raw SQL in PostgreSQL (see {@link toPostgresSql}).
 * PostgreSQL text cannot hold NUL characters (SQLite's can): they are dropped from string
 * parameters and from the strings of array parameters (an error message quoting a binary file,
 * say) instead of failing the statement.
 *
 * A parameterised statement is named after its text, so the connection parses and plans it once
 * and then only binds and executes it: unnamed, PostgreSQL parsed and planned every run again, and
 * with two processes on two cores that was ~10 % of the throughput (docs/decisions.md "Prepared
 * statements on PostgreSQL").
 */
class DialectClient extends pg.Client {
  private readonly prepares = preparedStatements();
  private readonly named = new Set<string>();

  override query(config: any, values?: any, callback?: any): any {
    if (typeof config === "string") config = { text: toPostgresSql(config) };
    else if (config && typeof config.text === "string") {
      config = { ...config, text: toPostgresSql(config.text), ...(Array.isArray(config.values) ? { values: withoutNul(config.values) } : {}) };
    }
    if (Array.isArray(values)) values = withoutNul(values);
    if (this.prepares && config && typeof config.text === "string" && config.name === undefined) {
      const count = Array.isArray(values) ? values.length : Array.isArray(config.values) ? config.values.length : 0;
      if (count > 0 && count <= PREPARED_MAX_PARAMETERS && !STAR_COLUMNS.test(config.text)) {
        const name = `pt_${Bun.hash(config.text).toString(36)}`;
        if (this.named.has(name) || this.named.size < PREPARED_PER_CONNECTION) {
          this.named.add(name);
          config = { ...config, name };
        }
      }
    }
    return (super.query as (...a: unknown[]) => unknown)(config, values, callback);
  }
}

/** `values` without NUL characters in its strings, and in the strings of its arrays (a column's values: the batch writer's inserts on PostgreSQL). */
function withoutNul(values: unknown[]): unknown[] {
  const hasNul = (v: unknown): boolean => (typeof v === "string" ? v.includes("\0") : Array.isArray(v) && v.some(hasNul));
  const strip = (v: unknown): unknown => (typeof v === "string" ? v.replaceAll("\0", "") : Array.isArray(v) ? v.map(strip) : v);
  return values.some(hasNul) ? values.map(strip) : values;
}

/**
 * Connection settings for `pg` (a Pool or Client) to DATABASE_URL, with the row shapes above.
 * `settings`: more session settings every connection starts with (names and values are the app's
 * own constants, never user input).
 */
export function pgConfig(url: string, settings: Record<string, string> = {}): pg.PoolConfig & { Client: typeof pg.Client } {
  // Sessions in UTC: timestamps written as text without an offset (SQLite's "YYYY-MM-DD HH:MM:SS",
  // restored documents) mean UTC, as they do on SQLite.
  const options = Object.entries({ TimeZone: "UTC", ...settings }).map(([name, value]) => `-c ${name}=${value}`).join(" ");
  return { connectionString: url, types: types as pg.CustomTypesConfig, Client: DialectClient, options };
}

/** A plain pool (no TypeORM) for engines that read in bulk: report workers, BRIM, snapshots. */
export function postgresPool(url: string, max = 2): pg.Pool {
  return new pg.Pool({ ...pgConfig(url), max });
}
