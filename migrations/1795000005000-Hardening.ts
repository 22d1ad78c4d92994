import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Hardening: revocable sessions (a per-account session epoch and a list of revoked
 * token ids kept until they expire), login throttling shared by every process (and the CLI), and
 * a keeper per asset. Uploads already carry their uploader (`uploaded_files.user_id`): existing
 * files stay with it and become private to that user.
 */
export class Hardening1795000005000 implements MigrationInterface {
  name = "Hardening1795000005000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "users" ADD COLUMN "session_epoch" integer NOT NULL DEFAULT (0)`);
    await q.query(`CREATE TABLE "revoked_sessions" (
      "jti" varchar PRIMARY KEY NOT NULL,
      "user_id" integer NOT NULL,
      "expires_at" integer NOT NULL)`);
    await q.query(`CREATE INDEX "ix_revoked_sessions_expires_at" ON "revoked_sessions" ("expires_at")`);
    await q.query(`CREATE TABLE "login_throttle" (
      "key" varchar PRIMARY KEY NOT NULL,
      "failures" integer NOT NULL,
      "blocked_until" integer NOT NULL,
      "last_failure_at" integer NOT NULL)`);
    await q.query(`ALTER TABLE "assets" ADD COLUMN "keeper_user_id" integer REFERENCES "users" ("id") ON DELETE SET NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "assets" DROP COLUMN "keeper_user_id"`);
    await q.query(`DROP TABLE "login_throttle"`);
    await q.query(`DROP TABLE "revoked_sessions"`);
    await q.query(`ALTER TABLE "users" DROP COLUMN "session_epoch"`);
  }
}
