import { beforeAll, describe, expect, test } from "bun:test";
import type { ApiClient } from "../../helpers/client.ts";
import { seedFxRates, seedFxRoute } from "../../helpers/fake-fx-server.ts";
import { queryDb } from "../../helpers/seed.ts";
import { useApi } from "../../helpers/server.ts";
import { REF } from "../../plugins/risk/reference.ts";
import { seedReferenceAssets } from "../risk/reference-assets.ts";
import { buy, commitOk, deposit, looseBroker } from "../transactions/fixtures.ts";
import { connectMcp } from "./mcp-client.ts";

// erin holds the risk reference fixture's assets (priced every trading day) plus a planted cash amount.
const api = useApi({ users: ["erin"] });
let erin: ApiClient;
let assets: number[];
let names: string[];
let secrets: Record<"full" | "relative" | "aggregate", string>;
const START = REF.dates[0] as string;
const END = REF.dates.at(-1) as string;
const CANARY = "65432.1987";
const LEAKS = [CANARY, "65432.19", "65432", "65,432", "65 432"];

const connect = (secret: string) => connectMcp(api.base, secret);

async function call(grade: keyof typeof secrets, name: string, args: Record<string, unknown> = {}): Promise<any> {
  const c = await connect(secrets[grade]);
  const r = await c.callTool({ name, arguments: args }).catch((e: Error) => ({ isError: true, error: e.message }));
  await c.close();
  return r;
}

beforeAll(async () => {
  erin = api.as.erin!;
  assets = await seedReferenceAssets(api.dataDir, erin);
  names = assets.map((id) => queryDb<{ name: string }>(api.dataDir, "SELECT name FROM assets WHERE id = ?", id)[0]!.name);
  const broker = await looseBroker(erin, "Market broker");
  const cost = REF.assets.reduce((s: number, a: any) => s + a.quantity * Number(a.closes[0]), 0);
  await commitOk(erin, {
    creates: [
      deposit(broker, (cost + Number(CANARY)).toFixed(4), START),
      ...REF.assets.map((a: any, i: number) => buy(broker, assets[i]!, String(a.quantity), (-a.quantity * Number(a.closes[0])).toFixed(4), START)),
    ],
  });
  // A CHF→JPY route through EUR and USD (no stored CHF-JPY rate), and a NOK-SEK pair only erin's private rate converts.
  seedFxRates(api.dataDir, [
    { base: "CHF", quote: "EUR", provider: "P1", date: "2024-01-01", rate: "0.5" },
    { base: "EUR", quote: "USD", provider: "P1", date: "2024-01-01", rate: "2" },
    { base: "JPY", quote: "USD", provider: "P2", date: "2024-01-01", rate: "0.25" },
  ]);
  seedFxRoute(api.dataDir, { base: "CHF", quote: "JPY", priority: 1, steps: [
    { from: "CHF", to: "EUR", provider: "P1" }, { from: "EUR", to: "USD", provider: "P1" }, { from: "USD", to: "JPY", provider: "P2" },
  ] });
  expect((await erin.post("/fx/currencies/private-rates", [{ date: "2024-01-02", base: "NOK", quote: "SEK", rate: "0.98" }])).status).toBe(200);
  const token = async (grade: string) => ((await (await erin.post("/auth/tokens", { name: `m-${grade}`, scope: "read", mcp: { grade } })).json()) as { token: string }).token;
  secrets = { full: await token("full"), relative: await token("relative"), aggregate: await token("aggregate") };
}, 60_000);

describe("MCP portfolio_history", () => {
  test("full: value and return per month end, paginated; relative and aggregate: the same returns without the amounts", async () => {
    const full = (await call("full", "portfolio_history", { date_start: START, date_end: END, interval: "month", limit: 5 })).structuredContent;
    expect(full.interval).toBe("month");
    expect(full.points).toHaveLength(5);
    expect(full.points[0].date).toBe("2023-01-31");
    expect(full.points[0].net_worth).toBeString();
    expect(full.next_offset).toBe(5);
    const last = (await call("full", "portfolio_history", { date_start: START, date_end: END, interval: "month", offset: 10 })).structuredContent;
    // 2023-01 … 2024-02: fourteen month ends, the last one the period's last day.
    expect(last.points.map((p: any) => p.date)).toEqual(["2023-11-30", "2023-12-31", "2024-01-31", END]);
    expect(last.next_offset).toBeNull();
    for (const grade of ["relative", "aggregate"] as const) {
      const r = (await call(grade, "portfolio_history", { date_start: START, date_end: END, interval: "month", limit: 5 })).structuredContent;
      expect(r.points.map((p: any) => [p.date, p.twr_percent, p.twr_index])).toEqual(full.points.map((p: any) => [p.date, p.twr_percent, p.twr_index]));
      expect(r.points[0].net_worth).toBeUndefined();
      expect(r.points[0].market_value).toBeUndefined();
    }
  });

  test("a weekly series keeps the last day of each week; a daily one every day", async () => {
    const weekly = (await call("full", "portfolio_history", { date_start: "2024-01-01", date_end: "2024-01-21", interval: "week" })).structuredContent;
    expect(weekly.points.map((p: any) => p.date)).toEqual(["2024-01-07", "2024-01-14", "2024-01-21"]);
    const daily = (await call("full", "portfolio_history", { date_start: "2024-01-01", date_end: "2024-01-21", interval: "day" })).structuredContent;
    expect(daily.points).toHaveLength(21);
    expect(daily.points[6].net_worth).toBe(weekly.points[0].net_worth);
  });
});

