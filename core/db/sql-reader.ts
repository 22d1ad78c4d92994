/**
 * Plain SQL reads for the engines that load in bulk (report and risk inputs, BRIM candidates),
 * inside one read transaction: every query sees the same committed state. SQL is written in the
 * app's SQLite spelling (`?` placeholders); on PostgreSQL the host translates it (host/db/read-snapshot.ts).
 * Rows come back in one shape from either database: ids and counts as numbers, decimals and days as text.
 */
export interface SqlReader {
  all<T = any>(sql: string, params?: unknown[]): Promise<T[]>;
}
