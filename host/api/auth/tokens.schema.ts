import { z } from "zod";
import { type AccessTokenView, MCP_GRADES, TOKEN_SCOPES } from "../../../core/users/access-token.service.ts";

/** The MCP scope of a token (docs/mcp.md): with it, the token reaches only `/api/v1/mcp`. */
export const McpScopeField = z.object({
  grade: z.enum(MCP_GRADES).describe(
    "What the MCP tools show: `full` amounts; `relative` weights, returns and percentages (no quantities, no currency amounts); `aggregate` portfolio-level figures only (no holdings)",
  ),
  broker_ids: z.array(z.number().int().positive()).min(1).max(1000).nullable().optional()
    .describe("Narrow the token to these brokers (each one you have a role on); absent or null: every broker you see"),
}).strict();

export const TokenCreateRequest = z.object({
  name: z.string().trim().min(1).max(100).describe("A name to recognise the token by (unique per user), such as `home-assistant`"),
  scope: z.enum(TOKEN_SCOPES).describe("`read`: GET routes and reads with a body (reports, queries); `read-write`: everything the account may do"),
  admin: z.boolean().default(false).describe("Let the token call admin-only routes; only a superuser may set it"),
  expires_at: z.iso.datetime({ offset: true }).nullable().optional()
    .describe("When the token stops working (ISO 8601 date-time, in the future); absent or null: never"),
  mcp: McpScopeField.nullable().optional()
    .describe("Make it an MCP token with this data grade (admin false; scope `read`, or `read-write` for a `full` token that may commit its own drafts); absent or null: an ordinary API token"),
}).strict();

export const AccessTokenRead = z.object({
  id: z.number().int().describe("Id of the token (used to revoke it)"),
  name: z.string().describe("The token's name"),
  scope: z.enum(TOKEN_SCOPES).describe("`read` or `read-write`"),
  admin: z.boolean().describe("True when the token may call admin-only routes"),
  prefix: z.string().describe("The first characters of the secret, to tell tokens apart; the secret itself is never shown again"),
  created_at: z.string().describe("When it was created (ISO 8601, UTC)"),
  expires_at: z.string().nullable().describe("When it stops working (ISO 8601, UTC); null: never"),
  last_used_at: z.string().nullable().describe("When it was last used, to the minute (ISO 8601, UTC); null: never"),
  mcp: z.object({
    grade: z.enum(MCP_GRADES).describe("`full`, `relative` or `aggregate` (docs/mcp.md)"),
    broker_ids: z.array(z.number().int()).nullable().describe("The brokers it is narrowed to; null: every broker the owner sees"),
  }).nullable().describe("The MCP scope; null: an ordinary API token (not accepted by the MCP endpoint)"),
});

export const TokenCreateResponse = AccessTokenRead.extend({
  token: z.string().describe("The secret: send it as `Authorization: Bearer <token>`. Shown only in this answer; store it now"),
});

export const TokenList = z.object({ items: z.array(AccessTokenRead).describe("The caller's tokens, newest first") });
export const TokenRevokeResponse = z.object({ success: z.boolean().describe("True when the token was deleted"), id: z.number().int().describe("Id of the revoked token") });
export const TokenIdParams = z.object({ id: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER) });

export function toTokenRead(t: AccessTokenView): z.infer<typeof AccessTokenRead> {
  return {
    id: t.id, name: t.name, scope: t.scope, admin: t.admin, prefix: t.prefix, created_at: t.createdAt.toISOString(),
    expires_at: t.expiresAt?.toISOString() ?? null, last_used_at: t.lastUsedAt?.toISOString() ?? null,
    mcp: t.mcp ? { grade: t.mcp.grade, broker_ids: t.mcp.brokerIds ? [...t.mcp.brokerIds] : null } : null,
  };
}
