import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * The last sync outcome of each FX provider (docs/fx.md "Provider status"): when it was last asked,
 * when it last answered, and its last failure with a classified cause (offline, DNS, HTTP status,
 * timeout, refused by the outbound rules, ...), so the FX page can say why rates are missing.
 * Operational state, not user data: no backup, no cache counter.
 */
export class FxProviderStatus1795000011500 implements MigrationInterface {
  name = "FxProviderStatus1795000011500";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "fx_provider_status" (
      "provider" varchar PRIMARY KEY NOT NULL,
      "last_attempt_at" varchar NOT NULL,
      "last_success_at" varchar,
      "last_error_at" varchar,
      "last_error_cause" varchar,
      "last_error_http_status" integer,
      "last_error_message" varchar)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "fx_provider_status"`);
  }
}
