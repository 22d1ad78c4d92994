import { runTask } from "../workers/pool.ts";
import { type CalculationInput, type CalculationName, type CalculationOutput, REPORT_THREAD_TASKS } from "./tasks.ts";

/** Runs a calculation of the task map on the worker pool, off the request thread (reports on the report thread). */
export async function runCalculation<N extends CalculationName>(
  name: N,
  input: CalculationInput<N>,
  signal?: AbortSignal,
): Promise<{ result: CalculationOutput<N>; threadId: number }> {
  const { result, threadId } = await runTask(name, input, { reportThread: REPORT_THREAD_TASKS.has(name), ...(signal ? { signal } : {}) });
  return { result: result as CalculationOutput<N>, threadId };
}
