import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Several server processes on one database (docs/deploy.md, docs/decisions.md
 * "Scale-out").
 *
 * `cache_generations` holds one counter per group of process-local caches. Triggers bump it in
 * the same transaction as every write to the tables those caches are computed from, whoever
 * writes (any process, the command-line tool, a restore), so a process compares the stored
 * counter with the last one it saw before serving a cached value (CacheRegistry.sync):
 * - `portfolio`: the portfolio and risk caches (docs/portfolio.md "Caches");
 * - `uploads`: the upload metadata cache.
 * SQLite bumps once per row (it has no statement triggers; about 0.4 µs a row), PostgreSQL once
 * per statement. On PostgreSQL a group's counter is spread over {@link PG_SHARDS} rows (the
 * transaction id picks one) and read as their sum: two SERIALIZABLE writes bumping one row would
 * make one of them fail and run again; on SQLite (one writer) a group has one row. The sum only
 * grows, so a changed sum always means a write.
 *
 * `scheduler_claims` holds one row per (job, slot): the process whose insert wins runs the job,
 * the others skip that slot, so a scheduled job runs once per slot across all processes.
 */
export const CACHE_GENERATION_TABLES: Record<string, readonly string[]> = {
  portfolio: [
    "transactions", "price_history", "asset_events", "fx_rates", "fx_routes", "assets", "asset_provider_assignments",
    "brokers", "broker_access",
  ],
  uploads: ["uploaded_files"],
};

/** Rows per counter on PostgreSQL. */
export const PG_SHARDS = 16;

export class ScaleOut1795000008500 implements MigrationInterface {
  name = "ScaleOut1795000008500";

  async up(q: QueryRunner): Promise<void> {
    const postgres = q.connection.options.type === "postgres";
    await q.query(`CREATE TABLE "cache_generations" (
      "name" varchar(32) NOT NULL,
      "shard" integer NOT NULL,
      "generation" bigint NOT NULL DEFAULT 0,
      PRIMARY KEY ("name", "shard"))`);
    for (const group of Object.keys(CACHE_GENERATION_TABLES)) {
      for (let shard = 0; shard < (postgres ? PG_SHARDS : 1); shard++) {
        await q.query(`INSERT INTO "cache_generations" ("name", "shard", "generation") VALUES ('${group}', ${shard}, 0)`);
      }
    }
    await q.query(`CREATE TABLE "scheduler_claims" (
      "job" varchar(64) NOT NULL,
      "slot" varchar(32) NOT NULL,
      "claimed_at" varchar(32) NOT NULL,
      "owner" varchar(64) NOT NULL,
      PRIMARY KEY ("job", "slot"))`);
    if (postgres) {
      await q.query(`CREATE FUNCTION "bump_cache_generation"() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          UPDATE "cache_generations" SET "generation" = "generation" + 1
            WHERE "name" = TG_ARGV[0] AND "shard" = (txid_current() % ${PG_SHARDS})::integer;
          RETURN NULL;
        END $$`);
    }
    for (const [group, tables] of Object.entries(CACHE_GENERATION_TABLES)) {
      for (const table of tables) {
        if (postgres) {
          await q.query(`CREATE TRIGGER "cache_generation_${table}" AFTER INSERT OR UPDATE OR DELETE ON "${table}"
            FOR EACH STATEMENT EXECUTE FUNCTION "bump_cache_generation"('${group}')`);
          continue;
        }
        for (const op of ["INSERT", "UPDATE", "DELETE"]) {
          await q.query(`CREATE TRIGGER "cache_generation_${table}_${op.toLowerCase()}" AFTER ${op} ON "${table}"
            BEGIN UPDATE "cache_generations" SET "generation" = "generation" + 1 WHERE "name" = '${group}' AND "shard" = 0; END`);
        }
      }
    }
  }

  async down(q: QueryRunner): Promise<void> {
    const postgres = q.connection.options.type === "postgres";
    for (const tables of Object.values(CACHE_GENERATION_TABLES)) {
      for (const table of tables) {
        if (postgres) await q.query(`DROP TRIGGER IF EXISTS "cache_generation_${table}" ON "${table}"`);
        else for (const op of ["insert", "update", "delete"]) await q.query(`DROP TRIGGER IF EXISTS "cache_generation_${table}_${op}"`);
      }
    }
    if (postgres) await q.query(`DROP FUNCTION IF EXISTS "bump_cache_generation"()`);
    await q.query(`DROP TABLE "scheduler_claims"`);
    await q.query(`DROP TABLE "cache_generations"`);
  }
}
