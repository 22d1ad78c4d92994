import { threadId } from "node:worker_threads";
import { portfolioReport } from "./portfolio-report.task.ts";
import { wacSeries } from "../../core/portfolio/wac-series.calc.ts";
import { analyseLots } from "../../core/portfolio/fifo-lots.calc.ts";

/**
 * The worker side of the pool: pure calculations looked up by name. Messages carry strings and
 * plain objects only (structured cloning drops Decimal prototypes).
 */
const CALCULATIONS = {
  lotsAnalysis: analyseLots,
  portfolioReport,
  wacSeries,
} as const;

export type CalculationName = keyof typeof CALCULATIONS;
export type CalculationInput<N extends CalculationName> = Parameters<(typeof CALCULATIONS)[N]>[0];
export type CalculationOutput<N extends CalculationName> = ReturnType<(typeof CALCULATIONS)[N]>;

export interface CalculationTask {
  input: unknown;
  name: string;
}

export default function run(task: CalculationTask): { result: unknown; threadId: number } {
  const calc = (CALCULATIONS as Record<string, (input: any) => unknown>)[task.name];
  if (!calc) throw new Error(`Unknown calculation '${task.name}'`);
  return { result: calc(task.input), threadId };
}
