import { describe, expect, test } from "bun:test";
import { runRiskToolContract } from "../../../sdk/testing/index.ts";
import { assetRiskReturnPlugin } from "../../../plugins/risk/asset-risk-return.ts";
import { correlationPlugin } from "../../../plugins/risk/correlation.ts";
import { drawdownSummaryPlugin } from "../../../plugins/risk/drawdown-summary.ts";
import { historicalKpiPlugin } from "../../../plugins/risk/historical-kpi.ts";
import { historicalVarPlugin } from "../../../plugins/risk/historical-var.ts";
import { riskPlugins } from "../../../plugins/risk/index.ts";
import { riskContributionPlugin } from "../../../plugins/risk/risk-contribution.ts";
import { assetSeries, closes, compute, currentWeights, expectClose, output, portfolioValues, REF } from "./reference.ts";

const series = (values: number[]) => ({ dates: REF.dates.slice(0, values.length), values });
const KPI_KEYS = ["annualized_return", "annualized_volatility", "sharpe_ratio", "sortino_ratio", "max_drawdown"] as const;

/** Inputs a sample run of some analytics needs besides the common ones. */
const SAMPLE_EXTRA: Record<string, Record<string, unknown>> = {
  comparison: { benchmark: series(closes(1)), parameters: { benchmark_asset_id: 2 } },
  asset_set_comparison: { benchmark: series(closes(1)), parameters: { benchmark_asset_id: 2 } },
  stress: {
    parameters: { scenario_id: "equity_crash" },
    context: {
      scenario: {
        schema_version: 1, id: "equity_crash", kind: "hypothetical_shock", tags: [], name: { en: "Equity crash" }, description: { en: "x" },
        allowed_dimensions: ["asset_class"], defaults: { dimension: "asset_class", bucket_shocks: { STOCK: -0.35, OTHER: 0 } },
        editable: { dimension: false, bucket_shocks: true, manual_overrides: true }, limits: { minimum_shock: -1, maximum_shock: 1, maximum_buckets: 100 },
      },
      geography_groups: [], window: null, window_series: {},
    },
  },
};

for (const plugin of riskPlugins) {
  runRiskToolContract(plugin, {
    sampleInput: {
      scope: "portfolio", mode: "current_composition", currency: "EUR", end_value: "1000", series: series(portfolioValues()),
      asset_dates: REF.dates, assets: [0, 1, 2, 3].map((i) => assetSeries(i, currentWeights()[i])), benchmark: null, parameters: {},
      ...SAMPLE_EXTRA[plugin.manifest.id],
    },
  });
}

describe("historical_kpi matches the numpy reference to 1e-9", () => {
  for (const [i, name] of ["Alpha", "Beta", "Gamma", "Delta"].entries()) {
    test(`asset ${name}`, () => {
      const out = output(historicalKpiPlugin, { series: series(closes(i)), parameters: { risk_free_rate: REF.risk_free_rate } });
      for (const k of KPI_KEYS) expectClose(out.metrics[k], REF.kpi[name][k]);
      expect(out.metrics.observations).toBe(REF.kpi[name].observations);
      expect(out.metrics.max_drawdown_duration_days).toBe(REF.kpi[name].max_drawdown_duration_days);
    });
  }
  test("today's holdings held over the period", () => {
    const out = output(historicalKpiPlugin, { scope: "portfolio", series: series(portfolioValues()), parameters: { risk_free_rate: REF.risk_free_rate } });
    for (const k of KPI_KEYS) expectClose(out.metrics[k], REF.kpi_portfolio[k]);
  });
});

describe("historical_var matches the numpy/scipy reference to 1e-9", () => {
  const cases: [string, Record<string, unknown>, number[]][] = [
    ["historical_95_1", { method: "historical", confidence_level: 0.95, horizon_days: 1 }, closes(0)],
    ["historical_99_5", { method: "historical", confidence_level: 0.99, horizon_days: 5 }, closes(0)],
    ["parametric_99_1", { method: "parametric", confidence_level: 0.99, horizon_days: 1 }, closes(0)],
    ["parametric_95_10", { method: "parametric", confidence_level: 0.95, horizon_days: 10 }, closes(0)],
    ["cornish_fisher_95_1", { method: "cornish_fisher", confidence_level: 0.95, horizon_days: 1 }, closes(0)],
    ["portfolio_historical_95_1", {}, portfolioValues()],
  ];
  for (const [key, parameters, values] of cases) {
    test(key, () => {
      const out = output(historicalVarPlugin, { series: series(values), parameters, end_value: "1000" });
      expectClose(out.var, REF.var[key].var);
      expectClose(out.cvar, REF.var[key].cvar);
      expect(out.var_amount).toBe((Math.round(REF.var[key].var * 1000 * 100) / 100).toString());
    });
  }
});

