import { beforeAll, describe, expect, test } from "bun:test";
import { ApiClient, expectError } from "../../helpers/client.ts";
import { useApi } from "../../helpers/server.ts";
import { buy, commitOk, createAsset, deposit, looseBroker, share } from "../transactions/fixtures.ts";
import { expectClose, REF } from "../../plugins/risk/reference.ts";
import { seedReferenceAssets } from "./reference-assets.ts";

// alice holds the fixture's four assets in one broker (bought on the first date, cash 0 afterwards);
// bob has a 50 % OWNER share of a second broker holding the same, carol has no access at all.
const api = useApi({ users: ["alice", "bob", "carol"] });
let alice: ApiClient;
let bob: ApiClient;
let carol: ApiClient;
let assets: number[];
let broker: number;
const START = REF.dates[0];
const END = REF.dates.at(-1);

async function query(c: ApiClient, body: Record<string, unknown>) {
  const res = await c.post("/risk/query", { date_range: { start: START, end: END }, target_currency: "EUR", ...body });
  expect(res.status).toBe(200);
  return (await res.json()).items as any[];
}
const kpi = (extra: Record<string, unknown> = {}) => ({ instance_id: "k", analytic_code: "historical_kpi", parameters: { risk_free_rate: REF.risk_free_rate, ...extra } });

beforeAll(async () => {
  ({ alice, bob, carol } = api.as);
  assets = await seedReferenceAssets(api.dataDir, alice);
  broker = await looseBroker(alice, "Main");
  const cost = REF.assets.reduce((s: number, a: any) => s + a.quantity * Number(a.closes[0]), 0);
  await commitOk(alice, {
    creates: [
      deposit(broker, cost.toFixed(4), START),
      ...REF.assets.map((a: any, i: number) => buy(broker, assets[i]!, String(a.quantity), (-a.quantity * Number(a.closes[0])).toFixed(4), START)),
    ],
  });
});

describe("POST /risk/query: numbers through the real server match the Python reference", () => {
  test("asset scope: historical_kpi and historical_var of one asset", async () => {
    const items = await query(alice, {
      scope: { kind: "asset", asset_id: assets[0] }, mode: "historical",
      analytics: [kpi(), { instance_id: "v", analytic_code: "historical_var", parameters: {} }],
    });
    expect(items.map((i) => [i.instance_id, i.status])).toEqual([["k", "ok"], ["v", "ok"]]);
    for (const k of ["annualized_return", "annualized_volatility", "sharpe_ratio", "sortino_ratio", "max_drawdown"]) {
      expectClose(items[0].output.metrics[k], REF.kpi.Alpha[k]);
    }
    expectClose(items[1].output.var, REF.var.historical_95_1.var);
    expect(items[0].data_quality.data_quality_status).toBe("ok");
    expect(items[0].metadata).toMatchObject({ observations_start: START, observations_end: END, target_currency: "EUR" });
  });

  test("portfolio historical mode is the flow-free value series (equal to the holdings here: cash is 0)", async () => {
    const items = await query(alice, { scope: { kind: "portfolio", broker_ids: [broker] }, mode: "historical", analytics: [kpi()] });
    expect(items[0].status).toBe("ok");
    for (const k of ["annualized_return", "annualized_volatility", "sharpe_ratio", "max_drawdown"]) expectClose(items[0].output.metrics[k], REF.kpi_portfolio[k]);
  });

  test("portfolio current_composition: kpi, contribution and correlation", async () => {
    const items = await query(alice, {
      scope: { kind: "portfolio" }, mode: "current_composition", composition_policy: "current_buy_and_hold",
      analytics: [kpi(), { instance_id: "c", analytic_code: "risk_contribution" }, { instance_id: "m", analytic_code: "correlation" }],
    });
    expect(items.map((i) => i.status)).toEqual(["ok", "ok", "ok"]);
    expectClose(items[0].output.metrics.annualized_volatility, REF.kpi_portfolio.annualized_volatility);
    expectClose(items[1].output.portfolio_volatility, REF.contribution.portfolio_volatility);
    expectClose(items[2].output.values[0][1], REF.correlation[0][1]);
  });

  test("a deposit in the middle is a flow, not a return: the historical series is unchanged", async () => {
    const b2 = await looseBroker(alice, "Flows");
    await commitOk(alice, { creates: [deposit(b2, "1000", START), buy(b2, assets[0]!, "10", (-10 * Number(REF.assets[0].closes[0])).toFixed(4), START), deposit(b2, "5000", REF.dates[100])] });
    const items = await query(alice, { scope: { kind: "portfolio", broker_ids: [b2] }, mode: "historical", analytics: [kpi()] });
    // NAV = 10 units + cash (0, then 5,000 from the end of day 100): the flow is not a return, and the
    // cash dilutes the later returns: r_k = 10 (P_k − P_{k−1}) / (10 P_{k−1} + cash_{k−1}).
    const p = REF.assets[0].closes.map(Number);
    const returns = p.slice(1).map((v: number, i: number) => (10 * (v - p[i])) / (10 * p[i] + (i + 1 > 100 ? 5000 : 0)));
    const m = returns.reduce((s: number, x: number) => s + x, 0) / returns.length;
    const sd = Math.sqrt(returns.reduce((s: number, x: number) => s + (x - m) ** 2, 0) / (returns.length - 1));
    const r = items[0].output.metrics;
    expect(r.observations).toBe(REF.dates.length - 1);
    expectClose(r.annualized_volatility, sd * Math.sqrt(252));
    expectClose(r.sharpe_ratio, (m * 252 - REF.risk_free_rate) / (sd * Math.sqrt(252)));
  });

  test("an asset slice of the portfolio's history is that asset's own returns while it was held", async () => {
    const items = await query(alice, { scope: { kind: "portfolio", broker_ids: [broker], asset_ids: [assets[1]] }, mode: "historical", analytics: [kpi()] });
    expect(items[0].status).toBe("ok");
    for (const k of ["annualized_return", "annualized_volatility", "sharpe_ratio", "max_drawdown"]) expectClose(items[0].output.metrics[k], REF.kpi.Beta[k]);
    const current = await query(alice, {
      scope: { kind: "portfolio", broker_ids: [broker], asset_ids: [assets[0], assets[2]] }, mode: "current_composition", composition_policy: "current_buy_and_hold",
      analytics: [{ instance_id: "c", analytic_code: "risk_contribution" }],
    });
    expect(current[0].output.items.map((i: any) => i.asset_id)).toEqual([assets[0], assets[2]]);
    expectClose(current[0].output.items.reduce((s: number, i: any) => s + i.weight, 0), 1);
  });
});

