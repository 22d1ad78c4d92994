import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Private manual FX rates (docs/fx.md "Who changes FX data"): a user's own rates of a pair, used
 * only by that user's conversions and reports, after the shared routes and rates. Stored like
 * `fx_rates` (alphabetical pair, one row per day) under the owner's id instead of a provider; the
 * rows go with their account. Writes bump the portfolio cache counter, as writes to `fx_rates` do
 * (migration 1795000008500), so no process serves a report computed before them.
 */
export class FxPrivateRates1795000010000 implements MigrationInterface {
  name = "FxPrivateRates1795000010000";

  async up(q: QueryRunner): Promise<void> {
    const postgres = q.connection.options.type === "postgres";
    await q.query(`CREATE TABLE "fx_private_rates" (
      "user_id" integer NOT NULL REFERENCES "users" ("id") ON DELETE CASCADE,
      "base" varchar NOT NULL,
      "quote" varchar NOT NULL,
      "date" varchar NOT NULL,
      "rate" varchar NOT NULL,
      "source" varchar NOT NULL,
      "updated_at" datetime NOT NULL DEFAULT (datetime('now')),
      PRIMARY KEY ("user_id", "base", "quote", "date"),
      CHECK ("base" < "quote"))`);
    if (postgres) {
      await q.query(`CREATE TRIGGER "cache_generation_fx_private_rates" AFTER INSERT OR UPDATE OR DELETE ON "fx_private_rates"
        FOR EACH STATEMENT EXECUTE FUNCTION "bump_cache_generation"('portfolio')`);
      return;
    }
    for (const op of ["INSERT", "UPDATE", "DELETE"]) {
      await q.query(`CREATE TRIGGER "cache_generation_fx_private_rates_${op.toLowerCase()}" AFTER ${op} ON "fx_private_rates"
        BEGIN UPDATE "cache_generations" SET "generation" = "generation" + 1 WHERE "name" = 'portfolio' AND "shard" = 0; END`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    const postgres = q.connection.options.type === "postgres";
    if (postgres) await q.query(`DROP TRIGGER IF EXISTS "cache_generation_fx_private_rates" ON "fx_private_rates"`);
    else for (const op of ["insert", "update", "delete"]) await q.query(`DROP TRIGGER IF EXISTS "cache_generation_fx_private_rates_${op}"`);
    await q.query(`DROP TABLE "fx_private_rates"`);
  }
}
