import { z } from "../../sdk/index.ts";
import { defineRiskTool, fail, minObservationsParam } from "./contract.ts";
import { assetReturns, currentWeights } from "./assets.ts";
import { covarianceMatrix, TRADING_DAYS } from "./stats.ts";

const MIN = 20;

/**
 * Euler decomposition of the annualised portfolio volatility σ = √(wᵀΣw): marginal contribution
 * (Σw)ᵢ / σ, contribution wᵢ(Σw)ᵢ / σ (they sum to σ), and its share of σ.
 */
export const riskContributionPlugin = defineRiskTool({
  id: "risk_contribution",
  name: "Risk contribution",
  description: "Each holding's contribution to the portfolio's annualised volatility (Euler decomposition)",
  outputKind: "contribution",
  scopes: ["portfolio"],
  modes: ["current_composition"],
  minObservations: MIN,
  parameters: z.object({ min_observations: minObservationsParam(MIN) }).strict(),
  output: z.object({
    kind: z.literal("contribution"),
    portfolio_volatility: z.number(),
    items: z.array(z.object({
      asset_id: z.number().int(), name: z.string(), weight: z.number(), marginal_contribution: z.number(), contribution: z.number(),
      contribution_share: z.number(),
    })),
  }),
  compute(input) {
    const weights = currentWeights(input.assets);
    const returns = assetReturns(input.assets, input.parameters.min_observations, 1);
    const cov = covarianceMatrix(returns).map((row) => row.map((x) => x * TRADING_DAYS));
    const sw = cov.map((row) => row.reduce((s, x, j) => s + x * weights[j]!, 0));
    const variance = sw.reduce((s, x, i) => s + x * weights[i]!, 0);
    if (!(variance > 0)) fail("undefined_metric", "The portfolio's returns have zero volatility: contributions are undefined");
    const sigma = Math.sqrt(variance);
    return {
      kind: "contribution" as const,
      portfolio_volatility: sigma,
      items: input.assets.map((a, i) => ({
        asset_id: a.asset_id, name: a.name, weight: weights[i]!, marginal_contribution: sw[i]! / sigma,
        contribution: (weights[i]! * sw[i]!) / sigma, contribution_share: (weights[i]! * sw[i]!) / variance,
      })),
    };
  },
});
