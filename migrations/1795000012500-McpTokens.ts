import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * The MCP scope of personal access tokens (docs/mcp.md): `mcp_grade` is null for an ordinary API token,
 * or the data grade the MCP server redacts to (`full`, `relative`, `aggregate`); such a token reaches
 * only the MCP endpoint. `mcp_broker_ids` optionally narrows it to some brokers (a JSON array of ids;
 * null: every broker the owner sees).
 */
export class McpTokens1795000012500 implements MigrationInterface {
  name = "McpTokens1795000012500";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "access_tokens" ADD COLUMN "mcp_grade" varchar`);
    await q.query(`ALTER TABLE "access_tokens" ADD COLUMN "mcp_broker_ids" varchar`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "access_tokens" DROP COLUMN "mcp_broker_ids"`);
    await q.query(`ALTER TABLE "access_tokens" DROP COLUMN "mcp_grade"`);
  }
}
