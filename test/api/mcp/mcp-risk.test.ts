import { beforeAll, describe, expect, test } from "bun:test";
import type { ApiClient } from "../../helpers/client.ts";
import { useApi } from "../../helpers/server.ts";
import { REF } from "../../plugins/risk/reference.ts";
import { seedReferenceAssets } from "../risk/reference-assets.ts";
import { buy, commitOk, deposit, looseBroker } from "../transactions/fixtures.ts";
import { connectMcp } from "./mcp-client.ts";

// dave holds the risk reference fixture's assets plus a planted cash amount; the risk tool runs on that portfolio.
const api = useApi({ users: ["dave"] });
let dave: ApiClient;
let held: number;
let secrets: Record<"full" | "relative" | "aggregate", string>;
const START = REF.dates[0] as string;
const END = REF.dates.at(-1) as string;
const CANARY = "65432.1987";

const connect = (secret: string) => connectMcp(api.base, secret);

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
  held = assets[0]!;
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
      for (const signal_code of ["RSI", "SMA", "ROLLING_RETURN"]) {
        const args = { asset_id: held, date_start: START, date_end: END, signals: [{ signal_code }] };
        seen.push(await c.callTool({ name: "signals", arguments: args }).catch((e: Error) => ({ error: e.message })));
      }
      await c.close();
      const text = JSON.stringify(seen);
      for (const leak of leaks) expect(text).not.toContain(leak);
      expect(text).toContain("annualized_volatility");
    }
  });
});

describe("MCP signals", () => {
  const args = (codes: string[], asset = () => held) => ({ asset_id: asset(), date_start: START, date_end: END, signals: codes.map((signal_code) => ({ signal_code, params: {} })) });

  test("full: any signal of the catalogue on the stored prices of a held asset, one line per output", async () => {
    const c = await connect(secrets.full);
    const out = (await c.callTool({ name: "signals", arguments: args(["SMA", "RSI"]) })).structuredContent as any;
    expect(out.points).toBe(REF.dates.length);
    expect(out.signals.map((s: any) => [s.signal_code, s.status])).toEqual([["SMA", "ok"], ["RSI", "ok"]]);
    expect(out.signals[1].outputs.value.at(-1).value).toBeNumber();
    const unknown = await c.callTool({ name: "signals", arguments: { ...args(["RSI"]), asset_id: 987654 } });
    expect(unknown.isError).toBe(true);
    await c.close();
  });

  test("relative: only scale-free signals (a moving average is a price level); aggregate: not listed", async () => {
    const c = await connect(secrets.relative);
    const rsi = (await c.callTool({ name: "signals", arguments: args(["RSI", "DRAWDOWN"]) })).structuredContent as any;
    expect(rsi.signals.every((s: any) => s.status === "ok")).toBe(true);
    expect((await c.callTool({ name: "signals", arguments: args(["SMA"]) })).isError).toBe(true);
    await c.close();
    const agg = await connect(secrets.aggregate);
    expect((await agg.listTools()).tools.map((t) => t.name)).not.toContain("signals");
    await agg.close();
  });
});