describe("MCP asset_search and asset_prices", () => {
  test("search finds catalogue assets by name; aggregate lists neither tool (the catalogue would name holdings)", async () => {
    const found = (await call("relative", "asset_search", { query: names[0]!.toLowerCase() })).structuredContent;
    expect(found.assets).toContainEqual(expect.objectContaining({ id: assets[0], name: names[0], currency: "EUR" }));
    expect(JSON.stringify(found)).not.toMatch(/tx_count|held/);
    const agg = await connect(secrets.aggregate);
    const listed = (await agg.listTools()).tools.map((t) => t.name);
    await agg.close();
    expect(listed).not.toContain("asset_search");
    expect(listed).not.toContain("asset_prices");
  });

  test("full: stored closes; relative: the same series as an index rebased to 100, no price level", async () => {
    const args = { asset_id: assets[2], date_start: START, date_end: END, interval: "month" };
    const full = (await call("full", "asset_prices", args)).structuredContent;
    expect(full.prices[0]).toEqual({ date: "2023-01-31", close: expect.any(String), index: expect.any(String) });
    expect(full.prices.at(-1)).toMatchObject({ date: END, close: "121.8482", index: "121.8482" });
    const rel = (await call("relative", "asset_prices", args)).structuredContent;
    expect(rel.prices.at(-1)).toEqual({ date: END, index: "121.8482" });
    expect(JSON.stringify(rel)).not.toContain("\"close\"");
    expect((await call("full", "asset_prices", { ...args, asset_id: 987654 })).content[0].text).toContain("ASSET_NOT_FOUND");
  });
});

describe("MCP stress_scenarios and stress_test", () => {
  test("the scenario catalogue is listed at every grade", async () => {
    for (const grade of ["full", "relative", "aggregate"] as const) {
      const out = (await call(grade, "stress_scenarios")).structuredContent;
      expect(out.scenarios).toContainEqual(expect.objectContaining({ id: "equity_crash", kind: "hypothetical_shock", source: "built_in", summary: expect.any(String) }));
    }
  });

  test("full: return, amount and each holding's shock; relative: no amount; aggregate: no holdings and no asset overrides", async () => {
    const args = { scenario_id: "custom_period", date_start: START, date_end: END, start: REF.dates[10], end: REF.dates[50] };
    const full = (await call("full", "stress_test", args)).structuredContent;
    expect(full.status).toBe("ok");
    expect(full.result.pnl_amount).toBeString();
    expect(full.result.holdings.map((h: any) => h.asset_id).sort()).toEqual([...assets].sort());
    expect(full.result.holdings.every((h: any) => h.source === "history")).toBe(true);
    const rel = (await call("relative", "stress_test", args)).structuredContent;
    expect(rel.result.portfolio_return_percent).toBe(full.result.portfolio_return_percent);
    expect(rel.result.pnl_amount).toBeUndefined();
    expect(rel.result.holdings[0].asset_name).toBeString();
    const agg = (await call("aggregate", "stress_test", args)).structuredContent;
    expect(agg.result.portfolio_return_percent).toBe(full.result.portfolio_return_percent);
    expect(agg.result.holdings).toBeUndefined();
    for (const n of names) expect(JSON.stringify(agg)).not.toContain(n);
    const overrides = await call("aggregate", "stress_test", { scenario_id: "equity_crash", date_start: START, manual_overrides: { [String(assets[0])]: -0.5 } });
    expect(overrides.isError).toBe(true);
  });

  test("a stress run goes through the /risk limits: an unknown scenario is a failed item, not a crash", async () => {
    const out = (await call("full", "stress_test", { scenario_id: "no_such_scenario", date_start: START, date_end: END })).structuredContent;
    expect(out.status).toBe("failed");
    expect(out.error.code).toBe("invalid_parameters");
    expect(out.result).toBeNull();
  });
});

