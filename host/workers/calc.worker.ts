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

let collection: ReturnType<typeof setTimeout> | undefined;
/** Idle time after a task before its garbage is collected (a task arriving sooner cancels it). */
const COLLECT_AFTER_MS = 25;

/**
 * Collects a task's garbage once its answer is posted and the thread stayed idle briefly: without
 * it the thread's heap grew by a task's worth of garbage per task before JSC collected (three
 * incremental reports after a commit and three after a price took the dense-20k process from 310
 * to 374 MB; a 50,000-row import parse left its rows behind). The collection (~15–25 ms of this
 * thread) never runs inside a task: the next task cancels a pending one (docs/decisions.md,
 * issue 18 memory). Threads idle in their event loop for this (host/workers/pool.ts).
 */
function collectWhenIdle(): void {
  clearTimeout(collection);
  collection = setTimeout(() => Bun.gc(true), COLLECT_AFTER_MS);
}

/** Runs one calculation; an async one (an import plugin's parse) answers once it settles. */
export default function run(task: CalculationTask): { result: unknown; threadId: number } | Promise<{ result: unknown; threadId: number }> {
  clearTimeout(collection);
  const calc = (CALCULATIONS as Record<string, (input: any) => unknown>)[task.name];
  if (!calc) throw new Error(`Unknown calculation '${task.name}'`);
  let result: unknown;
  try {
    result = calc(task.input);
  } finally {
    if (!(result instanceof Promise)) collectWhenIdle();
  }
  return result instanceof Promise ? result.then((value) => ({ result: value, threadId })).finally(collectWhenIdle) : { result, threadId };
}
