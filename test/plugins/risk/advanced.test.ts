import { describe, expect, test } from "bun:test";
import { assetSetKpiPlugin, assetSetVarPlugin } from "../../../plugins/risk/asset-set.ts";
import { comparisonPlugin } from "../../../plugins/risk/comparison.ts";
import { portfolioOptimizationPlugin } from "../../../plugins/risk/optimization.ts";
import { simulationPlugin } from "../../../plugins/risk/simulation.ts";
import { stressPlugin } from "../../../plugins/risk/stress.ts";
import { assetSeries, closes, compute, currentWeights, expectClose, output, portfolioValues, REF } from "./reference.ts";

const series = (values: number[]) => ({ dates: REF.dates.slice(0, values.length), values });
const four = () => [0, 1, 2, 3].map((i) => assetSeries(i));

test("comparison matches numpy to 1e-9: beta, Jensen's alpha, tracking error, information ratio, captures", () => {
  const out = output(comparisonPlugin, {
    series: series(closes(0)), benchmark: series(closes(1)), parameters: { benchmark_asset_id: 2, risk_free_rate: REF.risk_free_rate },
  });
  for (const k of ["beta", "alpha", "correlation", "tracking_error", "information_ratio", "up_capture", "down_capture"]) expectClose(out.metrics[k], REF.comparison[k]);
  expect(out.metrics.observations).toBe(REF.dates.length - 1);
});

describe("portfolio_optimization matches scipy to 1e-6", () => {
  const cases: [string, Record<string, unknown>][] = [
    ["min_risk", { objective: "min_risk" }],
    ["min_risk_bounded", { objective: "min_risk", min_weight: 0.1, max_weight: 0.4 }],
    ["max_sharpe", { objective: "max_sharpe", risk_free_rate: 0.01 }],
    ["max_sharpe_bounded", { objective: "max_sharpe", risk_free_rate: 0.01, min_weight: 0.05, max_weight: 0.6 }],
    ["risk_parity", { objective: "risk_parity" }],
  ];
  for (const [key, parameters] of cases) {
    test(key, () => {
      const out = output(portfolioOptimizationPlugin, { scope: "asset_set", assets: four(), parameters });
      const ref = REF.optimization[key];
      out.weights.forEach((w: any, i: number) => expect(Math.abs(w.weight - ref.weights[i])).toBeLessThan(1e-6));
      expectClose(out.weights.reduce((s: number, w: any) => s + w.weight, 0), 1, 1e-12);
      expectClose(out.volatility, ref.volatility, 1e-6);
      expectClose(out.expected_return, ref.expected_return, 1e-6);
      expectClose(out.sharpe_ratio, ref.sharpe_ratio, 1e-6);
    });
  }

  test("bounds no weights can satisfy → optimization_infeasible", () => {
    const r = compute(portfolioOptimizationPlugin, { scope: "asset_set", assets: four(), parameters: { max_weight: 0.2 } });
    expect(r.error).toMatchObject({ code: "optimization_infeasible" });
    expect(compute(portfolioOptimizationPlugin, { scope: "asset_set", assets: four(), parameters: { min_weight: 0.3 } }).error.code).toBe("optimization_infeasible");
  });

  test("a singular covariance (the same asset twice) → invalid_covariance", () => {
    const twin = { ...assetSeries(0), asset_id: 99, name: "Alpha again" };
    const r = compute(portfolioOptimizationPlugin, { scope: "asset_set", assets: [...four(), twin], parameters: {} });
    expect(r.error).toMatchObject({ code: "invalid_covariance" });
  });

  test("max_sharpe without any positive excess return → optimization_infeasible", () => {
    expect(compute(portfolioOptimizationPlugin, { scope: "asset_set", assets: four(), parameters: { objective: "max_sharpe", risk_free_rate: 0.9 } }).error.code)
      .toBe("optimization_infeasible");
  });
});

describe("simulation reproduces the Python port of the same seeded generator to 1e-6", () => {
  for (const method of ["bootstrap", "gbm"] as const) {
    test(method, () => {
      const ref = REF.simulation[method];
      const out = output(simulationPlugin, { scope: "portfolio", mode: "current_composition", series: series(portfolioValues()), end_value: "1000", parameters: ref.params });
      for (const k of Object.keys(ref.terminal)) expectClose(out.terminal[k], ref.terminal[k], 1e-6);
      expectClose(out.path_percentiles[9].p50, ref.path_p50_day_10, 1e-6);
      expectClose(out.path_percentiles[29].p5, ref.path_p5_day_30, 1e-6);
    });
  }

  test("the same seed gives the same output; another seed another", () => {
    const run = (seed: number) => output(simulationPlugin, { series: series(portfolioValues()), parameters: { seed, paths: 200, horizon_days: 20 } });
    expect(run(3)).toEqual(run(3));
    expect(run(3).terminal.mean).not.toBe(run(4).terminal.mean);
  });

  test("paths × horizon over the limit → resource_limit", () => {
    expect(compute(simulationPlugin, { series: series(portfolioValues()), parameters: { paths: 100_000, horizon_days: 2520 } }).error.code).toBe("resource_limit");
  });
});

