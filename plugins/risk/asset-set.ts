/**
 * The `asset_set_*` analytics: the single-series analytics run on each asset of an asset set, one row
 * per asset with its own error when that asset cannot be computed.
 */
import { z } from "../../sdk/index.ts";
import { type AssetSeries, defineRiskTool, fail, minObservationsParam, RiskFailure, type RiskWarning, seriesReturns } from "./contract.ts";
import { compare, ComparisonMetrics, ComparisonParameters } from "./comparison.ts";
import { Episode } from "./drawdown-summary.ts";
import { KpiMetrics, RiskFreeParam } from "./historical-kpi.ts";
import { VarParameters } from "./historical-var.ts";
import { drawdown, kpi, varCvar } from "./metrics.ts";
import { finiteOrNull, mean, sampleStd, TRADING_DAYS } from "./stats.ts";

const RowError = z.object({ code: z.string(), message: z.string() }).nullable();

function perAsset<T>(assets: readonly AssetSeries[], dates: readonly string[], f: (a: AssetSeries, dates: readonly string[]) => T) {
  if (assets.length === 0) fail("data_unavailable", "No asset of the set has prices in the period");
  return assets.map((a) => {
    try {
      return { asset_id: a.asset_id, name: a.name, result: f(a, dates), error: null };
    } catch (e) {
      if (!(e instanceof RiskFailure)) throw e;
      return { asset_id: a.asset_id, name: a.name, result: null, error: { code: e.code, message: e.message } };
    }
  });
}

function flagRows(rows: { error: unknown }[], warnings: RiskWarning[]) {
  const failed = rows.filter((r) => r.error !== null).length;
  if (failed > 0) warnings.push({ code: "asset_rows_failed", message: `${failed} asset(s) could not be computed`, details: { count: failed }, degrades_result: true });
}

const common = { scopes: ["asset_set" as const], modes: ["historical" as const] };

export const assetSetKpiPlugin = defineRiskTool({
  ...common, id: "asset_set_kpi", name: "KPIs per asset", description: "historical_kpi for every asset of the set", outputKind: "kpi_set", minObservations: 20,
  parameters: z.object({ risk_free_rate: RiskFreeParam, min_observations: minObservationsParam(20) }).strict(),
  output: z.object({ kind: z.literal("kpi_set"), items: z.array(z.object({ asset_id: z.number().int(), name: z.string(), metrics: KpiMetrics.nullable(), error: RowError })) }),
  compute(input, warnings) {
    const rows = perAsset(input.assets, input.asset_dates, (a, dates) => kpi(dates, a.values, seriesReturns(a.values, input.parameters.min_observations), input.parameters.risk_free_rate, []));
    flagRows(rows, warnings);
    return { kind: "kpi_set" as const, items: rows.map((r) => ({ asset_id: r.asset_id, name: r.name, metrics: r.result, error: r.error })) };
  },
});

export const assetSetVarPlugin = defineRiskTool({
  ...common, id: "asset_set_var", name: "VaR per asset", description: "historical_var for every asset of the set", outputKind: "var_cvar_set", minObservations: 20,
  parameters: VarParameters,
  output: z.object({
    kind: z.literal("var_cvar_set"), confidence_level: z.number(), horizon_days: z.number().int(), method: z.string(),
    items: z.array(z.object({ asset_id: z.number().int(), name: z.string(), var: z.number().nullable(), cvar: z.number().nullable(), error: RowError })),
  }),
  compute(input, warnings) {
    const p = input.parameters;
    const rows = perAsset(input.assets, input.asset_dates, (a) => varCvar(seriesReturns(a.values, p.min_observations), p.confidence_level, p.horizon_days, p.method));
    flagRows(rows, warnings);
    return {
      kind: "var_cvar_set" as const, confidence_level: p.confidence_level, horizon_days: p.horizon_days, method: p.method,
      items: rows.map((r) => ({ asset_id: r.asset_id, name: r.name, var: r.result ? finiteOrNull(r.result.var) : null, cvar: r.result ? finiteOrNull(r.result.cvar) : null, error: r.error })),
    };
  },
});

