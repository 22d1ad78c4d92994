import { Elysia } from "elysia";
import type { HttpDeps } from "../../http/deps.ts";
import { ErrorBody, errorResponses } from "../../http/errors.ts";
import type { SessionPlugin } from "../../http/session.ts";
import { mcpAuditPage } from "./audit.ts";
import { McpAuditPage, McpAuditQuery, McpDraft, McpDraftList, McpDraftParams } from "./drafts.schema.ts";
import { draftService } from "./drafts.ts";

/**
 * The web app's side of the assistant's drafts (docs/mcp.md "Drafts"): the user reviews what an
 * assistant proposed and commits or discards it, and reads what its assistants called (docs/mcp.md
 * "Audit"). Session (or a non-MCP token) only.
 */
export function mcpDraftsRoutes(deps: HttpDeps, session: SessionPlugin) {
  const drafts = draftService(deps);
  return new Elysia({ prefix: "/mcp", tags: ["mcp"] })
    .use(session)
    .get("/drafts", async ({ user }) => ({ items: await drafts.pending(user.id) }), {
      auth: true,
      response: { 200: McpDraftList, ...errorResponses },
      detail: { summary: "Drafts an assistant proposed through the MCP server and nobody has committed or discarded yet" },
    })
    .post("/drafts/:id/commit", async ({ params, user }) => {
      const draft = await drafts.commit(user.id, params.id);
      deps.logger.info("mcp draft committed", { user_id: user.id, draft_id: params.id, committed: draft.status === "committed" });
      return draft;
    }, {
      auth: true,
      params: McpDraftParams,
      response: { 200: McpDraft, ...errorResponses, 409: ErrorBody },
      detail: { summary: "Commit a draft through the ledger's batch (all or nothing), once: a committed draft answers its first result" },
    })
    .post("/drafts/:id/discard", async ({ params, user }) => drafts.discard(user.id, params.id), {
      auth: true,
      params: McpDraftParams,
      response: { 200: McpDraft, ...errorResponses, 409: ErrorBody },
      detail: { summary: "Discard a pending draft; the ledger is not touched" },
    })
    .get("/audit", ({ query, user }) => mcpAuditPage(deps.audit.file, user.id, query.limit, query.offset), {
      auth: true,
      query: McpAuditQuery,
      response: { 200: McpAuditPage, ...errorResponses },
      detail: { summary: "The caller's own MCP audit rows (tool calls and resource reads: token, grade, outcome), newest first" },
    });
}
