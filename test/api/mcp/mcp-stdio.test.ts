import { join } from "node:path";
import { beforeAll, describe, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { ROOT, useApi } from "../../helpers/server.ts";
import { createBroker, commitOk, deposit } from "../transactions/fixtures.ts";

const api = useApi({ users: ["alice"] });
let secret: string;

beforeAll(async () => {
  const alice = api.as.alice!;
  const broker = await createBroker(alice, "Relay broker");
  await commitOk(alice, { creates: [deposit(broker, "42")] });
  const res = await alice.post("/auth/tokens", { name: "relay", scope: "read", mcp: { grade: "aggregate" } });
  secret = (await res.json()).token;
}, 60_000);

const relay = (token: string) => new StdioClientTransport({
  command: process.execPath, args: [join(ROOT, "host/cli/main.ts"), "mcp", "--url", new URL(api.base).origin],
  env: { PATH: process.env.PATH ?? "", PT_TOKEN: token }, stderr: "pipe",
});

describe("the stdio relay (npm run cli -- mcp)", () => {
  test("an MCP client that launches a local process reaches the running server with the token's grade", async () => {
    const client = new Client({ name: "stdio-test", version: "1" });
    await client.connect(relay(secret));
    const { tools } = await client.listTools();
    // The aggregate grade's list (host/api/mcp/grade.ts): portfolio-level tools, never per-holding ones.
    const names = tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(["fx_rates", "portfolio_summary"]));
    expect(names).not.toContain("holdings");
    const summary = await client.callTool({ name: "portfolio_summary", arguments: {} });
    expect((summary.structuredContent as any).net_worth).toBeUndefined();
    expect((summary.structuredContent as any).currency).toBe("EUR");
    await client.close();
  });

  test("a token the server refuses surfaces as an error to the client, not a hang", async () => {
    const client = new Client({ name: "stdio-test", version: "1" });
    await expect(client.connect(relay("pt_not-a-token"))).rejects.toThrow(/NOT_AUTHENTICATED/);
    await client.close().catch(() => undefined);
  });
});
