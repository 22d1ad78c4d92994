import { Decimal, type DecimalString, DecimalStringSchema, toDecimalString, z } from "../../sdk/index.ts";
import { defineRiskTool, fail, minObservationsParam, scopeSeries, seriesReturns } from "./contract.ts";
import { varCvar } from "./metrics.ts";
import { finiteOrNull } from "./stats.ts";

const MIN = 20;

export const VarParameters = z.object({
  confidence_level: z.number().gt(0.5).lt(1).default(0.95).describe("Confidence level c; the loss quantile is at p = 1 − c"),
  horizon_days: z.number().int().min(1).max(252).default(1).describe("Horizon in trading days (overlapping compounded returns)"),
  method: z.enum(["historical", "parametric", "cornish_fisher"]).default("historical")
    .describe("historical simulation, parametric normal, or Cornish-Fisher (skewness and kurtosis adjusted)"),
  min_observations: minObservationsParam(MIN),
}).strict();

export const VarOutput = z.object({
  kind: z.literal("var_cvar"),
  confidence_level: z.number(),
  horizon_days: z.number().int(),
  method: z.string(),
  var: z.number(),
  cvar: z.number(),
  var_amount: DecimalStringSchema.optional(),
  cvar_amount: DecimalStringSchema.optional(),
});

/** Loss amount of a fraction of the scope's value, to the cent. */
export function lossAmount(endValue: string | null, fraction: number): DecimalString | undefined {
  if (endValue === null) return undefined;
  return toDecimalString(new Decimal(endValue).times(new Decimal(fraction)).toDecimalPlaces(2));
}

/** Value at risk and conditional value at risk (expected shortfall) as positive loss fractions. */
export const historicalVarPlugin = defineRiskTool({
  id: "historical_var",
  name: "Value at risk",
  description: "VaR and CVaR by historical simulation, parametric normal or Cornish-Fisher, as loss fractions and amounts",
  outputKind: "var_cvar",
  scopes: ["asset", "portfolio"],
  modes: ["historical", "current_composition"],
  minObservations: MIN,
  parameters: VarParameters,
  output: VarOutput,
  compute(input) {
    const s = scopeSeries(input);
    const p = input.parameters;
    const returns = seriesReturns(s.values, p.min_observations);
    const r = varCvar(returns, p.confidence_level, p.horizon_days, p.method);
    const v = finiteOrNull(r.var) ?? fail("undefined_metric", "VaR is undefined for this series");
    const c = finiteOrNull(r.cvar) ?? fail("undefined_metric", "CVaR is undefined for this series");
    return {
      kind: "var_cvar" as const, confidence_level: p.confidence_level, horizon_days: p.horizon_days, method: p.method, var: v, cvar: c,
      var_amount: lossAmount(input.end_value, v), cvar_amount: lossAmount(input.end_value, c),
    };
  },
});
