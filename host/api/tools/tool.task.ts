import { pathToFileURL } from "node:url";
import { builtinPlugins } from "../../../plugins/index.ts";
import { type CalculationTool, isPlugin, isPluginError, type Plugin, toIsoDate } from "../../../sdk/index.ts";

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

const instances = new Map<string, CalculationTool>();

const silent = { debug() {}, error() {}, info() {}, warn() {} };

async function instance(task: ToolTask): Promise<CalculationTool> {
  const key = `${task.entry ?? "builtin"}#${task.id}`;
  const cached = instances.get(key);
  if (cached) return cached;
  let plugin: unknown;
  if (task.entry === null) plugin = builtinPlugins.find((p) => p.manifest.kind === "calculation-tool" && p.manifest.id === task.id);
  else plugin = (await import(pathToFileURL(task.entry).href)).default;
  if (!isPlugin(plugin) || plugin.manifest.kind !== "calculation-tool" || plugin.manifest.id !== task.id) {
    throw new Error(`calculation tool '${task.id}' is not available in the worker`);
  }
  const { manifest } = plugin as Plugin<"calculation-tool">;
  const config = manifest.configSchema ? manifest.configSchema.parse(task.config ?? {}) : {};
  // A calculation tool is pure: its context offers no network and a silent logger.
  const created = await (plugin as Plugin<"calculation-tool">).create({
    clock: { now: () => new Date(), today: () => toIsoDate(new Date()) },
    config,
    http: {
      fetch: () => Promise.reject(new Error("calculation tools have no network")),
      getJson: () => Promise.reject(new Error("calculation tools have no network")),
    } as never,
    logger: silent,
  });
  instances.set(key, created);
  return created;
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
