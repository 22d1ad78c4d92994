import { join } from "node:path";

/**
 * Which database a process uses (docs/deploy.md, docs/decisions.md "PostgreSQL"):
 * `DATABASE_URL=postgres://…` selects PostgreSQL; unset, SQLite in DATA_DIR (the default).
 * Worker threads and child processes get the same answer from the same environment, and the
 * engines that read the database directly (report workers, BRIM, snapshots) take a
 * {@link DatabaseTarget} instead of a file name.
 */
export type DatabaseTarget =
  | { readonly kind: "sqlite"; readonly file: string }
  | { readonly kind: "postgres"; readonly url: string };

const POSTGRES_URL = /^postgres(ql)?:\/\//i;

/** DATABASE_URL when it names PostgreSQL; undefined when unset or empty (SQLite). Anything else is refused. */
export function databaseUrl(env: Record<string, string | undefined> = process.env): string | undefined {
  const url = env.DATABASE_URL?.trim();
  if (!url) return undefined;
  if (!POSTGRES_URL.test(url)) throw new Error(`DATABASE_URL must be a postgres:// URL (unset for SQLite in DATA_DIR), got "${url.split(":")[0]}:…"`);
  return url;
}

/** True when this process runs on PostgreSQL (DATABASE_URL set). */
export function isPostgres(env: Record<string, string | undefined> = process.env): boolean {
  return databaseUrl(env) !== undefined;
}

/** The SQLite file under dataDir (used when DATABASE_URL is unset). */
export function databaseFile(dataDir: string): string {
  return join(dataDir, "portfolio.sqlite");
}

/** Where this process's data lives: PostgreSQL when DATABASE_URL is set, else the SQLite file in dataDir. */
export function databaseTarget(dataDir: string, env: Record<string, string | undefined> = process.env): DatabaseTarget {
  const url = databaseUrl(env);
  return url ? { kind: "postgres", url } : { kind: "sqlite", file: databaseFile(dataDir) };
}
