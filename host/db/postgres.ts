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
 * A `pg.Client` that says the app's SQLite-spelled raw SQL in PostgreSQL (see {@link toPostgresSql}).
 * PostgreSQL text cannot hold NUL characters (SQLite's can): they are dropped from string
 * parameters and from the strings of array parameters (an error message quoting a binary file,
 * say) instead of failing the statement.
 */
class DialectClient extends pg.Client {
  override query(config: any, values?: any, callback?: any): any {
    if (typeof config === "string") config = toPostgresSql(config);
    else if (config && typeof config.text === "string") {
      config = { ...config, text: toPostgresSql(config.text), ...(Array.isArray(config.values) ? { values: withoutNul(config.values) } : {}) };
    }
    if (Array.isArray(values)) values = withoutNul(values);
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
