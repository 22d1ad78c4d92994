import { closeSync, existsSync, openSync, readSync, fstatSync } from "node:fs";

/** The audit actions of the MCP server (docs/mcp.md "Audit"): a tool call and a resource read. */
const MCP_ACTIONS: Record<string, "tool" | "resource"> = { "mcp.tool_call": "tool", "mcp.resource_read": "resource" };

export interface McpAuditRow {
  time: string;
  kind: "tool" | "resource";
  name: string;
  token_id: number | null;
  grade: string;
  outcome: string;
}

/** Bytes read per step, from the end of the file. */
const CHUNK = 64 * 1024;

/**
 * The lines of a file, last first, read backwards in chunks: a page of the newest audit rows reads
 * the end of the file, not the whole log.
 */
function* linesFromEnd(file: string): Generator<string> {
  const fd = openSync(file, "r");
  try {
    let position = fstatSync(fd).size;
    let rest = Buffer.alloc(0);
    while (position > 0) {
      const size = Math.min(CHUNK, position);
      position -= size;
      const chunk = Buffer.alloc(size);
      readSync(fd, chunk, 0, size, position);
      let buf = Buffer.concat([chunk, rest]);
      let end = buf.length;
      // Split on newlines as bytes: a chunk boundary may fall inside a multi-byte character.
      for (let i = buf.length - 1; i >= 0; i--) {
        if (buf[i] !== 0x0a) continue;
        if (end > i + 1) yield buf.subarray(i + 1, end).toString("utf8");
        end = i;
      }
      rest = buf.subarray(0, end);
      buf = Buffer.alloc(0);
    }
    if (rest.length > 0) yield rest.toString("utf8");
  } finally {
    closeSync(fd);
  }
}

/**
 * One page of a user's MCP audit rows, newest first, from the audit log (`DATA_DIR/logs/audit.jsonl`):
 * only the rows whose actor is the user, whoever asks (administrators included: an assistant's calls
 * are its owner's business). A line that is not JSON (a torn last write) is skipped.
 */
export function mcpAuditPage(auditFile: string, userId: number, limit: number, offset: number): { items: McpAuditRow[]; next_offset: number | null } {
  const items: McpAuditRow[] = [];
  if (!existsSync(auditFile)) return { items, next_offset: null };
  let skipped = 0;
  for (const line of linesFromEnd(auditFile)) {
    if (!line.includes("\"mcp.")) continue;
    let entry: Record<string, unknown>;
    try { entry = JSON.parse(line); } catch { continue; }
    const kind = MCP_ACTIONS[String(entry.action)];
    if (!kind || entry.admin_id !== userId) continue;
    if (skipped < offset) { skipped++; continue; }
    if (items.length === limit) return { items, next_offset: offset + limit };
    items.push({
      time: String(entry.time), kind, name: String(kind === "tool" ? entry.tool : entry.resource),
      token_id: typeof entry.token_id === "number" ? entry.token_id : null, grade: String(entry.grade), outcome: String(entry.outcome),
    });
  }
  return { items, next_offset: null };
}
