import { beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ApiClient, expectError } from "../../helpers/client.ts";
import { tempDataDir, useApi } from "../../helpers/server.ts";
import { buy, commitOk, deposit, looseBroker } from "../transactions/fixtures.ts";
import { expectClose, REF } from "../../plugins/risk/reference.ts";
import { seedReferenceAssets } from "./reference-assets.ts";

// A host scenario file, an invalid one and a non-JSON one dropped into DATA_DIR/scenarios before start.
const dataDir = tempDataDir();
mkdirSync(join(dataDir, "scenarios"));
writeFileSync(join(dataDir, "scenarios", "tech_wreck.json"), JSON.stringify({
  schema_version: 1, id: "tech_wreck", kind: "hypothetical_shock", tags: ["host"], name: { en: "Tech wreck" }, description: { en: "Technology falls" },
  allowed_dimensions: ["sector"], defaults: { dimension: "sector", bucket_shocks: { "Information Technology": -0.5 } },
  editable: { dimension: false, bucket_shocks: true, manual_overrides: true }, limits: { minimum_shock: -1, maximum_shock: 1, maximum_buckets: 100 },
}));
writeFileSync(join(dataDir, "scenarios", "broken.json"), JSON.stringify({ schema_version: 1, id: "Bad Id", kind: "hypothetical_shock" }));
writeFileSync(join(dataDir, "scenarios", "not-json.json"), "{ nope");

const api = useApi({ users: ["alice"], dataDir });
let alice: ApiClient;
let assets: number[];
const START = REF.dates[0];
const END = REF.dates.at(-1);

async function query(body: Record<string, unknown>) {
  const res = await alice.post("/risk/query", {
    date_range: { start: START, end: END }, target_currency: "EUR", mode: "current_composition", composition_policy: "current_buy_and_hold",
    scope: { kind: "portfolio" }, ...body,
  });
  expect(res.status).toBe(200);
  return (await res.json()).items as any[];
}

beforeAll(async () => {
  ({ alice } = api.as);
  assets = await seedReferenceAssets(api.dataDir, alice);
  const broker = await looseBroker(alice, "Main");
  const cost = REF.assets.reduce((s: number, a: any) => s + a.quantity * Number(a.closes[0]), 0);
  await commitOk(alice, {
    creates: [
      deposit(broker, cost.toFixed(4), START),
      ...REF.assets.map((a: any, i: number) => buy(broker, assets[i]!, String(a.quantity), (-a.quantity * Number(a.closes[0])).toFixed(4), START)),
    ],
  });
});

describe("GET /risk/scenario-catalog", () => {
  test("built-in scenarios, the host file, and warnings for invalid files instead of a failure", async () => {
    const res = await alice.get("/risk/scenario-catalog");
    expect(res.status).toBe(200);
    const body = await res.json();
    const ids = body.items.map((i: any) => i.scenario.id);
    for (const id of ["global_financial_crisis", "covid_crash_2020", "inflation_rates_2022", "custom_period", "equity_crash", "global_risk_off", "banking_crisis", "european_union_shock"]) {
      expect(ids).toContain(id);
    }
    expect(body.items.find((i: any) => i.scenario.id === "tech_wreck")).toMatchObject({ source: "host", source_file: "tech_wreck.json" });
    expect(body.status).toMatchObject({ schema_version: 1, built_in_count: 8, host_count: 1, warning_count: 2 });
    expect(body.warnings.map((w: any) => w.source_file).sort()).toEqual(["broken.json", "not-json.json"]);
    expect(body.geography_groups[0]).toMatchObject({ id: "european_union" });
  });

  test("a host file dropped in, changed or removed while the server runs applies without a restart", async () => {
    const file = join(api.dataDir, "scenarios", "late.json");
    const late = (name: string) => JSON.stringify({
      schema_version: 1, id: "late_shock", kind: "hypothetical_shock", tags: ["host"], name: { en: name }, description: { en: "Added later" },
      allowed_dimensions: ["asset_class"], defaults: { dimension: "asset_class", bucket_shocks: { STOCK: -0.1 } },
      editable: { dimension: false, bucket_shocks: true, manual_overrides: true }, limits: { minimum_shock: -1, maximum_shock: 1, maximum_buckets: 100 },
    });
    const lateEntry = async () => ((await (await alice.get("/risk/scenario-catalog")).json()).items as any[]).find((i) => i.scenario.id === "late_shock");
    try {
      writeFileSync(file, late("Late"));
      expect((await lateEntry())?.scenario.name).toEqual({ en: "Late" });
      writeFileSync(file, late("Later still"));
      expect((await lateEntry())?.scenario.name).toEqual({ en: "Later still" });
    } finally {
      rmSync(file, { force: true });
    }
    expect(await lateEntry()).toBeUndefined();
  });
});

