import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { ROOT, testDatabaseUrl, useApi } from "../../helpers/server.ts";
import { execDb } from "../../helpers/test-db.ts";
import { createBroker, commitOk, deposit } from "../transactions/fixtures.ts";

// The data is made through a server, which is then stopped: the stdio mode must serve without one.
const api = useApi({ users: ["alice"] });
const secrets: Record<"aggregate" | "full" | "revoked" | "plain" | "later", string> = { aggregate: "", full: "", revoked: "", plain: "", later: "" };
let revokedId = 0;
let laterId = 0;

beforeAll(async () => {
  const alice = api.as.alice!;
  const broker = await createBroker(alice, "Direct broker");
  await commitOk(alice, { creates: [deposit(broker, "4242.42")] });
  const make = async (name: string, body: Record<string, unknown>) => (await (await alice.post("/auth/tokens", { name, scope: "read", ...body })).json()) as { id: number; token: string };
  secrets.aggregate = (await make("direct-agg", { mcp: { grade: "aggregate" } })).token;
  secrets.full = (await make("direct-full", { mcp: { grade: "full" } })).token;
  const revoked = await make("direct-revoked", { mcp: { grade: "full" } });
  secrets.revoked = revoked.token;
  revokedId = revoked.id;
  secrets.plain = (await make("direct-plain", {})).token;
  const later = await make("direct-later", { mcp: { grade: "relative" } });
  secrets.later = later.token;
  laterId = later.id;
  expect((await alice.delete(`/auth/tokens/${revokedId}`)).status).toBe(200);
  await api.server.stop();
}, 60_000);

const direct = (token: string, args: string[] = ["--data-dir", api.dataDir]) => new StdioClientTransport({
  command: process.execPath, args: [join(ROOT, "host/cli/main.ts"), "mcp", ...args],
  env: { PATH: process.env.PATH ?? "", PT_TOKEN: token, ...(testDatabaseUrl(api.dataDir) ? { DATABASE_URL: testDatabaseUrl(api.dataDir)! } : {}) },
  stderr: "pipe",
});

/** Runs the CLI to its end and answers its exit code and stderr. */
async function runToEnd(token: string): Promise<{ code: number; stderr: string; stdout: string }> {
  const child = Bun.spawn([process.execPath, join(ROOT, "host/cli/main.ts"), "mcp", "--data-dir", api.dataDir, "--token", token], {
    stdin: "pipe", stdout: "pipe", stderr: "pipe",
    env: { PATH: process.env.PATH ?? "", ...(testDatabaseUrl(api.dataDir) ? { DATABASE_URL: testDatabaseUrl(api.dataDir)! } : {}) },
  });
  child.stdin.end();
  const [code, stderr, stdout] = await Promise.all([child.exited, new Response(child.stderr).text(), new Response(child.stdout).text()]);
  return { code, stderr, stdout };
}

describe("the stdio server straight on a data dir (npm run cli -- mcp --data-dir)", () => {
  test("with no server running, an MCP client that launches the process is served with the token's grade, and the call is audited", async () => {
    const client = new Client({ name: "direct-test", version: "1" });
    await client.connect(direct(secrets.aggregate));
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(["fx_rates", "portfolio_summary"]));
    expect(names).not.toContain("holdings");
    const summary = (await client.callTool({ name: "portfolio_summary", arguments: {} })).structuredContent as any;
    expect(summary.currency).toBe("EUR");
    expect(summary.net_worth).toBeUndefined();
    expect(JSON.stringify(summary)).not.toContain("4242");
    await client.close();
    const audit = readFileSync(join(api.dataDir, "logs", "audit.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(audit.at(-1)).toMatchObject({ action: "mcp.tool_call", admin_username: "alice", tool: "portfolio_summary", grade: "aggregate", outcome: "ok" });
  });

  test("a full token sees the amounts read from the data dir (DATA_DIR in the environment works as --data-dir)", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath, args: [join(ROOT, "host/cli/main.ts"), "mcp"],
      env: { PATH: process.env.PATH ?? "", PT_TOKEN: secrets.full, DATA_DIR: api.dataDir, ...(testDatabaseUrl(api.dataDir) ? { DATABASE_URL: testDatabaseUrl(api.dataDir)! } : {}) },
      stderr: "pipe",
    });
    const client = new Client({ name: "direct-test", version: "1" });
    await client.connect(transport);
    const summary = (await client.callTool({ name: "portfolio_summary", arguments: {} })).structuredContent as any;
    expect(summary.net_worth).toBe("4242.42");
    await client.close();
  });

  test("a token revoked while the process runs stops at its next request", async () => {
    const client = new Client({ name: "direct-test", version: "1" });
    await client.connect(direct(secrets.later));
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    // Revoked as the web app does it (the row deleted), with no server to tell the process.
    execDb(api.dataDir, [{ sql: "DELETE FROM access_tokens WHERE id = ?", params: [laterId] }]);
    await expect(client.listTools()).rejects.toThrow(/NOT_AUTHENTICATED/);
    await client.close();
  });

  test("an unknown, revoked or non-MCP token is refused before anything is served: exit code 2 and the reason on stderr", async () => {
    for (const [token, code] of [["pt_not-a-token", "NOT_AUTHENTICATED"], [secrets.revoked, "NOT_AUTHENTICATED"], [secrets.plain, "TOKEN_NOT_MCP"]] as const) {
      const out = await runToEnd(token);
      expect({ token: token.slice(0, 6), code: out.code, stdout: out.stdout }).toEqual({ token: token.slice(0, 6), code: 2, stdout: "" });
      expect(out.stderr).toContain(code);
    }
  }, 90_000);
});
