import type { MigrationInterface, QueryRunner } from "typeorm";

/** The full asset record, provider assignments and daily price history. */
export class AssetsMarketData1795000003000 implements MigrationInterface {
  name = "AssetsMarketData1795000003000";

  async up(q: QueryRunner): Promise<void> {
    for (const column of [
      `"asset_type" varchar`,
      `"icon_url" varchar`,
      `"user_url" varchar`,
      `"quote_base_quantity" varchar NOT NULL DEFAULT ('1')`,
      `"identifier_isin" varchar`,
      `"identifier_ticker" varchar`,
      `"identifier_cusip" varchar`,
      `"identifier_sedol" varchar`,
      `"identifier_figi" varchar`,
      `"identifier_uuid" varchar`,
      `"identifier_other" varchar`,
      `"classification_params" varchar`,
    ]) {
      await q.query(`ALTER TABLE "assets" ADD COLUMN ${column}`);
    }
    await q.query(`CREATE TABLE "asset_provider_assignments" (
      "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
      "asset_id" integer NOT NULL REFERENCES "assets" ("id") ON DELETE CASCADE,
      "provider_code" varchar NOT NULL,
      "identifier" varchar NOT NULL,
      "identifier_type" varchar NOT NULL,
      "provider_params" varchar,
      "last_fetch_at" datetime,
      "created_at" datetime NOT NULL DEFAULT (datetime('now')),
      "updated_at" datetime NOT NULL DEFAULT (datetime('now')))`);
    await q.query(`CREATE UNIQUE INDEX "ux_asset_provider_assignments_asset" ON "asset_provider_assignments" ("asset_id")`);
    await q.query(`CREATE TABLE "price_history" (
      "asset_id" integer NOT NULL REFERENCES "assets" ("id") ON DELETE CASCADE,
      "date" varchar NOT NULL,
      "open" varchar,
      "high" varchar,
      "low" varchar,
      "close" varchar NOT NULL,
      "volume" varchar,
      "currency" varchar NOT NULL,
      "source_plugin_key" varchar NOT NULL,
      "provider_assignment_id" integer,
      "updated_at" datetime NOT NULL DEFAULT (datetime('now')),
      PRIMARY KEY ("asset_id", "date"))`);
    await q.query(`CREATE INDEX "ix_price_history_assignment" ON "price_history" ("provider_assignment_id")`);
    await q.query(`CREATE INDEX "ix_asset_events_assignment" ON "asset_events" ("provider_assignment_id")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "ix_asset_events_assignment"`);
    await q.query(`DROP TABLE "price_history"`);
    await q.query(`DROP TABLE "asset_provider_assignments"`);
    for (const column of ["asset_type", "icon_url", "user_url", "quote_base_quantity", "identifier_isin", "identifier_ticker",
      "identifier_cusip", "identifier_sedol", "identifier_figi", "identifier_uuid", "identifier_other", "classification_params"]) {
      await q.query(`ALTER TABLE "assets" DROP COLUMN "${column}"`);
    }
  }
}
