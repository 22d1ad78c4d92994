import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Broker report import (BRIM) files: one row per uploaded report, bytes under DATA_DIR/brim/<id>.
 * Rows go with their broker (ON DELETE CASCADE); the uploader's id is kept as null when the account
 * is deleted. The last parse result lives beside the bytes as <id>.parse.json.
 */
export class BrimFiles1795000007000 implements MigrationInterface {
  name = "BrimFiles1795000007000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "brim_files" (
      "id" varchar(36) PRIMARY KEY NOT NULL,
      "broker_id" integer NOT NULL REFERENCES "brokers" ("id") ON DELETE CASCADE,
      "uploaded_by_user_id" integer REFERENCES "users" ("id") ON DELETE SET NULL,
      "filename" varchar NOT NULL,
      "content_type" varchar NOT NULL,
      "size_bytes" integer NOT NULL,
      "sha256" varchar NOT NULL,
      "status" varchar NOT NULL CHECK ("status" IN ('uploaded', 'parsed', 'failed')),
      "compatible_plugins" varchar NOT NULL DEFAULT ('[]'),
      "error_message" varchar,
      "parsed_plugin_code" varchar,
      "parsed_plugin_version" varchar,
      "uploaded_at" datetime NOT NULL DEFAULT (datetime('now')),
      "processed_at" datetime)`);
    await q.query(`CREATE INDEX "ix_brim_files_broker" ON "brim_files" ("broker_id", "uploaded_at")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "brim_files"`);
  }
}
