import { beforeAll, describe, expect, test } from "bun:test";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type { ApiClient } from "../../helpers/client.ts";
import { useApi } from "../../helpers/server.ts";
import { REF } from "../../plugins/risk/reference.ts";
import { seedReferenceAssets } from "../risk/reference-assets.ts";
import { buy, commitOk, deposit, looseBroker } from "../transactions/fixtures.ts";

// dave holds the risk reference fixture's assets plus a planted cash amount; the risk tool runs on that portfolio.
const api = useApi({ users: ["dave"] });
let dave: ApiClient;
let secrets: Record<"full" | "relative" | "aggregate", string>;
const START = REF.dates[0] as string;
const END = REF.dates.at(-1) as string;
const CANARY = "65432.1987";

async function connect(secret: string) {
  const client = new Client({ name: "test", version: "1" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${api.base}/mcp`), { requestInit: { headers: { authorization: `Bearer ${secret}` } } }));
  return client;
}

const ANALYTICS = [
  { analytic_code: "historical_kpi", parameters: {} }, { analytic_code: "historical_var", parameters: {} }, { analytic_code: "drawdown_summary", parameters: {} },
];

async function risk(grade: keyof typeof secrets, args: Record<string, unknown>): Promise<any> {
  const c = await connect(secrets[grade]);
  const r = await c.callTool({ name: "risk_analytics", arguments: args });
  await c.close();
  return r;
}

beforeAll(async () => {
  dave = api.as.dave!;
  const assets = await seedReferenceAssets(api.dataDir, dave);
  const broker = await looseBroker(dave, "Risk broker");
  const cost = REF.assets.reduce((s: number, a: any) => s + a.quantity * Number(a.closes[0]), 0);
  await commitOk(dave, {
    creates: [
      deposit(broker, (cost + Number(CANARY)).toFixed(4), START),
      ...REF.assets.map((a: any, i: number) => buy(broker, assets[i]!, String(a.quantity), (-a.quantity * Number(a.closes[0])).toFixed(4), START)),
    ],
  });
  const token = async (grade: string) => ((await (await dave.post("/auth/tokens", { name: `r-${grade}`, scope: "read", mcp: { grade } })).json()) as { token: string }).token;
  secrets = { full: await token("full"), relative: await token("relative"), aggregate: await token("aggregate") };
}, 60_000);

describe("MCP risk_analytics", () => {
  test("full: KPIs, VaR with its amount and drawdowns of the portfolio's value series, each in its own item", async () => {
    const r = (await risk("full", { date_start: START, date_end: END, analytics: ANALYTICS })).structuredContent as any;
    expect(r.items.map((i: any) => [i.analytic_code, i.status])).toEqual([["historical_kpi", "ok"], ["historical_var", "ok"], ["drawdown_summary", "ok"]]);
    expect(r.items[0].output.metrics.annualized_volatility).toBeNumber();
    expect(r.items[1].output.var_amount).toBeString();
    expect(r.items[0].observations_start).toBe(START);
    expect(r.currency).toBe("EUR");
    expect(r.data_quality.status).toBe("ok");
  });

  test("relative and aggregate: the same ratios without the VaR amount; aggregate may not ask for the per-holding contribution", async () => {
    const full = (await risk("full", { date_start: START, date_end: END, analytics: ANALYTICS })).structuredContent as any;
    const amount = full.items[1].output.var_amount as string;
    for (const grade of ["relative", "aggregate"] as const) {
      const r = (await risk(grade, { date_start: START, date_end: END, analytics: ANALYTICS })).structuredContent as any;
      expect(r.items[0].output.metrics).toEqual(full.items[0].output.metrics);
      expect(r.items[1].output.var).toBe(full.items[1].output.var);
      expect(r.items[1].output.var_amount).toBeUndefined();
      expect(JSON.stringify(r)).not.toContain(amount);
    }
    const contribution = { date_start: START, date_end: END, mode: "current_composition", analytics: [{ analytic_code: "risk_contribution" }] };
    const rel = (await risk("relative", contribution)).structuredContent as any;
    expect(rel.items[0].status).toBe("ok");
    expect(rel.items[0].output.items[0].weight).toBeNumber();
    expect((await risk("aggregate", contribution)).isError).toBe(true);
  });

  test("canary: no rendering of the planted cash or of the value series' amounts below full", async () => {
    const full = (await risk("full", { date_start: START, date_end: END, analytics: ANALYTICS })).structuredContent as any;
    const leaks = [CANARY, "65432.19", "65432", "65,432", full.items[1].output.var_amount, full.items[1].output.cvar_amount].filter(Boolean);
    for (const grade of ["relative", "aggregate"] as const) {
      const c = await connect(secrets[grade]);
      const seen: unknown[] = [await c.listTools()];
      for (const args of [
        { date_start: START, date_end: END, analytics: ANALYTICS },
        { date_start: START, date_end: END, mode: "current_composition", analytics: ANALYTICS },
        { date_start: START, analytics: [{ analytic_code: "simulation" }] },
        { date_start: "x", analytics: [] },
      ]) seen.push(await c.callTool({ name: "risk_analytics", arguments: args }).catch((e: Error) => ({ error: e.message })));
      await c.close();
      const text = JSON.stringify(seen);
      for (const leak of leaks) expect(text).not.toContain(leak);
      expect(text).toContain("annualized_volatility");
    }
  });
});