describe("stress", () => {
  const assets = () => {
    const w = currentWeights();
    return [
      { ...assetSeries(0, w[0]), asset_type: "STOCK", sectors: { Financials: 0.5, Energy: 0.5 }, geography: { DEU: 1 } },
      { ...assetSeries(1, w[1]), asset_type: "ETF", sectors: null, geography: { USA: 0.6, FRA: 0.4 } },
      { ...assetSeries(2, w[2]), asset_type: "BOND", sectors: { Other: 1 }, geography: null },
      { ...assetSeries(3, w[3]), asset_type: null, sectors: { "Real Estate": 1 }, geography: { USA: 1 } },
    ];
  };
  const context = (scenario: any, extra: Record<string, unknown> = {}) => ({
    scenario, geography_groups: [{ schema_version: 1, id: "european_union", name: { en: "EU" }, members: ["DEU", "FRA"] }], window: null, window_series: {}, ...extra,
  });
  const shock = (dimension: string, bucket_shocks: Record<string, number>) => ({
    schema_version: 1, id: "t", kind: "hypothetical_shock", tags: [], name: { en: "t" }, description: { en: "t" }, allowed_dimensions: [dimension],
    defaults: { dimension, bucket_shocks }, editable: { dimension: false, bucket_shocks: true, manual_overrides: true },
    limits: { minimum_shock: -1, maximum_shock: 1, maximum_buckets: 100 },
  });

  test("asset-class shocks weight each holding's bucket; unmapped classes take OTHER", () => {
    const w = currentWeights();
    const out = output(stressPlugin, {
      scope: "portfolio", mode: "current_composition", assets: assets(), end_value: "1000",
      context: context(shock("asset_class", { STOCK: -0.35, ETF: -0.25, OTHER: -0.1 })), parameters: { scenario_id: "t" },
    });
    const expected = w[0]! * -0.35 + w[1]! * -0.25 + w[2]! * -0.1 + w[3]! * -0.1;
    expectClose(out.portfolio_return, expected, 1e-12);
    expect(out.pnl_amount).toBe((Math.round(expected * 1000 * 100) / 100).toFixed(2));
    expect(out.items.map((i: any) => i.source)).toEqual(["bucket", "bucket", "bucket", "bucket"]);
  });

  test("geography shocks split by country weights and use groups; manual overrides win", () => {
    const w = currentWeights();
    const r = compute(stressPlugin, {
      scope: "portfolio", mode: "current_composition", assets: assets(),
      context: context(shock("geography", { european_union: -0.2, USA: -0.1 })), parameters: { scenario_id: "t", manual_overrides: { "4": 0.05 } },
    });
    const expected = w[0]! * -0.2 + w[1]! * (0.6 * -0.1 + 0.4 * -0.2) + w[2]! * 0 + w[3]! * 0.05;
    expectClose(r.output.portfolio_return, expected, 1e-12);
    expect(r.warnings.map((x: any) => x.code)).toContain("unclassified_asset");
  });

  test("a historical replay uses each holding's window return, a proxy's when it has none, and reports coverage", () => {
    const w = currentWeights();
    const replay = {
      schema_version: 1, id: "r", kind: "historical_replay", tags: [], name: { en: "r" }, description: { en: "r" },
      defaults: { start: REF.dates[10], end: REF.dates[50], missing_history_policy: "manual_proxy_or_exclude", composition_policy: "current_buy_and_hold" },
      editable: { dates: false, missing_history_policy: true, proxies: true, exclusions: true }, limits: { minimum_calendar_days: 1 },
    };
    const win = (i: number) => ({ dates: REF.dates, values: closes(i) });
    const r = compute(stressPlugin, {
      scope: "portfolio", mode: "current_composition", assets: assets(),
      context: context(replay, { window: { start: REF.dates[10], end: REF.dates[50] }, window_series: { "1": win(0), "2": win(1), "9": win(3) } }),
      parameters: { scenario_id: "r", proxies: { "4": 9 } },
    });
    const ret = (i: number) => closes(i)[50]! / closes(i)[10]! - 1;
    const covered = w[0]! + w[1]! + w[3]!;
    expectClose(r.output.portfolio_return, (w[0]! * ret(0) + w[1]! * ret(1) + w[3]! * ret(3)) / covered, 1e-12);
    expectClose(r.output.coverage, covered, 1e-12);
    expect(r.output.items.map((i: any) => i.source)).toEqual(["history", "history", "excluded", "proxy"]);
    expect(r.warnings.map((x: any) => x.code)).toContain("missing_history");
  });
});

test("asset_set_kpi and asset_set_var give one row per asset, each failing alone", () => {
  const short = { ...assetSeries(3), asset_id: 50, values: closes(3).slice(0, 10) };
  const kpi = compute(assetSetKpiPlugin, { scope: "asset_set", assets: [...four(), short], parameters: { risk_free_rate: REF.risk_free_rate } });
  expect(kpi.output.items.length).toBe(5);
  expectClose(kpi.output.items[1].metrics.sharpe_ratio, REF.kpi.Beta.sharpe_ratio);
  expect(kpi.output.items[4]).toMatchObject({ metrics: null, error: { code: "insufficient_history" } });
  expect(kpi.warnings.map((w: any) => w.code)).toContain("asset_rows_failed");
  const v = output(assetSetVarPlugin, { scope: "asset_set", assets: four(), parameters: {} });
  expectClose(v.items[0].var, REF.var.historical_95_1.var);
});
