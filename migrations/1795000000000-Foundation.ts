import type { MigrationInterface, QueryRunner } from "typeorm";

/** Accounts, per-user and global settings, generic uploads. */
export class Foundation1795000000000 implements MigrationInterface {
  name = "Foundation1795000000000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "users" (
      "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
      "username" varchar NOT NULL COLLATE NOCASE,
      "email" varchar NOT NULL COLLATE NOCASE,
      "password_hash" varchar NOT NULL,
      "is_active" boolean NOT NULL DEFAULT (1),
      "is_superuser" boolean NOT NULL DEFAULT (0),
      "created_at" datetime NOT NULL DEFAULT (datetime('now')))`);
    await q.query(`CREATE UNIQUE INDEX "ux_users_username" ON "users" ("username")`);
    await q.query(`CREATE UNIQUE INDEX "ux_users_email" ON "users" ("email")`);
    await q.query(`CREATE TABLE "user_settings" (
      "user_id" integer PRIMARY KEY NOT NULL REFERENCES "users" ("id") ON DELETE CASCADE,
      "base_currency" varchar NOT NULL,
      "language" varchar NOT NULL,
      "theme" varchar NOT NULL,
      "avatar_url" varchar,
      "updated_at" datetime NOT NULL DEFAULT (datetime('now')))`);
    await q.query(`CREATE TABLE "global_settings" (
      "key" varchar PRIMARY KEY NOT NULL,
      "value" varchar NOT NULL,
      "value_type" varchar NOT NULL,
      "description" varchar,
      "updated_at" datetime,
      "updated_by" integer)`);
    await q.query(`CREATE TABLE "uploaded_files" (
      "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
      "user_id" integer REFERENCES "users" ("id") ON DELETE SET NULL,
      "original_name" varchar NOT NULL,
      "stored_name" varchar NOT NULL,
      "content_type" varchar NOT NULL,
      "size_bytes" integer NOT NULL,
      "sha256" varchar NOT NULL,
      "description" varchar,
      "created_at" datetime NOT NULL DEFAULT (datetime('now')))`);
    await q.query(`CREATE UNIQUE INDEX "ux_uploaded_files_stored_name" ON "uploaded_files" ("stored_name")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "uploaded_files"`);
    await q.query(`DROP TABLE "global_settings"`);
    await q.query(`DROP TABLE "user_settings"`);
    await q.query(`DROP TABLE "users"`);
  }
}
