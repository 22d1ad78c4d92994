import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Drafts of ledger changes an AI assistant proposed through the MCP server (docs/mcp.md "Drafts"):
 * the batch as sent (`rows`, JSON), the ledger's validation and duplicate check at draft time
 * (`checks`, JSON), and once decided, the status and the commit's answer (`result`, JSON) so a
 * second commit answers the first one. Nothing here touches the ledger until a commit.
 */
export class McpDrafts1795000013000 implements MigrationInterface {
  name = "McpDrafts1795000013000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "mcp_drafts" (
      "id" varchar(36) PRIMARY KEY NOT NULL,
      "user_id" integer NOT NULL,
      "token_id" integer,
      "status" varchar(16) NOT NULL,
      "rows" text NOT NULL,
      "checks" text NOT NULL,
      "result" text,
      "created_at" integer NOT NULL,
      "decided_at" integer)`);
    await q.query(`CREATE INDEX "idx_mcp_drafts_user_status" ON "mcp_drafts" ("user_id", "status")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "mcp_drafts"`);
  }
}
