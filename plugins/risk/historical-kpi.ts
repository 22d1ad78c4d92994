import { z } from "../../sdk/index.ts";
import { defineRiskTool, minObservationsParam, scopeSeries, seriesReturns } from "./contract.ts";
import { kpi } from "./metrics.ts";

const MIN = 20;

export const KpiMetrics = z.object({
  annualized_return: z.number().nullable(),
  annualized_volatility: z.number().nullable(),
  sharpe_ratio: z.number().nullable(),
  sortino_ratio: z.number().nullable(),
  max_drawdown: z.number(),
  max_drawdown_duration_days: z.number().int(),
  observations: z.number().int(),
});

export const RiskFreeParam = z.number().min(-1).max(1).default(0).describe("Annual risk-free rate as a fraction (0.02 = 2 %)");

/** Annualised return and volatility, Sharpe, Sortino and the deepest drawdown of the scope's value series. */
export const historicalKpiPlugin = defineRiskTool({
  id: "historical_kpi",
  name: "Historical KPIs",
  description: "Annualised return and volatility, Sharpe and Sortino ratios, maximum drawdown and its duration",
  outputKind: "kpi",
  scopes: ["asset", "portfolio"],
  modes: ["historical", "current_composition"],
  minObservations: MIN,
  parameters: z.object({ risk_free_rate: RiskFreeParam, min_observations: minObservationsParam(MIN) }).strict(),
  output: z.object({ kind: z.literal("kpi"), metrics: KpiMetrics }),
  compute(input, warnings) {
    const s = scopeSeries(input);
    const returns = seriesReturns(s.values, input.parameters.min_observations);
    return { kind: "kpi" as const, metrics: kpi(s.dates, s.values, returns, input.parameters.risk_free_rate, warnings) };
  },
});
