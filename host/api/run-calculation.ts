import { runTask } from "../workers/pool.ts";
import { type CalculationInput, type CalculationName, type CalculationOutput, REPORT_THREAD_TASKS } from "./tasks.ts";

/**
 * Runs a calculation of the task map on the worker pool, off the request thread (reports on the report
 * thread). `transfer`: buffers of `input` moved to the worker, not copied (detached here afterwards);
 * a task hands its answer's buffers back the same way with `handOver` (host/workers/hand-over.ts).
 */
export async function runCalculation<N extends CalculationName>(
  name: N,
  input: CalculationInput<N>,
  signal?: AbortSignal,
  transfer?: ArrayBuffer[],
): Promise<{ result: CalculationOutput<N>; threadId: number }> {
  const { result, threadId } = await runTask(name, input, { reportThread: REPORT_THREAD_TASKS.has(name), ...(signal ? { signal } : {}), ...(transfer ? { transfer } : {}) });
  return { result: result as CalculationOutput<N>, threadId };
}
