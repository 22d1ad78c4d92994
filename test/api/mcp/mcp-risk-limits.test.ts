import { beforeAll, expect, test } from "bun:test";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { useApi } from "../../helpers/server.ts";
import { REF } from "../../plugins/risk/reference.ts";
import { seedReferenceAssets } from "../risk/reference-assets.ts";
import { buy, commitOk, deposit, looseBroker } from "../transactions/fixtures.ts";

// The same 1 ms budget per analytic as the /risk limit test: the MCP tool must stop the worker too.
const api = useApi({ users: ["alice"], env: { RISK_ANALYTIC_TIMEOUT_MS: "1" } });
let secret: string;

beforeAll(async () => {
  const alice = api.as.alice!;
  const [asset] = await seedReferenceAssets(api.dataDir, alice, 1);
  const broker = await looseBroker(alice, "Main");
  const a = REF.assets[0] as any;
  const cost = (a.quantity * Number(a.closes[0])).toFixed(4);
  await commitOk(alice, { creates: [deposit(broker, cost, REF.dates[0]), buy(broker, asset!, String(a.quantity), `-${cost}`, REF.dates[0])] });
  secret = ((await (await alice.post("/auth/tokens", { name: "t", scope: "read", mcp: { grade: "full" } })).json()) as { token: string }).token;
}, 60_000);

test("risk_analytics: an analytic over the /risk time budget answers execution_timeout; the server keeps serving", async () => {
  const client = new Client({ name: "test", version: "1" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${api.base}/mcp`), { requestInit: { headers: { authorization: `Bearer ${secret}` } } }));
  const r = await client.callTool({
    name: "risk_analytics",
    arguments: {
      date_start: REF.dates[0], date_end: REF.dates.at(-1), mode: "current_composition",
      analytics: [{ analytic_code: "simulation", parameters: { paths: 20000, horizon_days: 252 } }],
    },
  });
  await client.close();
  expect(r.isError).toBeFalsy();
  expect((r.structuredContent as any).items[0]).toMatchObject({ status: "failed", output: null, error: { code: "execution_timeout" } });
  expect((await api.client().get("/system/health")).status).toBe(200);
});
