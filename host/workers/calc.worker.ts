import { threadId } from "node:worker_threads";
import { brimDuplicates, brimDuplicatesBody, brimInspect, brimParse, brimPreview } from "./brim-parse.task.ts";
import { portfolioReport } from "./portfolio-report.task.ts";
import { toolCompute } from "./tool.task.ts";
import { wacSeries } from "../../core/portfolio/wac-series.calc.ts";
import { analyseLots } from "../../core/portfolio/fifo-lots.calc.ts";
import { riskAnalytic, riskData, riskEligibility } from "./risk.task.ts";
import { riskWarmUp } from "./risk-warm-up.task.ts";
import { reportWarmUp } from "./report-warm-up.task.ts";
import { computeSignals } from "../../core/signals/signals.calc.ts";

/**
 * The worker side of the pool: pure calculations looked up by name. Messages carry strings and
 * plain objects only (structured cloning drops Decimal prototypes).
 */
const CALCULATIONS = {
  brimDuplicates,
  brimDuplicatesBody,
  brimInspect,
  brimParse,
  brimPreview,
  computeSignals,
  lotsAnalysis: analyseLots,
  portfolioReport,
  reportWarmUp,
  riskAnalytic,
  riskData,
  riskEligibility,
  riskWarmUp,
  toolCompute,
  wacSeries,
} as const;

export type CalculationName = keyof typeof CALCULATIONS;
export type CalculationInput<N extends CalculationName> = Parameters<(typeof CALCULATIONS)[N]>[0];
export type CalculationOutput<N extends CalculationName> = Awaited<ReturnType<(typeof CALCULATIONS)[N]>>;

export interface CalculationTask {
  input: unknown;
  name: string;
}

/** Runs one calculation; an async one (an import plugin's parse) answers once it settles. */
export default function run(task: CalculationTask): { result: unknown; threadId: number } | Promise<{ result: unknown; threadId: number }> {
  const calc = (CALCULATIONS as Record<string, (input: any) => unknown>)[task.name];
  if (!calc) throw new Error(`Unknown calculation '${task.name}'`);
  const result = calc(task.input);
  return result instanceof Promise ? result.then((value) => ({ result: value, threadId })) : { result, threadId };
}
