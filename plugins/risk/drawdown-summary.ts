import { z } from "../../sdk/index.ts";
import { defineRiskTool, minObservationsParam, scopeSeries, seriesReturns } from "./contract.ts";
import { drawdown } from "./metrics.ts";

const MIN = 2;

export const Episode = z.object({
  peak_date: z.string(), trough_date: z.string(), recovery_date: z.string().nullable(), depth: z.number(), duration_days: z.number().int(),
});

/** The deepest drawdown and every drawdown episode (peak, trough, recovery) of the value series. */
export const drawdownSummaryPlugin = defineRiskTool({
  id: "drawdown_summary",
  name: "Drawdowns",
  description: "Maximum drawdown with its peak, trough and recovery dates, and the deepest drawdown episodes",
  outputKind: "drawdown",
  scopes: ["asset", "portfolio"],
  // The reference lists historical only; today's holdings held over the period have drawdowns too (docs/risk.md).
  modes: ["historical", "current_composition"],
  minObservations: MIN,
  parameters: z.object({
    max_episodes: z.number().int().min(1).max(500).default(10).describe("How many of the deepest episodes to list (by date)"),
    min_observations: minObservationsParam(MIN),
  }).strict(),
  output: z.object({
    kind: z.literal("drawdown"), max_drawdown: z.number(), peak_date: z.string().nullable(), trough_date: z.string().nullable(),
    recovery_date: z.string().nullable(), episodes: z.array(Episode),
  }),
  compute(input) {
    const s = scopeSeries(input);
    seriesReturns(s.values, input.parameters.min_observations);
    const d = drawdown(s.dates, s.values);
    const deepest = new Set([...d.episodes].sort((a, b) => a.depth - b.depth).slice(0, input.parameters.max_episodes));
    return {
      kind: "drawdown" as const, max_drawdown: d.max_drawdown, peak_date: d.peak_date, trough_date: d.trough_date,
      recovery_date: d.recovery_date, episodes: d.episodes.filter((e) => deepest.has(e)),
    };
  },
});
