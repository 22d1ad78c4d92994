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
