import type { MigrationInterface, QueryRunner } from "typeorm";

/** FX rates per pair (alphabetical) and provider, and the configured conversion routes. */
export class Fx1795000004000 implements MigrationInterface {
  name = "Fx1795000004000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "fx_rates" (
      "base" varchar NOT NULL,
      "quote" varchar NOT NULL,
      "provider" varchar NOT NULL,
      "date" varchar NOT NULL,
      "rate" varchar NOT NULL,
      "source" varchar NOT NULL,
      "updated_at" datetime NOT NULL DEFAULT (datetime('now')),
      PRIMARY KEY ("base", "quote", "provider", "date"),
      CHECK ("base" < "quote"))`);
    await q.query(`CREATE INDEX "ix_fx_rates_pair_date" ON "fx_rates" ("base", "quote", "date")`);
    await q.query(`CREATE TABLE "fx_routes" (
      "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
      "base" varchar NOT NULL,
      "quote" varchar NOT NULL,
      "priority" integer NOT NULL,
      "chain_steps" varchar NOT NULL,
      "created_at" datetime NOT NULL DEFAULT (datetime('now')),
      "updated_at" datetime NOT NULL DEFAULT (datetime('now')),
      CHECK ("base" < "quote"))`);
    await q.query(`CREATE UNIQUE INDEX "ux_fx_routes_pair_priority" ON "fx_routes" ("base", "quote", "priority")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "fx_routes"`);
    await q.query(`DROP TABLE "fx_rates"`);
  }
}
