import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Declared changes (docs/decisions.md "Declared changes"; docs/portfolio.md "Caches"): every write
 * stores, in its own transaction, what data it changed and from which date (`data_changes`, one
 * row per kind of data per write); each process reads the rows it has not seen before serving a
 * cached value and clears what they affect, resuming the report replay at their dates.
 *
 * SQLite: `seq` follows commit order (one writer). `generation` is the sum of the
 * `cache_generations` counters after the write, so a reader that finds the counters moved past the
 * newest row's value knows a write went around the journal (manual SQL) and clears everything.
 *
 * PostgreSQL: `seq` does not follow commit order, so rows also hold their transaction id (`xid`);
 * a reader re-reads every row from the oldest transaction still running at its previous read.
 * The trigger function no longer bumps `cache_generations` (a hot row under SERIALIZABLE: every
 * second concurrent write failed and ran again); it marks the transaction as having changed a
 * table of its cache group (a transaction-local setting, read by the app's write wrapper), and in
 * a transaction outside the app's wrapper (manual SQL) it stores an undated row itself.
 */
export class DataChanges1795000012000 implements MigrationInterface {
  name = "DataChanges1795000012000";

  async up(q: QueryRunner): Promise<void> {
    const postgres = q.connection.options.type === "postgres";
    await q.query(`CREATE TABLE "data_changes" (
      "seq" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
      "kind" varchar(16) NOT NULL,
      "ids" text,
      "from_date" varchar(10),
      "generation" integer)`);
    // A price sync stamps `last_fetch_at` on every run, changing nothing a cache is computed from:
    // only the other columns of an assignment count as a change.
    const columns = `"asset_id", "provider_code", "identifier", "identifier_type", "provider_params"`;
    if (!postgres) {
      await q.query(`DROP TRIGGER "cache_generation_asset_provider_assignments_update"`);
      await q.query(`CREATE TRIGGER "cache_generation_asset_provider_assignments_update" AFTER UPDATE OF ${columns} ON "asset_provider_assignments"
        BEGIN UPDATE "cache_generations" SET "generation" = "generation" + 1 WHERE "name" = 'portfolio' AND "shard" = 0; END`);
      return;
    }
    await q.query(`DROP TRIGGER "cache_generation_asset_provider_assignments" ON "asset_provider_assignments"`);
    await q.query(`CREATE TRIGGER "cache_generation_asset_provider_assignments" AFTER INSERT OR DELETE OR UPDATE OF ${columns}
      ON "asset_provider_assignments" FOR EACH STATEMENT EXECUTE FUNCTION "bump_cache_generation"('portfolio')`);
    await q.query(`ALTER TABLE "data_changes" ADD COLUMN "xid" xid8 NOT NULL DEFAULT pg_current_xact_id()`);
    await q.query(`CREATE INDEX "data_changes_xid" ON "data_changes" ("xid")`);
    await q.query(`CREATE OR REPLACE FUNCTION "bump_cache_generation"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM set_config('pt.touched_' || TG_ARGV[0], '1', true);
        IF coalesce(current_setting('pt.journal', true), '') <> '1'
            AND coalesce(current_setting('pt.unjournaled_' || TG_ARGV[0], true), '') <> '1' THEN
          PERFORM set_config('pt.unjournaled_' || TG_ARGV[0], '1', true);
          INSERT INTO "data_changes" ("kind") VALUES (TG_ARGV[0]);
        END IF;
        RETURN NULL;
      END $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    const postgres = q.connection.options.type === "postgres";
    if (!postgres) {
      await q.query(`DROP TRIGGER "cache_generation_asset_provider_assignments_update"`);
      await q.query(`CREATE TRIGGER "cache_generation_asset_provider_assignments_update" AFTER UPDATE ON "asset_provider_assignments"
        BEGIN UPDATE "cache_generations" SET "generation" = "generation" + 1 WHERE "name" = 'portfolio' AND "shard" = 0; END`);
    } else {
      await q.query(`DROP TRIGGER "cache_generation_asset_provider_assignments" ON "asset_provider_assignments"`);
      await q.query(`CREATE TRIGGER "cache_generation_asset_provider_assignments" AFTER INSERT OR UPDATE OR DELETE ON "asset_provider_assignments"
        FOR EACH STATEMENT EXECUTE FUNCTION "bump_cache_generation"('portfolio')`);
      await q.query(`CREATE OR REPLACE FUNCTION "bump_cache_generation"() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          UPDATE "cache_generations" SET "generation" = "generation" + 1
            WHERE "name" = TG_ARGV[0] AND "shard" = (txid_current() % 16)::integer;
          RETURN NULL;
        END $$`);
    }
    await q.query(`DROP TABLE "data_changes"`);
  }
}

