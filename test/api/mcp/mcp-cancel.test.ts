import { afterAll, beforeAll, expect, test } from "bun:test";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { poolSize } from "../../../host/workers/pool.ts";
import { useApi } from "../../helpers/server.ts";
import { REF } from "../../plugins/risk/reference.ts";
import { seedReferenceAssets } from "../risk/reference-assets.ts";
import { buy, commitOk, deposit, looseBroker } from "../transactions/fixtures.ts";

// A risk analytic that never returns (test/fixtures/risk/plugins/never-ends), under a time budget far
// longer than the test: only the client going away can end its worker task.
const pluginsDir = mkdtempSync(join(tmpdir(), "pt-mcp-cancel-plugins-"));
cpSync(join(import.meta.dir, "..", "..", "fixtures", "risk", "plugins", "never-ends"), join(pluginsDir, "never-ends"), { recursive: true });
const started = join(pluginsDir, "started.log");
const api = useApi({
  users: ["alice"],
  env: { PLUGINS_DIR: pluginsDir, PT_TEST_NEVER_ENDS_FILE: started, RISK_ANALYTIC_TIMEOUT_MS: "600000", RISK_WARM_UP: "0" },
});
let token: { id: number; token: string };

beforeAll(async () => {
  const alice = api.as.alice!;
  const [asset] = await seedReferenceAssets(api.dataDir, alice, 1);
  const broker = await looseBroker(alice, "Main");
  const a = REF.assets[0] as any;
  const cost = (a.quantity * Number(a.closes[0])).toFixed(4);
  await commitOk(alice, { creates: [deposit(broker, cost, REF.dates[0]), buy(broker, asset!, String(a.quantity), `-${cost}`, REF.dates[0])] });
  token = (await (await alice.post("/auth/tokens", { name: "cancel", scope: "read", mcp: { grade: "full" } })).json()) as { id: number; token: string };
}, 60_000);
afterAll(() => rmSync(pluginsDir, { recursive: true, force: true }));

const startedCount = () => (existsSync(started) ? readFileSync(started, "utf8").split("\n").filter(Boolean).length : 0);
const auditLines = () => {
  const file = join(api.dataDir, "logs", "audit.jsonl");
  return existsSync(file) ? readFileSync(file, "utf8").trim().split("\n").map((l) => JSON.parse(l)) : [];
};
const riskCallRows = () => auditLines().filter((e) => e.action === "mcp.tool_call" && e.token_id === token.id && e.tool === "risk_analytics");

/** Waits until `done()` holds; fails naming `what` if it still does not after a generous while (not a timing assertion). */
async function until(what: string, done: () => boolean): Promise<void> {
  for (let i = 0; i < 400 && !done(); i++) await Bun.sleep(50);
  if (!done()) throw new Error(`still waiting for: ${what}`);
}

test("risk_analytics: a client that disconnects mid-call stops its worker task (the thread is free again) and the call is audited CANCELLED", async () => {
  // One more slow call than the pool has threads, each cancelled once running: had a cancelled task
  // kept its thread, the last one could never start.
  for (let round = 0; round <= poolSize(); round++) {
    const era = round % 2 === 0 ? "modern" : "legacy";
    const gone = new AbortController();
    const fetchUntilGone: typeof fetch = ((url: RequestInfo | URL, init?: RequestInit) =>
      fetch(url, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, gone.signal]) : gone.signal })) as typeof fetch;
    const client = new Client({ name: "cancel", version: "1" }, era === "modern" ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {});
    await client.connect(new StreamableHTTPClientTransport(new URL(`${api.base}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${token.token}` } }, fetch: fetchUntilGone,
    }));
    const before = startedCount();
    const audited = riskCallRows().length;
    const call = client.callTool({
      name: "risk_analytics",
      arguments: { date_start: REF.dates[0], date_end: REF.dates.at(-1), analytics: [{ analytic_code: "never_ends" }] },
    }).then(() => "answered", () => "refused");
    await until(`round ${round} (${era}): the analytic running on a worker`, () => startedCount() > before);
    gone.abort();
    expect(await call).toBe("refused");
    await until(`round ${round} (${era}): the cancelled call's audit row`, () => riskCallRows().length > audited);
    expect(riskCallRows().at(-1)).toMatchObject({ tool: "risk_analytics", grade: "full", outcome: "CANCELLED" });
    await client.close().catch(() => undefined);
  }
  expect((await api.client().get("/system/health")).status).toBe(200);
}, 120_000);