describe("POST /risk/query: per-analytic envelopes", () => {
  test("unknown analytic, wrong scope, wrong mode and bad parameters fail alone; the others still run", async () => {
    const items = await query(alice, {
      scope: { kind: "asset", asset_id: assets[0] }, mode: "historical",
      analytics: [
        { instance_id: "a", analytic_code: "no_such_thing" },
        { instance_id: "b", analytic_code: "correlation" },
        { instance_id: "c", analytic_code: "historical_var", parameters: { confidence_level: 2 } },
        { instance_id: "d", analytic_code: "historical_kpi" },
      ],
    });
    expect(items.map((i) => [i.instance_id, i.status, i.error?.code ?? null])).toEqual([
      ["a", "failed", "analytic_not_found"], ["b", "failed", "incompatible_scope"], ["c", "failed", "invalid_parameters"], ["d", "ok", null],
    ]);
    const mode = await query(alice, { scope: { kind: "asset", asset_id: assets[0] }, mode: "current_composition", composition_policy: "current_buy_and_hold", analytics: [{ instance_id: "x", analytic_code: "asset_set_kpi" }] });
    expect(mode[0].error.code).toBe("incompatible_scope");
    const set = await query(alice, { scope: { kind: "asset_set", asset_ids: [assets[0]] }, mode: "current_composition", composition_policy: "current_buy_and_hold", analytics: [{ instance_id: "x", analytic_code: "asset_set_kpi" }] });
    expect(set[0].error.code).toBe("incompatible_mode");
  });

  test("too short a period is insufficient_history with status unavailable", async () => {
    const items = await query(alice, { scope: { kind: "asset", asset_id: assets[0] }, mode: "historical", date_range: { start: START, end: REF.dates[10] }, analytics: [kpi()] });
    expect(items[0]).toMatchObject({ status: "unavailable", output: null, error: { code: "insufficient_history" } });
  });

  test("an asset without prices is data_unavailable, reported in data quality, never zeros", async () => {
    const bare = createAsset(api.dataDir, "EUR");
    const items = await query(alice, { scope: { kind: "asset_set", asset_ids: [assets[0], bare] }, mode: "historical", analytics: [{ instance_id: "m", analytic_code: "correlation" }] });
    expect(items[0].status).toBe("partial");
    expect(items[0].output.asset_ids).toEqual([assets[0]]);
    expect(items[0].data_quality).toMatchObject({ data_quality_status: "partial", missing_price_assets: [bare] });
    expect(items[0].warnings.map((w: any) => w.code)).toContain("missing_prices");
  });

  test("an asset priced in a currency without FX to the target is reported, not valued at zero", async () => {
    const usd = createAsset(api.dataDir, "USD");
    await alice.post("/assets/prices", [{ asset_id: usd, prices: REF.dates.slice(0, 40).map((date: string, t: number) => ({ date, close: REF.assets[0].closes[t] })) }]);
    const items = await query(alice, { scope: { kind: "asset", asset_id: usd }, mode: "historical", analytics: [kpi()] });
    expect(items[0].status).toBe("unavailable");
    expect(items[0].data_quality.missing_price_assets).toEqual([usd]);
  });
});

