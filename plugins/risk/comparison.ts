import { z } from "../../sdk/index.ts";
import { defineRiskTool, fail, minObservationsParam, type Series } from "./contract.ts";
import { RiskFreeParam } from "./historical-kpi.ts";
import { finiteOrNull, mean, pearson, sampleCovariance, sampleStd, sampleVariance, TRADING_DAYS } from "./stats.ts";

const MIN = 20;

export const ComparisonParameters = z.object({
  benchmark_asset_id: z.number().int().positive().describe("The benchmark asset (priced in the target currency)"),
  risk_free_rate: RiskFreeParam,
  min_observations: minObservationsParam(MIN),
}).strict();

export const ComparisonMetrics = z.object({
  beta: z.number().nullable(), alpha: z.number().nullable(), correlation: z.number().nullable(), tracking_error: z.number().nullable(),
  information_ratio: z.number().nullable(), up_capture: z.number().nullable(), down_capture: z.number().nullable(),
  annualized_return: z.number().nullable(), benchmark_annualized_return: z.number().nullable(), observations: z.number().int(),
});
export type ComparisonMetrics = z.output<typeof ComparisonMetrics>;

/**
 * Scope against benchmark on their common dates (returns between consecutive common dates):
 * β = cov(r, b) / var(b); α = (mean(r) − rf_d − β(mean(b) − rf_d)) × 252 (Jensen, annualised);
 * tracking error = stdev(r − b) √252; information ratio = mean(r − b) × 252 / tracking error;
 * up (down) capture = mean(r) / mean(b) over the days the benchmark rose (fell).
 */
export function compare(series: Series, benchmark: Series, riskFree: number, minObservations: number): ComparisonMetrics {
  const bench = new Map(benchmark.dates.map((d, i) => [d, benchmark.values[i]!]));
  const a: number[] = [];
  const b: number[] = [];
  series.dates.forEach((d, i) => {
    const v = bench.get(d);
    if (v !== undefined && v > 0 && series.values[i]! > 0) { a.push(series.values[i]!); b.push(v); }
  });
  const n = a.length - 1;
  if (n < minObservations) fail("insufficient_history", `${Math.max(n, 0)} common return observations with the benchmark, at least ${minObservations} needed`, { observations: Math.max(n, 0), min_observations: minObservations });
  const r = a.slice(1).map((v, i) => v / a[i]! - 1);
  const rb = b.slice(1).map((v, i) => v / b[i]! - 1);
  const rfd = riskFree / TRADING_DAYS;
  const varB = sampleVariance(rb);
  const beta = varB > 0 ? sampleCovariance(r, rb) / varB : Number.NaN;
  const active = r.map((x, i) => x - rb[i]!);
  const te = sampleStd(active) * Math.sqrt(TRADING_DAYS);
  const capture = (pick: (x: number) => boolean) => {
    const idx = rb.map((x, i) => (pick(x) ? i : -1)).filter((i) => i >= 0);
    if (idx.length === 0) return Number.NaN;
    return mean(idx.map((i) => r[i]!)) / mean(idx.map((i) => rb[i]!));
  };
  return {
    beta: finiteOrNull(beta),
    alpha: finiteOrNull((mean(r) - rfd - beta * (mean(rb) - rfd)) * TRADING_DAYS),
    correlation: finiteOrNull(pearson(r, rb)),
    tracking_error: finiteOrNull(te),
    information_ratio: te > 0 ? finiteOrNull((mean(active) * TRADING_DAYS) / te) : null,
    up_capture: finiteOrNull(capture((x) => x > 0)),
    down_capture: finiteOrNull(capture((x) => x < 0)),
    annualized_return: finiteOrNull((a.at(-1)! / a[0]!) ** (TRADING_DAYS / n) - 1),
    benchmark_annualized_return: finiteOrNull((b.at(-1)! / b[0]!) ** (TRADING_DAYS / n) - 1),
    observations: n,
  };
}

export const comparisonPlugin = defineRiskTool({
  id: "comparison",
  name: "Benchmark comparison",
  description: "Beta, Jensen's alpha, correlation, tracking error, information ratio and up/down capture against a benchmark asset",
  outputKind: "comparison",
  scopes: ["asset", "portfolio"],
  modes: ["historical", "current_composition"],
  minObservations: MIN,
  parameters: ComparisonParameters,
  output: z.object({ kind: z.literal("comparison"), benchmark_asset_id: z.number().int(), metrics: ComparisonMetrics }),
  compute(input, warnings) {
    const s = input.series ?? fail("incompatible_scope", "This analytic needs a single value series");
    const b = input.benchmark ?? fail("data_unavailable", "The benchmark has no prices in the period");
    const metrics = compare(s, b, input.parameters.risk_free_rate, input.parameters.min_observations);
    for (const [k, v] of Object.entries(metrics)) if (v === null) warnings.push({ code: "undefined_metric", message: `${k} is undefined for these series`, details: { metric: k }, degrades_result: true });
    return { kind: "comparison" as const, benchmark_asset_id: input.parameters.benchmark_asset_id, metrics };
  },
});
