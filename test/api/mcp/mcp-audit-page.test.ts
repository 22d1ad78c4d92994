import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, test } from "bun:test";
import { mcpAuditPage } from "../../../host/api/mcp/audit.ts";

const dir = mkdtempSync(join(tmpdir(), "pt-mcp-audit-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("the audit page reads a log of several chunks backwards: every row of the user once, newest first, others' rows and torn lines skipped", () => {
  const file = join(dir, "audit.jsonl");
  const lines: string[] = [];
  // Multi-byte names, so chunk boundaries fall inside characters too.
  for (let i = 0; i < 3000; i++) {
    lines.push(JSON.stringify({ time: `t${i}`, action: i % 3 === 0 ? "mcp.resource_read" : "mcp.tool_call", admin_id: i % 2 === 0 ? 1 : 2,
      admin_username: "ädä-日本", token_id: 7, [i % 3 === 0 ? "resource" : "tool"]: `n${i}`, grade: "full", outcome: "ok" }));
    if (i % 500 === 0) lines.push(JSON.stringify({ time: "x", action: "user.admin_update", admin_id: 1 }), "{torn");
  }
  writeFileSync(file, lines.join("\n") + "\n");
  const seen: string[] = [];
  let offset: number | null = 0;
  while (offset !== null) {
    const page = mcpAuditPage(file, 1, 170, offset);
    seen.push(...page.items.map((r) => r.name));
    offset = page.next_offset;
  }
  const expected = Array.from({ length: 1500 }, (_, k) => `n${2998 - 2 * k}`);
  expect(seen).toEqual(expected);
  expect(mcpAuditPage(file, 1, 1, 0).items[0]).toEqual({ time: "t2998", kind: "tool", name: "n2998", token_id: 7, grade: "full", outcome: "ok" });
  expect(mcpAuditPage(join(dir, "missing.jsonl"), 1, 10, 0)).toEqual({ items: [], next_offset: null });
});