test("drawdown_summary lists the pandas reference's episodes", () => {
  const out = output(drawdownSummaryPlugin, { series: series(closes(1)), parameters: { max_episodes: 500 } });
  expect(out.episodes.length).toBe(REF.drawdown_beta.length);
  out.episodes.forEach((e: any, i: number) => {
    const r = REF.drawdown_beta[i];
    expect([e.peak_date, e.trough_date, e.recovery_date, e.duration_days]).toEqual([r.peak_date, r.trough_date, r.recovery_date, r.duration_days]);
    expectClose(e.depth, r.depth);
  });
  const deepest = REF.drawdown_beta.reduce((m: any, e: any) => (e.depth < m.depth ? e : m));
  expect([out.peak_date, out.trough_date, out.recovery_date]).toEqual([deepest.peak_date, deepest.trough_date, deepest.recovery_date]);
});

test("correlation matches numpy.corrcoef to 1e-9", () => {
  const out = output(correlationPlugin, { scope: "asset_set", assets: [0, 1, 2, 3].map((i) => assetSeries(i)) });
  expect(out.labels).toEqual(["Alpha", "Beta", "Gamma", "Delta"]);
  for (let i = 0; i < 4; i++) for (let j = 0; j < 4; j++) expectClose(out.values[i][j], REF.correlation[i][j]);
});

test("risk_contribution matches the Euler decomposition in numpy to 1e-9, and sums to the volatility", () => {
  const w = currentWeights();
  const out = output(riskContributionPlugin, { scope: "portfolio", mode: "current_composition", assets: [0, 1, 2, 3].map((i) => assetSeries(i, w[i])) });
  expectClose(out.portfolio_volatility, REF.contribution.portfolio_volatility);
  out.items.forEach((it: any, i: number) => {
    expectClose(it.weight, REF.contribution.weights[i]);
    expectClose(it.marginal_contribution, REF.contribution.marginal[i]);
    expectClose(it.contribution, REF.contribution.contribution[i]);
  });
  expectClose(out.items.reduce((s: number, it: any) => s + it.contribution_share, 0), 1);
});

test("asset_risk_return gives each holding's KPIs as historical_kpi does", () => {
  const w = currentWeights();
  const out = output(assetRiskReturnPlugin, {
    scope: "portfolio", mode: "current_composition", assets: [0, 1, 2, 3].map((i) => assetSeries(i, w[i])), parameters: { risk_free_rate: REF.risk_free_rate },
  });
  out.items.forEach((it: any, i: number) => {
    const name = REF.assets[i].name;
    expectClose(it.annualized_return, REF.kpi[name].annualized_return);
    expectClose(it.annualized_volatility, REF.kpi[name].annualized_volatility);
    expectClose(it.sharpe_ratio, REF.kpi[name].sharpe_ratio);
  });
});

describe("edge cases", () => {
  test("fewer observations than min_observations → insufficient_history", () => {
    expect(compute(historicalKpiPlugin, { series: series(closes(0).slice(0, 20)) }).output).toBeNull();
    const tool = historicalKpiPlugin.create({} as never) as any;
    const r = tool.compute(tool.inputSchema.parse({ ...baseInput(), series: series(closes(0).slice(0, 20)) }));
    expect(r.error).toMatchObject({ code: "insufficient_history", details: { observations: 19, min_observations: 20 } });
    const raised = tool.compute(tool.inputSchema.parse({ ...baseInput(), series: series(closes(0).slice(0, 40)), parameters: { min_observations: 50 } }));
    expect(raised.error.code).toBe("insufficient_history");
  });

  test("a flat series has an undefined Sharpe ratio (null with undefined_metric), never Infinity or NaN", () => {
    const flat = series(new Array(30).fill(100));
    const out = compute(historicalKpiPlugin, { series: flat, parameters: { risk_free_rate: 0.02 } });
    expect(out.output.metrics.sharpe_ratio).toBeNull();
    expect(out.output.metrics.annualized_volatility).toBe(0);
    expect(out.warnings.map((w: any) => w.code)).toContain("undefined_metric");
    const cf = compute(historicalVarPlugin, { series: flat, parameters: { method: "cornish_fisher" } });
    expect(cf.error.code).toBe("undefined_metric");
  });

  test("min_observations below the analytic's floor is refused by its schema", () => {
    const tool = historicalKpiPlugin.create({} as never) as any;
    expect(() => tool.inputSchema.parse({ ...baseInput(), parameters: { min_observations: 3 } })).toThrow();
  });
});

function baseInput() {
  return { scope: "asset", mode: "historical", currency: "EUR", end_value: null, series: null, asset_dates: [], assets: [], benchmark: null, parameters: {} };
}
