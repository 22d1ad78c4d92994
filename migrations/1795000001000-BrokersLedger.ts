import type { MigrationInterface, QueryRunner } from "typeorm";

/** Brokers with shared access, minimal assets and asset events, and the transaction ledger. */
export class BrokersLedger1795000001000 implements MigrationInterface {
  name = "BrokersLedger1795000001000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "brokers" (
      "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
      "name" varchar NOT NULL,
      "description" varchar,
      "portal_url" varchar,
      "icon_url" varchar,
      "default_import_plugin" varchar,
      "allow_cash_overdraft" boolean NOT NULL DEFAULT (0),
      "allow_asset_shorting" boolean NOT NULL DEFAULT (0),
      "is_active" boolean NOT NULL DEFAULT (1),
      "opened_at" varchar,
      "created_at" datetime NOT NULL DEFAULT (datetime('now')),
      "updated_at" datetime NOT NULL DEFAULT (datetime('now')))`);
    await q.query(`CREATE TABLE "broker_access" (
      "user_id" integer NOT NULL REFERENCES "users" ("id") ON DELETE CASCADE,
      "broker_id" integer NOT NULL REFERENCES "brokers" ("id") ON DELETE CASCADE,
      "role" varchar NOT NULL CHECK ("role" IN ('OWNER', 'EDITOR', 'VIEWER')),
      "share_percentage" varchar NOT NULL,
      "created_at" datetime NOT NULL DEFAULT (datetime('now')),
      PRIMARY KEY ("user_id", "broker_id"))`);
    await q.query(`CREATE INDEX "ix_broker_access_broker" ON "broker_access" ("broker_id")`);
    await q.query(`CREATE TABLE "assets" (
      "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
      "name" varchar NOT NULL,
      "currency" varchar NOT NULL,
      "active" boolean NOT NULL DEFAULT (1),
      "created_at" datetime NOT NULL DEFAULT (datetime('now')),
      "updated_at" datetime NOT NULL DEFAULT (datetime('now')))`);
    await q.query(`CREATE TABLE "asset_events" (
      "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
      "asset_id" integer NOT NULL REFERENCES "assets" ("id") ON DELETE CASCADE,
      "date" varchar NOT NULL,
      "type" varchar NOT NULL CHECK ("type" IN ('DIVIDEND', 'INTEREST', 'PRICE_ADJUSTMENT', 'SPLIT', 'MATURITY_SETTLEMENT')),
      "value" varchar NOT NULL,
      "currency" varchar NOT NULL,
      "provider_assignment_id" integer,
      "notes" varchar,
      "created_at" datetime NOT NULL DEFAULT (datetime('now')),
      "updated_at" datetime NOT NULL DEFAULT (datetime('now')))`);
    await q.query(`CREATE INDEX "ix_asset_events_asset_date" ON "asset_events" ("asset_id", "date")`);
    await q.query(`CREATE TABLE "transactions" (
      "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
      "broker_id" integer NOT NULL REFERENCES "brokers" ("id") ON DELETE CASCADE,
      "asset_id" integer REFERENCES "assets" ("id") ON DELETE RESTRICT,
      "type" varchar NOT NULL CHECK ("type" IN ('BUY', 'SELL', 'DIVIDEND', 'INTEREST', 'DEPOSIT', 'WITHDRAWAL',
        'FEE', 'TAX', 'ADJUSTMENT', 'TRANSFER', 'FX_CONVERSION', 'CASH_TRANSFER')),
      "date" varchar NOT NULL,
      "quantity" varchar NOT NULL DEFAULT ('0'),
      "amount" varchar,
      "currency" varchar,
      "related_transaction_id" integer REFERENCES "transactions" ("id") ON DELETE SET NULL DEFERRABLE INITIALLY DEFERRED,
      "tags" varchar,
      "description" varchar,
      "cost_basis_override" varchar,
      "cost_basis_currency" varchar,
      "cost_basis_mode" varchar,
      "asset_event_id" integer REFERENCES "asset_events" ("id") ON DELETE SET NULL,
      "created_at" datetime NOT NULL DEFAULT (datetime('now')),
      "updated_at" datetime NOT NULL DEFAULT (datetime('now')))`);
    await q.query(`CREATE INDEX "ix_transactions_broker_date" ON "transactions" ("broker_id", "date", "id")`);
    await q.query(`CREATE INDEX "ix_transactions_asset_date" ON "transactions" ("asset_id", "date")`);
    await q.query(`CREATE INDEX "ix_transactions_related" ON "transactions" ("related_transaction_id")`);
    await q.query(`CREATE INDEX "ix_transactions_event" ON "transactions" ("asset_event_id")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "transactions"`);
    await q.query(`DROP TABLE "asset_events"`);
    await q.query(`DROP TABLE "assets"`);
    await q.query(`DROP TABLE "broker_access"`);
    await q.query(`DROP TABLE "brokers"`);
  }
}
