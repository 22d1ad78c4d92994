import { z } from "../../sdk/index.ts";
import { defineRiskTool, minObservationsParam, warning } from "./contract.ts";
import { assetReturns } from "./assets.ts";
import { correlationMatrix, finiteOrNull } from "./stats.ts";

const MIN = 20;

/** Pearson correlation of aligned daily returns of every pair of assets in the scope. */
export const correlationPlugin = defineRiskTool({
  id: "correlation",
  name: "Correlation matrix",
  description: "Pearson correlation of the aligned daily returns of every pair of assets",
  outputKind: "matrix",
  scopes: ["asset_set", "portfolio"],
  modes: ["historical", "current_composition"],
  minObservations: MIN,
  parameters: z.object({ min_observations: minObservationsParam(MIN) }).strict(),
  output: z.object({
    kind: z.literal("matrix"), labels: z.array(z.string()), asset_ids: z.array(z.number().int()),
    values: z.array(z.array(z.number().nullable())), observations: z.number().int(),
  }),
  compute(input, warnings) {
    const returns = assetReturns(input.assets, input.parameters.min_observations, 1);
    const matrix = correlationMatrix(returns);
    const values = matrix.map((row, i) => row.map((x, j) => (i === j ? (Number.isNaN(x) ? null : 1) : finiteOrNull(x))));
    const flat = input.assets.filter((_, i) => values[i]![i] === null).map((a) => a.asset_id);
    if (flat.length > 0) {
      warnings.push(warning("undefined_metric", "Correlation is undefined for assets whose returns never move", { asset_ids: flat }));
    }
    return {
      kind: "matrix" as const, labels: input.assets.map((a) => a.name), asset_ids: input.assets.map((a) => a.asset_id), values,
      observations: returns[0]?.length ?? 0,
    };
  },
});