describe("POST /risk/query: access and validation", () => {
  test("401 without a session", async () => {
    await expectError(await api.client().post("/risk/query", {}), 401, "NOT_AUTHENTICATED");
  });

  test("a broker without an access row is 404 BROKER_NOT_FOUND; an unknown asset 404 ASSET_NOT_FOUND", async () => {
    const body = { date_range: { start: START }, mode: "historical", analytics: [kpi()] };
    await expectError(await carol.post("/risk/query", { ...body, scope: { kind: "portfolio", broker_ids: [broker] } }), 404, "BROKER_NOT_FOUND");
    await expectError(await alice.post("/risk/query", { ...body, scope: { kind: "asset", asset_id: 999999 } }), 404, "ASSET_NOT_FOUND");
  });

  test("a VIEWER of a shared broker gets the same risk numbers as its OWNER (scale 1)", async () => {
    await share(alice, broker, api.users.bob!.id, "VIEWER");
    const mine = await query(alice, { scope: { kind: "portfolio", broker_ids: [broker] }, mode: "historical", analytics: [{ instance_id: "v", analytic_code: "historical_var" }] });
    const theirs = await query(bob, { scope: { kind: "portfolio", broker_ids: [broker] }, mode: "historical", analytics: [{ instance_id: "v", analytic_code: "historical_var" }] });
    expectClose(theirs[0].output.var, mine[0].output.var);
  });

  test("422: 0 or 33 analytics, duplicate instance ids, bad codes, current_composition without its policy, end before start", async () => {
    const base = { scope: { kind: "asset", asset_id: assets[0] }, date_range: { start: START }, mode: "historical" };
    await expectError(await alice.post("/risk/query", { ...base, analytics: [] }), 422, "VALIDATION_ERROR");
    await expectError(await alice.post("/risk/query", { ...base, analytics: Array.from({ length: 33 }, (_, i) => ({ ...kpi(), instance_id: `k${i}` })) }), 422);
    await expectError(await alice.post("/risk/query", { ...base, analytics: [kpi(), kpi()] }), 422);
    await expectError(await alice.post("/risk/query", { ...base, analytics: [{ ...kpi(), analytic_code: "Bad-Code" }] }), 422);
    await expectError(await alice.post("/risk/query", { ...base, mode: "current_composition", analytics: [kpi()] }), 422);
    await expectError(await alice.post("/risk/query", { ...base, date_range: { start: END, end: START }, analytics: [kpi()] }), 422);
    await expectError(await alice.post("/risk/query", { ...base, analytics: [kpi()], extra: 1 }), 422);
  });
});

describe("GET /risk/catalog and POST /risk/eligibility", () => {
  test("the catalog lists each analytic with its parameters as JSON Schema", async () => {
    const res = await alice.get("/risk/catalog");
    expect(res.status).toBe(200);
    const items = (await res.json()).items;
    const v = items.find((i: any) => i.analytic_code === "historical_var");
    expect(v).toMatchObject({ output_kind: "var_cvar", supported_scopes: ["asset", "portfolio"], min_observations: 20, algorithm_version: "1.0.0" });
    expect(Object.keys(v.parameters_schema.properties).sort()).toEqual(["confidence_level", "horizon_days", "method", "min_observations"]);
    expect(v.parameters_schema.properties.method.enum).toEqual(["historical", "parametric", "cornish_fisher"]);
    // Every analytic publishes its parameters, each documented, and takes min_observations.
    expect(items.map((i: any) => i.analytic_code).sort()).toEqual([
      "asset_risk_return", "asset_set_comparison", "asset_set_drawdown", "asset_set_kpi", "asset_set_risk_return", "asset_set_var", "comparison",
      "correlation", "drawdown_summary", "historical_kpi", "historical_var", "portfolio_optimization", "risk_contribution", "simulation", "stress",
    ]);
    for (const item of items) {
      expect(item.parameters_schema.type).toBe("object");
      if (item.analytic_code !== "stress") expect(Object.keys(item.parameters_schema.properties)).toContain("min_observations");
      for (const [name, prop] of Object.entries(item.parameters_schema.properties as Record<string, any>)) {
        expect(`${item.analytic_code}.${name}: ${typeof prop.description}`).toBe(`${item.analytic_code}.${name}: string`);
      }
    }
  });

  test("eligibility grades each asset with its reasons and the common range", async () => {
    const bare = createAsset(api.dataDir, "EUR");
    const yen = createAsset(api.dataDir, "JPY");
    const res = await alice.post("/risk/eligibility", { asset_ids: [assets[0], bare, yen], date_range: { start: "2022-06-01", end: END }, target_currency: "EUR" });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.items[0]).toMatchObject({ asset_id: assets[0], level: "warning", reasons: ["starts_late"], first_quote: START, quotes_in_period: REF.dates.length });
    expect(body.items[1]).toMatchObject({ asset_id: bare, level: "ineligible", reasons: ["no_price_history"], quotes_in_period: 0 });
    expect(body.items[2]).toMatchObject({ asset_id: yen, level: "ineligible", reasons: ["no_price_history", "missing_fx"] });
    expect(body).toMatchObject({ min_quotes: 20, stale_days: 7, common_range: { start: START, end: END } });
  });
});