describe("MCP pac_allocator and portfolio_rebalancer", () => {
  test("full only: a relative or aggregate token lists neither (they take and answer amounts)", async () => {
    for (const grade of ["relative", "aggregate"] as const) {
      const c = await connect(secrets[grade]);
      const listed = (await c.listTools()).tools.map((t) => t.name);
      await c.close();
      expect(listed).not.toContain("pac_allocator");
      expect(listed).not.toContain("portfolio_rebalancer");
    }
  });

  test("the PAC allocator spends the monthly amount on the holdings by target weight, never more", async () => {
    const positions = assets.map((id) => ({ key: String(id), target_weight: "0.25" }));
    const out = (await call("full", "pac_allocator", { budget: { code: "EUR", amount: "1000" }, positions, whole_units: false })).structuredContent;
    expect(out.status).toBe("success");
    const spent = out.result.orders.reduce((s: number, o: any) => s + Number(o.amount), 0);
    expect(spent + Number(out.result.cash_left)).toBeCloseTo(1000, 6);
    expect(out.result.orders.every((o: any) => assets.map(String).includes(o.key))).toBe(true);
  });

  test("the rebalancer answers trades toward the targets; a weight sum above 1 is invalid_parameters", async () => {
    const positions = assets.map((id, i) => ({ key: String(id), target_weight: i === 0 ? "0.7" : "0.1" }));
    const out = (await call("full", "portfolio_rebalancer", { cash: { code: "EUR", amount: "0" }, positions, mode: "buy_and_sell", whole_units: false })).structuredContent;
    expect(out.status).toBe("success");
    expect(out.result.orders).toContainEqual(expect.objectContaining({ key: String(assets[0]), side: "buy" }));
    const bad = (await call("full", "portfolio_rebalancer", {
      cash: { code: "EUR", amount: "0" }, positions: assets.map((id) => ({ key: String(id), target_weight: "0.5" })), mode: "buy_only", whole_units: false,
    })).structuredContent;
    expect(bad).toMatchObject({ status: "error", result: null, error: { code: "invalid_parameters" } });
  });
});

describe("MCP fx_rates through the conversion routes", () => {
  test("a pair with no stored rate of its own converts through its configured route, carrying the last rate forward", async () => {
    const out = (await call("aggregate", "fx_rates", { base: "CHF", quote: "JPY", date_start: "2024-01-01", date_end: "2024-01-03" })).structuredContent;
    expect(out.rates).toEqual([
      { date: "2024-01-01", rate: "4", private_rate: false, rate_date: "2024-01-01" },
      { date: "2024-01-02", rate: "4", private_rate: false, rate_date: "2024-01-01" },
      { date: "2024-01-03", rate: "4", private_rate: false, rate_date: "2024-01-01" },
    ]);
    expect(out.data_quality.status).toBe("carried_forward");
  });

  test("the user's private rates answer a pair no shared route converts; days before any rate are a MISSING_FX_RATE issue", async () => {
    const out = (await call("relative", "fx_rates", { base: "NOK", quote: "SEK", date_start: "2024-01-01", date_end: "2024-01-02" })).structuredContent;
    expect(out.rates).toEqual([{ date: "2024-01-02", rate: "0.98", private_rate: true, rate_date: "2024-01-02" }]);
    expect(out.data_quality).toEqual({ status: "partial", issues: [expect.objectContaining({ code: "MISSING_FX_RATE", count: 1, affected_fx_pairs: ["NOK-SEK"] })] });
  });
});

describe("canary: the new tools render no planted amount below full", () => {
  for (const grade of ["relative", "aggregate"] as const) {
    test(`${grade}: history, search, prices, scenarios, stress and the refused planning tools`, async () => {
      const c = await connect(secrets[grade]);
      const seen: unknown[] = [await c.listTools()];
      const calls: [string, Record<string, unknown>][] = [
        ["portfolio_history", { date_start: START, date_end: END, interval: "day", limit: 500 }],
        ["asset_search", { query: "Asset" }], ["asset_prices", { asset_id: assets[0], date_start: START, date_end: END }],
        ["stress_scenarios", {}], ["stress_test", { scenario_id: "equity_crash", date_start: START, date_end: END }],
        ["stress_test", { scenario_id: "custom_period", date_start: START, date_end: END, start: REF.dates[10], end: REF.dates[50] }],
        ["pac_allocator", { budget: { code: "EUR", amount: CANARY }, positions: [{ key: String(assets[0]), target_weight: "1" }], whole_units: false }],
        ["portfolio_rebalancer", { cash: { code: "EUR", amount: CANARY }, positions: [{ key: String(assets[0]), target_weight: "1" }], mode: "buy_only", whole_units: false }],
        ["fx_rates", { base: "CHF", quote: "JPY", date_start: "2024-01-01", date_end: "2024-01-03" }],
      ];
      for (const [name, args] of calls) seen.push(await c.callTool({ name, arguments: args }).catch((e: Error) => ({ error: e.message })));
      await c.close();
      // The amounts a full token sees in the same answers: the series' values and the stress amount. (The fixture's
      // closes start at 100, so their index equals their level: mcp-server.test.ts plants a price level instead.)
      const full = (await call("full", "portfolio_history", { date_start: START, date_end: END, interval: "day", limit: 500 })).structuredContent;
      const stress = (await call("full", "stress_test", calls[5]![1])).structuredContent;
      const fullAmounts = [full.points[0].net_worth, full.points.at(-1).net_worth, stress.result.pnl_amount];
      const text = JSON.stringify(seen);
      for (const leak of [...LEAKS, ...fullAmounts]) expect(text).not.toContain(leak);
      expect(text).toContain("twr_index");
    });
  }
});
