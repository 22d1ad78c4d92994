import { z } from "../../sdk/index.ts";
import { defineRiskTool, minObservationsParam } from "./contract.ts";
import { assetReturns, currentWeights } from "./assets.ts";
import { RiskFreeParam } from "./historical-kpi.ts";
import { finiteOrNull, mean, sampleStd, TRADING_DAYS } from "./stats.ts";

const MIN = 20;

export const RiskReturnRow = z.object({
  asset_id: z.number().int(), name: z.string(), weight: z.number().nullable(), annualized_return: z.number().nullable(),
  annualized_volatility: z.number().nullable(), sharpe_ratio: z.number().nullable(),
});

/** Annualised return (geometric) and volatility of every asset of the scope, for a risk/return scatter. */
export function riskReturnRows(input: { assets: Parameters<typeof assetReturns>[0] }, returns: number[][], riskFree: number) {
  return input.assets.map((a, i) => {
    const r = returns[i]!;
    const vol = sampleStd(r) * Math.sqrt(TRADING_DAYS);
    return {
      asset_id: a.asset_id, name: a.name, weight: a.weight,
      annualized_return: finiteOrNull((a.values.at(-1)! / a.values[0]!) ** (TRADING_DAYS / r.length) - 1),
      annualized_volatility: finiteOrNull(vol),
      sharpe_ratio: vol > 0 ? finiteOrNull((mean(r) * TRADING_DAYS - riskFree) / vol) : null,
    };
  });
}

export const assetRiskReturnPlugin = defineRiskTool({
  id: "asset_risk_return",
  name: "Risk and return per holding",
  description: "Annualised return, volatility and Sharpe ratio of each holding with its current weight",
  outputKind: "risk_return",
  scopes: ["portfolio"],
  modes: ["current_composition"],
  minObservations: MIN,
  parameters: z.object({ risk_free_rate: RiskFreeParam, min_observations: minObservationsParam(MIN) }).strict(),
  output: z.object({ kind: z.literal("risk_return"), items: z.array(RiskReturnRow) }),
  compute(input) {
    currentWeights(input.assets);
    const returns = assetReturns(input.assets, input.parameters.min_observations, 1);
    return { kind: "risk_return" as const, items: riskReturnRows(input, returns, input.parameters.risk_free_rate) };
  },
});
