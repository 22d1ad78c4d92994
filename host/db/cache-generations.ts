import type { SharedGenerations } from "../../core/cache/cache-registry.ts";
import type { EntityManager } from "typeorm";
import type { Database, PreparedRead } from "../../core/db/database.ts";
import { CACHE_GENERATION_TABLES } from "../../migrations/1795000008500-ScaleOut.ts";

const GROUPS = Object.keys(CACHE_GENERATION_TABLES);

/** One indexed read of every group's stored generation: the sum of its rows (docs/decisions.md "Scale-out (issue 17)"). */
const SQL = `SELECT ${GROUPS.map((g) => `(SELECT sum("generation") FROM "cache_generations" WHERE "name" = '${g}') AS "${g}"`).join(", ")}`;

/** The reader CacheRegistry.sync compares before serving a cached value built from stored data. */
export function cacheGenerationReader(db: Database): SharedGenerations {
  let statement: PreparedRead<Record<string, unknown>> | undefined;
  return async () => {
    statement ??= db.prepareRead<Record<string, unknown>>(SQL);
    const row: Record<string, unknown> = (await statement.get()) ?? {};
    return Object.fromEntries(GROUPS.map((g) => [g, String(row[g] ?? "")]));
  };
}

/** The same read inside a write transaction, for `Database.witnessGenerations`. */
export async function readGenerationsIn(tx: EntityManager): Promise<Record<string, string>> {
  const row = ((await tx.query(SQL)) as Record<string, unknown>[])[0] ?? {};
  return Object.fromEntries(GROUPS.map((g) => [g, String(row[g] ?? "")]));
}
