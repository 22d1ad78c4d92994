import { loadRiskData, type RiskData, type RiskDataRequest } from "../../core/risk/risk-data.ts";
import { isPluginError, type KindInstance, type Plugin } from "../../sdk/index.ts";
import { createPluginContext } from "../plugins/context.ts";
import { riskPlugins } from "../../plugins/risk/index.ts";
import type { DatabaseTarget } from "../db/dialect.ts";
import { withReadSnapshot } from "../db/read-snapshot.ts";

export interface RiskDataTask {
  db: DatabaseTarget;
  request: RiskDataRequest;
}

type Series = { dates: string[]; values: number[] };
type PackedSeries = { dates: string[]; values: Float64Array };

/**
 * RiskData with every value series as a Float64Array: structured cloning copies a typed array's
 * buffer in one go, where a plain array of 180,000 numbers is walked element by element on the
 * request thread (twice per analytic: in from the loader, out to the analytic's worker).
 */
export type PackedRiskData = Omit<RiskData, "series" | "assets" | "benchmarks"> & {
  series: PackedSeries | null;
  assets: (Omit<RiskData["assets"][number], "values"> & { values: Float64Array })[];
  benchmarks: Record<number, PackedSeries>;
};

const pack = (s: Series): PackedSeries => ({ dates: s.dates, values: Float64Array.from(s.values) });
const unpack = (s: PackedSeries): Series => ({ dates: s.dates, values: Array.from(s.values) });

/** Worker side of `POST /risk/query`, step 1: the scope's series, read on this thread's read-only connection. */
export async function riskData(task: RiskDataTask): Promise<PackedRiskData> {
  const data = await withReadSnapshot(task.db, (db) => loadRiskData(db, task.request));
  return {
    ...data,
    series: data.series && pack(data.series),
    assets: data.assets.map((a) => ({ ...a, values: Float64Array.from(a.values) })),
    benchmarks: Object.fromEntries(Object.entries(data.benchmarks).map(([k, s]) => [k, pack(s)])),
  };
}

const instances = new Map<string, { tool: KindInstance<"risk-tool">; builtin: boolean }>();

const QUIET = { debug() {}, error() {}, info() {}, warn() {} };

/**
 * The risk tool `id`: a built-in one, or the plugin at `path` (a PLUGINS_DIR entry the host loaded),
 * loaded once per worker thread with `require` (tasks are synchronous). Risk tools are pure, so
 * their context has an empty configuration, a silent logger and an HTTP client they must not use.
 */
function riskTool(id: string, path: string | null): { tool: KindInstance<"risk-tool">; builtin: boolean } {
  let entry = instances.get(id);
  if (!entry) {
    const builtin = riskPlugins.find((p) => p.manifest.id === id);
    const plugin = (builtin ?? (path ? require(path).default : undefined)) as Plugin<"risk-tool"> | undefined;
    if (!plugin || plugin.manifest?.kind !== "risk-tool" || plugin.manifest.id !== id) throw new Error(`Risk tool '${id}' cannot be loaded in the worker pool`);
    const ctx = builtin ? ({} as never) : createPluginContext(plugin.manifest, {}, QUIET);
    const tool = plugin.create(ctx);
    if (tool instanceof Promise) throw new Error(`Risk tool '${id}' creates its instance asynchronously`);
    entry = { tool, builtin: builtin !== undefined };
    instances.set(id, entry);
  }
  return entry;
}

/** The analytic's input as the host sends it: packed series, plus the context of that analytic. */
export interface PackedRiskInput {
  scope: string;
  mode: string;
  currency: string;
  end_value: string | null;
  series: PackedSeries | null;
  asset_dates: string[];
  assets: PackedRiskData["assets"];
  benchmark: PackedSeries | null;
  parameters: Record<string, unknown>;
  context: unknown;
}

export interface RiskAnalyticTask {
  id: string;
  /** Entry of a PLUGINS_DIR risk tool; null for built-ins. */
  path: string | null;
  input: PackedRiskInput;
}

/**
 * Step 2: one analytic, its input and result checked by the plugin's own schemas. Built-in tools
 * answer `{output, warnings, error}`; a tool from PLUGINS_DIR answers its output alone, or throws a
 * PluginError (invalid-input → invalid_parameters, anything else → execution_failed).
 */
export function riskAnalytic(task: RiskAnalyticTask): unknown {
  const { tool, builtin } = riskTool(task.id, task.path);
  if (builtin) return tool.outputSchema.parse(tool.compute(unpackInput(tool, task.input)));
  try {
    const output = tool.outputSchema.parse(tool.compute(unpackInput(tool, task.input)));
    return { output, warnings: [], error: null };
  } catch (e) {
    const invalid = isPluginError(e) && e.reason === "invalid-input";
    return { output: null, warnings: [], error: { code: invalid ? "invalid_parameters" : "execution_failed", message: (e as Error).message ?? String(e), details: {} } };
  }
}

function unpackInput(tool: KindInstance<"risk-tool">, p: PackedRiskInput): unknown {
  return tool.inputSchema.parse({
    ...p,
    series: p.series && unpack(p.series),
    assets: p.assets.map((a) => ({ ...a, values: Array.from(a.values) })),
    benchmark: p.benchmark && unpack(p.benchmark),
    context: (p.context as { window_series?: Record<string, PackedSeries> } | null)?.window_series
      ? { ...(p.context as object), window_series: Object.fromEntries(Object.entries((p.context as { window_series: Record<string, PackedSeries> }).window_series).map(([k, s]) => [k, unpack(s)])) }
      : p.context,
  });
}
