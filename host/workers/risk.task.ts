import { loadRiskData, type RiskData, type RiskDataRequest } from "../../core/risk/risk-data.ts";
import type { KindInstance } from "../../sdk/index.ts";
import { riskPlugins } from "../../plugins/risk/index.ts";
import { readOnly } from "./portfolio-report.task.ts";

export interface RiskDataTask {
  dbFile: string;
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
export function riskData(task: RiskDataTask): PackedRiskData {
  const db = readOnly(task.dbFile);
  const data = db.transaction(() => loadRiskData(db, task.request))();
  return {
    ...data,
    series: data.series && pack(data.series),
    assets: data.assets.map((a) => ({ ...a, values: Float64Array.from(a.values) })),
    benchmarks: Object.fromEntries(Object.entries(data.benchmarks).map(([k, s]) => [k, pack(s)])),
  };
}

const instances = new Map<string, KindInstance<"risk-tool">>();

function riskTool(id: string): KindInstance<"risk-tool"> {
  let tool = instances.get(id);
  if (!tool) {
    const plugin = riskPlugins.find((p) => p.manifest.id === id);
    if (!plugin) throw new Error(`Risk tool '${id}' does not run in the worker pool`);
    // Risk tools are pure: their create() ignores the context.
    tool = plugin.create({} as never) as KindInstance<"risk-tool">;
    instances.set(id, tool);
  }
  return tool;
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
  input: PackedRiskInput;
}

/** Step 2: one analytic, its input and result checked by the plugin's own schemas. */
export function riskAnalytic(task: RiskAnalyticTask): unknown {
  const tool = riskTool(task.id);
  const p = task.input;
  const input = tool.inputSchema.parse({
    ...p,
    series: p.series && unpack(p.series),
    assets: p.assets.map((a) => ({ ...a, values: Array.from(a.values) })),
    benchmark: p.benchmark && unpack(p.benchmark),
    context: (p.context as { window_series?: Record<string, PackedSeries> } | null)?.window_series
      ? { ...(p.context as object), window_series: Object.fromEntries(Object.entries((p.context as { window_series: Record<string, PackedSeries> }).window_series).map(([k, s]) => [k, unpack(s)])) }
      : p.context,
  });
  return tool.outputSchema.parse(tool.compute(input));
}
