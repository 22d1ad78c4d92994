import { type CalculationTool, isPluginError } from "../../../sdk/index.ts";
import { workerPluginInstance } from "../../plugins/instance.ts";

/** Which tool to run: a built-in by id, or an external plugin by its entry file (from the registry). */
export interface ToolTask {
  config: unknown;
  entry: string | null;
  id: string;
  /** Input already validated by the tool's input schema on the request thread. */
  input: unknown;
}

/** What the worker hands back: the output serialised (its size is checked on the request side), or why not. */
export type ToolTaskResult =
  | { ok: true; json: string; computeMs: number }
  | { ok: false; code: "execution_failed" | "execution_limit" | "invalid_parameters" | "invalid_output"; message: string };

/** The tool's instance, made once per worker thread by the one in-worker loader (pure: no network, silent). */
async function instance(task: ToolTask): Promise<CalculationTool> {
  return workerPluginInstance("calculation-tool", { id: task.id, path: task.entry, config: task.config });
}

/** Thrown in place of process.exit so the pool sees a crashed worker rather than a silent hang. */
class WorkerExit extends Error {}

/**
 * Worker side of `POST /tools/compute`: runs one tool's `compute` and serialises its output. A tool
 * that calls `process.exit` crashes this worker on purpose (tinypool under Bun does not notice a
 * worker that exits, so the task would otherwise hang until its time limit).
 */
export async function toolCompute(task: ToolTask): Promise<ToolTaskResult> {
  const tool = await instance(task);
  const exit = process.exit;
  process.exit = ((code?: number) => {
    setTimeout(() => { throw new Error(`tool worker exited with code ${code ?? 0}`); });
    throw new WorkerExit();
  }) as typeof process.exit;
  const t0 = performance.now();
  try {
    const output = tool.compute(task.input);
    const json = JSON.stringify(output);
    if (json === undefined) return { ok: false, code: "invalid_output", message: "the tool returned no value" };
    return { ok: true, json, computeMs: performance.now() - t0 };
  } catch (error) {
    if (error instanceof WorkerExit) return new Promise<never>(() => {});
    if (isPluginError(error) && error.reason === "invalid-input") return { ok: false, code: "invalid_parameters", message: error.message };
    if (isPluginError(error) && error.reason === "timeout") return { ok: false, code: "execution_limit", message: error.message };
    return { ok: false, code: "execution_failed", message: error instanceof Error ? error.message : String(error) };
  } finally {
    process.exit = exit;
  }
}
