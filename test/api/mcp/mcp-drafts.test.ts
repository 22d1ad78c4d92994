import { beforeAll, describe, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/client";
import { type ApiClient, expectError } from "../../helpers/client.ts";
import { useApi } from "../../helpers/server.ts";
import { commitOk, createBroker, deposit, list } from "../transactions/fixtures.ts";
import { connectMcp } from "./mcp-client.ts";

const api = useApi({ users: ["alice", "bob"] });
let alice: ApiClient;
let bob: ApiClient;
let brokerId: number;
let otherBroker: number;

async function token(grade: "full" | "relative", scope: "read" | "read-write" = "read", broker_ids?: number[]) {
  const res = await alice.post("/auth/tokens", { name: `t-${Math.random()}`, scope, mcp: { grade, ...(broker_ids ? { broker_ids } : {}) } });
  expect(res.status).toBe(201);
  return ((await res.json()) as { token: string }).token;
}

const connect = (secret: string) => connectMcp(api.base, secret);

async function draft(client: Client, args: Record<string, unknown>) {
  const r = await client.callTool({ name: "draft_transactions", arguments: args });
  expect(r.isError).toBeFalsy();
  return r.structuredContent as any;
}

const ledgerSize = async (broker: number) => (await list(alice, `broker_id=${broker}`)).length;

beforeAll(async () => {
  alice = api.as.alice!;
  bob = api.as.bob!;
  brokerId = await createBroker(alice, "Draft broker");
  otherBroker = await createBroker(alice, "Other broker");
  await commitOk(alice, { creates: [deposit(brokerId, "500", "2024-02-01")] });
}, 60_000);

describe("MCP drafts: confirm before write", () => {
  test("draft_transactions stores a draft with the ledger's validation and duplicate check and never changes the ledger", async () => {
    const c = await connect(await token("full"));
    const before = await ledgerSize(brokerId);
    const d = await draft(c, { creates: [deposit(brokerId, "500", "2024-02-01"), deposit(brokerId, "42.5", "2024-03-01"), { broker_id: brokerId, type: "BUY", date: "2024-03-02" }] });
    await c.close();
    expect(d.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(d.status).toBe("pending");
    expect(d.validation.committed).toBe(false);
    expect(d.validation.issues.map((i: any) => i.index)).toContain(2);
    expect(d.duplicates.likely).toEqual([{ index: 0, transaction_ids: [expect.any(Number)] }]);
    expect(await ledgerSize(brokerId)).toBe(before);
    const pending = await (await alice.get("/mcp/drafts")).json();
    expect(pending.items.map((x: any) => x.id)).toContain(d.id);
    // Another user neither sees nor commits it.
    expect((await (await bob.get("/mcp/drafts")).json()).items).toEqual([]);
    await expectError(await bob.post(`/mcp/drafts/${d.id}/commit`, {}), 404, "DRAFT_NOT_FOUND");
  });

  test("a draft commits once through REST: a second commit answers the first result and adds nothing", async () => {
    const c = await connect(await token("full"));
    const d = await draft(c, { creates: [deposit(brokerId, "7.77", "2024-04-01")] });
    await c.close();
    const before = await ledgerSize(brokerId);
    const first = await (await alice.post(`/mcp/drafts/${d.id}/commit`, {})).json();
    expect(first.status).toBe("committed");
    expect(first.result.committed).toBe(true);
    const second = await (await alice.post(`/mcp/drafts/${d.id}/commit`, {})).json();
    expect(second.result).toEqual(first.result);
    expect(await ledgerSize(brokerId)).toBe(before + 1);
    expect((await (await alice.get("/mcp/drafts")).json()).items.map((x: any) => x.id)).not.toContain(d.id);
  });

  test("two simultaneous commits of one draft commit it once and both answer the same result", async () => {
    const c = await connect(await token("full"));
    const d = await draft(c, { creates: [deposit(brokerId, "5.55", "2024-04-15")] });
    await c.close();
    const before = await ledgerSize(brokerId);
    const [a, b] = await Promise.all([alice.post(`/mcp/drafts/${d.id}/commit`, {}), alice.post(`/mcp/drafts/${d.id}/commit`, {})]);
    const [ja, jb] = [await a.json(), await b.json()];
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(ja.result.committed).toBe(true);
    expect(jb.result).toEqual(ja.result);
    expect(await ledgerSize(brokerId)).toBe(before + 1);
  });

  test("a discarded draft cannot be committed (409 DRAFT_NOT_PENDING)", async () => {
    const c = await connect(await token("full"));
    const d = await draft(c, { creates: [deposit(brokerId, "3.33", "2024-05-01")] });
    await c.close();
    const discarded = await (await alice.post(`/mcp/drafts/${d.id}/discard`, {})).json();
    expect(discarded.status).toBe("discarded");
    await expectError(await alice.post(`/mcp/drafts/${d.id}/commit`, {}), 409, "DRAFT_NOT_PENDING");
  });

  test("commit_draft is offered only to a read-write full token, and commits idempotently", async () => {
    const readOnly = await connect(await token("full"));
    expect((await readOnly.listTools()).tools.map((t) => t.name)).not.toContain("commit_draft");
    await readOnly.close();
    const c = await connect(await token("full", "read-write"));
    expect((await c.listTools()).tools.map((t) => t.name)).toContain("commit_draft");
    const d = await draft(c, { creates: [deposit(brokerId, "11.11", "2024-06-01")] });
    const before = await ledgerSize(brokerId);
    const first = (await c.callTool({ name: "commit_draft", arguments: { draft_id: d.id } })).structuredContent as any;
    const again = (await c.callTool({ name: "commit_draft", arguments: { draft_id: d.id } })).structuredContent as any;
    await c.close();
    expect(first.status).toBe("committed");
    expect(again.result).toEqual(first.result);
    expect(await ledgerSize(brokerId)).toBe(before + 1);
  });

  test("a batch the ledger refuses keeps nothing and leaves the draft pending with the refusal", async () => {
    const c = await connect(await token("full"));
    const d = await draft(c, { creates: [{ broker_id: brokerId, type: "BUY", date: "2024-03-02" }] });
    await c.close();
    const out = await (await alice.post(`/mcp/drafts/${d.id}/commit`, {})).json();
    expect(out.status).toBe("pending");
    expect(out.validation.committed).toBe(false);
    expect(out.validation.issues.length).toBeGreaterThan(0);
  });

  test("drafting is full-grade only, and a narrowed token cannot draft on another broker", async () => {
    const rel = await connect(await token("relative"));
    expect((await rel.listTools()).tools.map((t) => t.name)).not.toContain("draft_transactions");
    await rel.close();
    const narrow = await connect(await token("full", "read", [brokerId]));
    const r = await narrow.callTool({ name: "draft_transactions", arguments: { creates: [deposit(otherBroker, "1", "2024-07-01")] } });
    await narrow.close();
    expect(r.isError).toBe(true);
    expect((r.content as { text: string }[])[0]!.text).toStartWith("BROKER_NOT_FOUND");
  });
});
