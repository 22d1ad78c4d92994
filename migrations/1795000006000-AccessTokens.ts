import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Personal access tokens. Only the SHA-256 of the secret is stored (the secret is
 * shown once, at creation); `session_epoch` is the account's epoch at creation, so ending every
 * session of an account (password change or reset, admin) ends its tokens too. Deleting the
 * account deletes its tokens.
 */
export class AccessTokens1795000006000 implements MigrationInterface {
  name = "AccessTokens1795000006000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "access_tokens" (
      "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
      "user_id" integer NOT NULL REFERENCES "users" ("id") ON DELETE CASCADE,
      "name" varchar NOT NULL,
      "token_hash" varchar NOT NULL,
      "prefix" varchar NOT NULL,
      "scope" varchar NOT NULL,
      "admin" boolean NOT NULL DEFAULT (0),
      "session_epoch" integer NOT NULL,
      "created_at" integer NOT NULL,
      "expires_at" integer,
      "last_used_at" integer)`);
    await q.query(`CREATE UNIQUE INDEX "ux_access_tokens_hash" ON "access_tokens" ("token_hash")`);
    await q.query(`CREATE UNIQUE INDEX "ux_access_tokens_user_name" ON "access_tokens" ("user_id", "name")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "access_tokens"`);
  }
}