export const assetSetDrawdownPlugin = defineRiskTool({
  ...common, id: "asset_set_drawdown", name: "Drawdowns per asset", description: "drawdown_summary for every asset of the set", outputKind: "drawdown_set",
  minObservations: 2,
  parameters: z.object({ min_observations: minObservationsParam(2) }).strict(),
  output: z.object({
    kind: z.literal("drawdown_set"),
    items: z.array(z.object({ asset_id: z.number().int(), name: z.string(), max_drawdown: z.number().nullable(), worst: Episode.nullable(), error: RowError })),
  }),
  compute(input, warnings) {
    const rows = perAsset(input.assets, input.asset_dates, (a, dates) => {
      seriesReturns(a.values, input.parameters.min_observations);
      const d = drawdown(dates, a.values);
      return { max: d.max_drawdown, worst: d.episodes.find((e) => e.depth === d.max_drawdown && e.peak_date === d.peak_date) ?? null };
    });
    flagRows(rows, warnings);
    return { kind: "drawdown_set" as const, items: rows.map((r) => ({ asset_id: r.asset_id, name: r.name, max_drawdown: r.result?.max ?? null, worst: r.result?.worst ?? null, error: r.error })) };
  },
});

export const assetSetRiskReturnPlugin = defineRiskTool({
  ...common, id: "asset_set_risk_return", name: "Risk and return per asset", description: "Annualised return, volatility and Sharpe ratio of every asset of the set",
  outputKind: "risk_return_set", minObservations: 20,
  parameters: z.object({ risk_free_rate: RiskFreeParam, min_observations: minObservationsParam(20) }).strict(),
  output: z.object({
    kind: z.literal("risk_return_set"),
    items: z.array(z.object({
      asset_id: z.number().int(), name: z.string(), annualized_return: z.number().nullable(), annualized_volatility: z.number().nullable(),
      sharpe_ratio: z.number().nullable(), error: RowError,
    })),
  }),
  compute(input, warnings) {
    const rf = input.parameters.risk_free_rate;
    const rows = perAsset(input.assets, input.asset_dates, (a) => {
      const r = seriesReturns(a.values, input.parameters.min_observations);
      const vol = sampleStd(r) * Math.sqrt(TRADING_DAYS);
      return {
        annualized_return: finiteOrNull((a.values.at(-1)! / a.values[0]!) ** (TRADING_DAYS / r.length) - 1), annualized_volatility: finiteOrNull(vol),
        sharpe_ratio: vol > 0 ? finiteOrNull((mean(r) * TRADING_DAYS - rf) / vol) : null,
      };
    });
    flagRows(rows, warnings);
    return {
      kind: "risk_return_set" as const,
      items: rows.map((r) => ({ asset_id: r.asset_id, name: r.name, annualized_return: null, annualized_volatility: null, sharpe_ratio: null, ...r.result, error: r.error })),
    };
  },
});

export const assetSetComparisonPlugin = defineRiskTool({
  ...common, id: "asset_set_comparison", name: "Benchmark comparison per asset", description: "comparison for every asset of the set against one benchmark",
  outputKind: "comparison_set", minObservations: 20, parameters: ComparisonParameters,
  output: z.object({
    kind: z.literal("comparison_set"), benchmark_asset_id: z.number().int(),
    items: z.array(z.object({ asset_id: z.number().int(), name: z.string(), metrics: ComparisonMetrics.nullable(), error: RowError })),
  }),
  compute(input, warnings) {
    const b = input.benchmark ?? fail("data_unavailable", "The benchmark has no prices in the period");
    const p = input.parameters;
    const rows = perAsset(input.assets, input.asset_dates, (a, dates) => compare({ dates: [...dates], values: a.values }, b, p.risk_free_rate, p.min_observations));
    flagRows(rows, warnings);
    return { kind: "comparison_set" as const, benchmark_asset_id: p.benchmark_asset_id, items: rows.map((r) => ({ asset_id: r.asset_id, name: r.name, metrics: r.result, error: r.error })) };
  },
});
