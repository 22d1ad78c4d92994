import { z } from "zod";
import { BatchResponse } from "../transactions/transactions.schema.ts";

/** Drafts of ledger changes an assistant proposed through the MCP server (docs/mcp.md "Drafts"). */

export const McpDraftDuplicates = z.object({
  likely: z.array(z.object({
    index: z.number().int().describe("Index of the row in `creates`"),
    transaction_ids: z.array(z.number().int()).describe("Stored transactions it looks identical to"),
  })).describe("Rows with the same type, day, quantity and amount as a stored row of the broker"),
  possible: z.array(z.object({
    index: z.number().int().describe("Index of the row in `creates`"),
    transaction_ids: z.array(z.number().int()).describe("Stored transactions with the same amount within a few days"),
  })).describe("Rows with the same type and amount within three days of a stored row"),
}).describe("Duplicate check of the new rows against each broker's ledger (like the import's)");

export const McpDraft = z.object({
  id: z.string().describe("Draft id"),
  status: z.enum(["pending", "committed", "discarded"]).describe("`pending` until committed or discarded"),
  created_at: z.string().describe("When the assistant drafted it (ISO 8601)"),
  decided_at: z.string().nullable().describe("When it was committed or discarded"),
  token_id: z.number().int().nullable().describe("The access token that drafted it"),
  rows: z.object({
    creates: z.array(z.record(z.string(), z.unknown())).describe("New transactions"),
    updates: z.array(z.record(z.string(), z.unknown())).describe("Changes to stored transactions"),
    deletes: z.array(z.number().int()).describe("Ids to delete"),
  }).describe("The batch as drafted"),
  validation: BatchResponse.describe("The ledger's dry run of the batch when drafted (or when a commit last failed)"),
  duplicates: McpDraftDuplicates,
  result: BatchResponse.nullable().describe("The commit's answer once committed; null before"),
});

export const McpDraftList = z.object({ items: z.array(McpDraft).describe("The caller's pending drafts, newest first") });

export const McpDraftParams = z.object({ id: z.string().uuid().describe("Draft id (as draft_transactions answered it)") });

/** The caller's MCP audit rows (docs/mcp.md "Audit"). */
export const McpAuditQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50).describe("Rows per page (1-200)"),
  offset: z.coerce.number().int().min(0).max(10_000_000).default(0).describe("Rows to skip"),
});

export const McpAuditPage = z.object({
  items: z.array(z.object({
    time: z.string().describe("When the assistant called (ISO 8601)"),
    kind: z.enum(["tool", "resource"]).describe("A tool call or a resource read"),
    name: z.string().describe("The tool or resource"),
    token_id: z.number().int().nullable().describe("The access token the assistant used"),
    grade: z.string().describe("The token's data grade at the time"),
    outcome: z.string().describe("`ok`, or the error code the call ended with"),
  })).describe("Newest first"),
  next_offset: z.number().int().nullable().describe("Offset of the next page; null on the last page"),
}).meta({ id: "McpAuditPage", description: "One page of the caller's MCP audit rows (never arguments or answers)" });