describe("POST /risk/query: comparison, stress, simulation, optimisation", () => {
  test("comparison of an asset against another asset matches numpy", async () => {
    const items = await query({
      scope: { kind: "asset", asset_id: assets[0] }, mode: "historical", composition_policy: undefined,
      analytics: [{ instance_id: "c", analytic_code: "comparison", parameters: { benchmark_asset_id: assets[1], risk_free_rate: REF.risk_free_rate } }],
    });
    expect(items[0].status).toBe("ok");
    for (const k of ["beta", "alpha", "tracking_error", "information_ratio", "up_capture", "down_capture"]) expectClose(items[0].output.metrics[k], REF.comparison[k]);
  });

  test("an unknown benchmark asset is 404", async () => {
    const res = await alice.post("/risk/query", {
      scope: { kind: "asset", asset_id: assets[0] }, date_range: { start: START }, mode: "historical",
      analytics: [{ instance_id: "c", analytic_code: "comparison", parameters: { benchmark_asset_id: 987654 } }],
    });
    await expectError(res, 404, "ASSET_NOT_FOUND");
  });

  test("stress: a built-in shock on unclassified holdings takes OTHER, a replay inside the data uses history", async () => {
    const items = await query({
      analytics: [
        { instance_id: "s", analytic_code: "stress", parameters: { scenario_id: "equity_crash", manual_overrides: { [String(assets[0])]: -0.5 } } },
        { instance_id: "r", analytic_code: "stress", parameters: { scenario_id: "custom_period", start: REF.dates[10], end: REF.dates[50] } },
        { instance_id: "x", analytic_code: "stress", parameters: { scenario_id: "nope" } },
        { instance_id: "f", analytic_code: "stress", parameters: { scenario_id: "covid_crash_2020", start: "2020-01-01" } },
      ],
    });
    expect(items[0].status).toBe("ok");
    expect(items[0].output.items[0]).toMatchObject({ source: "override", shock: -0.5 });
    expect(items[1].output.items.every((i: any) => i.source === "history")).toBe(true);
    const w = items[1].output.items.map((i: any) => i.weight);
    const ret = (i: number) => Number(REF.assets[i].closes[50]) / Number(REF.assets[i].closes[10]) - 1;
    expectClose(items[1].output.portfolio_return, w.reduce((s: number, wi: number, i: number) => s + wi * ret(i), 0), 1e-9);
    expect(items[2].error.code).toBe("invalid_parameters");
    expect(items[3].error.code).toBe("invalid_parameters");
  });

  test("a replay before any price excludes every holding: data_unavailable", async () => {
    const items = await query({ analytics: [{ instance_id: "g", analytic_code: "stress", parameters: { scenario_id: "global_financial_crisis" } }] });
    expect(items[0]).toMatchObject({ status: "unavailable", error: { code: "data_unavailable" } });
  });

  test("simulation matches the Python port; the second run is served from risk_simulation, a price write clears it", async () => {
    const params = REF.simulation.gbm.params;
    const first = await query({ analytics: [{ instance_id: "m", analytic_code: "simulation", parameters: params }] });
    expect(first[0].status).toBe("ok");
    expectClose(first[0].output.terminal.p50, REF.simulation.gbm.terminal.p50, 1e-6);
    expect(first[0].metadata.cached).toBe(false);
    const second = await query({ analytics: [{ instance_id: "m", analytic_code: "simulation", parameters: params }] });
    expect(second[0].metadata.cached).toBe(true);
    expect(second[0].output).toEqual(first[0].output);
    const status = (await (await alice.get("/settings/cache/status")).json()).items.find((i: any) => i.name === "risk_simulation");
    expect(status.current_size).toBe(1);
    await alice.post("/assets/prices", [{ asset_id: assets[0], prices: [{ date: END, close: REF.assets[0].closes.at(-1) }] }]);
    const third = await query({ analytics: [{ instance_id: "m", analytic_code: "simulation", parameters: params }] });
    expect(third[0].metadata.cached).toBe(false);
  });

  test("oversized simulations are refused with resource_limit", async () => {
    const items = await query({ analytics: [{ instance_id: "m", analytic_code: "simulation", parameters: { paths: 100000, horizon_days: 2520 } }] });
    expect(items[0]).toMatchObject({ status: "failed", error: { code: "resource_limit" } });
  });

  test("portfolio_optimization on the holdings matches scipy; infeasible bounds are reported", async () => {
    const items = await query({
      mode: "historical", composition_policy: undefined,
      analytics: [
        { instance_id: "o", analytic_code: "portfolio_optimization", parameters: { objective: "min_risk" } },
        { instance_id: "i", analytic_code: "portfolio_optimization", parameters: { max_weight: 0.2 } },
      ],
    });
    expect(items[0].status).toBe("ok");
    items[0].output.weights.forEach((w: any, i: number) => expect(Math.abs(w.weight - REF.optimization.min_risk.weights[i])).toBeLessThan(1e-6));
    expect(items[1].error.code).toBe("optimization_infeasible");
    expect(items[0].metadata.cached).toBe(false);
  });

  test("a repeated optimisation is served from risk_optimization (failures are not kept); a price write clears it", async () => {
    const analytics = [
      { instance_id: "o", analytic_code: "portfolio_optimization", parameters: { objective: "min_risk" } },
      { instance_id: "i", analytic_code: "portfolio_optimization", parameters: { max_weight: 0.2 } },
    ];
    const again = await query({ mode: "historical", composition_policy: undefined, analytics });
    expect(again.map((i) => [i.status, i.metadata.cached])).toEqual([["ok", true], ["failed", false]]);
    const status = (await (await alice.get("/settings/cache/status")).json()).items.find((i: any) => i.name === "risk_optimization");
    expect(status.current_size).toBe(1);
    await alice.post("/assets/prices", [{ asset_id: assets[1], prices: [{ date: END, close: REF.assets[1].closes.at(-1) }] }]);
    const after = await query({ mode: "historical", composition_policy: undefined, analytics: [analytics[0]] });
    expect(after[0].metadata.cached).toBe(false);
    expect(after[0].output).toEqual(again[0].output);
  });

  test("asset_set_* run per asset of an asset set", async () => {
    const items = await query({
      scope: { kind: "asset_set", asset_ids: assets }, mode: "historical", composition_policy: undefined,
      analytics: [{ instance_id: "k", analytic_code: "asset_set_kpi", parameters: { risk_free_rate: REF.risk_free_rate } }],
    });
    expect(items[0].output.items.length).toBe(4);
    expectClose(items[0].output.items[2].metrics.annualized_volatility, REF.kpi.Gamma.annualized_volatility);
  });
});
