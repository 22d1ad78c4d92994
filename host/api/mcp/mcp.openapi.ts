import type { AreaDocs } from "../../http/openapi/operations.ts";

/** OpenAPI text of the mcp area, listed in host/api/openapi.ts (docs/architecture.md "Where to add"). */
export const mcpDocs: AreaDocs = {
  operations: {
    "GET /mcp/drafts": {
      who: "Any signed-in user (their own drafts only); not an MCP token.",
    },
    "POST /mcp/drafts/{id}/commit": {
      who: "The draft's owner, by session or a read-write token (not an MCP token); they also need the ledger rights the batch needs.",
      changes: "Commits the drafted batch through the ledger (all or nothing) and marks the draft committed; a committed draft answers its first result and changes nothing.",
    },
    "POST /mcp/drafts/{id}/discard": {
      who: "The draft's owner, by session or a read-write token (not an MCP token).",
      changes: "Marks the pending draft discarded; the ledger is not touched.",
    },
  },
};
