/**
 * Plain SQL reads for the engines that load in bulk (report and risk inputs, BRIM candidates),
 * inside one read transaction: every query sees the same committed state. SQL is written in the
 * app's SQLite spelling (`?` placeholders); on PostgreSQL the host translates it (host/db/read-snapshot.ts).
 * Rows come back in one shape from either database: ids and counts as numbers, decimals and days as text.
 */
export interface SqlReader {
  all<T = any>(sql: string, params?: unknown[]): Promise<T[]>;
}

/** The {@link SqlReader} of a TypeORM manager or data source (the request thread's reader connection). */
export function managerReader(manager: { query(sql: string, params?: unknown[]): Promise<any> }): SqlReader {
  return { all: async (sql, params = []) => manager.query(sql, params) };
}

/** Anything that runs SQL and answers rows: a TypeORM manager, or a {@link SqlReader} through {@link queryable}. */
export interface Queryable {
  query(sql: string, params?: unknown[]): Promise<any>;
}

/** A {@link SqlReader} (a worker's own connection) where code written for a TypeORM manager's `query` reads. */
export function queryable(reader: SqlReader): Queryable {
  return { query: (sql, params = []) => reader.all(sql, params) };
}
