import type { SqlReader } from "../../../core/db/sql-reader.ts";
import { loadRiskData, type RiskData, type RiskDataRequest } from "../../../core/risk/risk-data.ts";
import { isPluginError, type KindInstance } from "../../../sdk/index.ts";
import { workerPluginInstance } from "../../plugins/instance.ts";
import type { DatabaseTarget } from "../../db/dialect.ts";
import { withReadSnapshot } from "../../db/read-snapshot.ts";

export interface RiskDataTask {
  db: DatabaseTarget;
  request: RiskDataRequest;
}

type Series = { dates: string[]; values: number[] };
/** Dates joined by commas (one string to copy, not thousands), values a view on a shared buffer. */
type PackedSeries = { dates: string; values: Float64Array };

/**
 * RiskData as it crosses threads (worker → request thread → each analytic's worker): every value
 * series is a Float64Array view on one SharedArrayBuffer, which structured cloning shares instead of
 * copying, and every date list is one comma-joined string. Cloning the plain data of a 50-asset,
 * 10-year scope took 1–5 ms of the request thread per analytic task; packed, it takes ~0.1 ms.
 */
export type PackedRiskData = Omit<RiskData, "series" | "assets" | "benchmarks" | "asset_dates"> & {
  series: PackedSeries | null;
  asset_dates: string;
  assets: (Omit<RiskData["assets"][number], "values"> & { values: Float64Array })[];
  benchmarks: Record<number, PackedSeries>;
};

const joinDates = (dates: readonly string[]): string => dates.join(",");
const splitDates = (dates: string): string[] => (dates === "" ? [] : dates.split(","));
const unpack = (s: PackedSeries): Series => ({ dates: splitDates(s.dates), values: Array.from(s.values) });

/** Worker side of `POST /risk/query`, step 1: the scope's series, read on this thread's read-only connection. */
export function riskData(task: RiskDataTask): Promise<PackedRiskData> {
  return withReadSnapshot(task.db, (db) => riskDataOn(db, task.request));
}

/** The series of `request` read in one transaction on `db`, packed. */
export async function riskDataOn(db: SqlReader, request: RiskDataRequest): Promise<PackedRiskData> {
  const data = await loadRiskData(db, request);
  const benchmarks = Object.entries(data.benchmarks);
  const lists = [data.series?.values ?? [], ...data.assets.map((a) => a.values), ...benchmarks.map(([, b]) => b.values)];
  const buffer = new Float64Array(new SharedArrayBuffer(8 * Math.max(1, lists.reduce((n, l) => n + l.length, 0))));
  let offset = 0;
  const share = (values: readonly number[]): Float64Array => {
    const view = buffer.subarray(offset, offset + values.length);
    view.set(values);
    offset += values.length;
    return view;
  };
  const pack = (s: Series): PackedSeries => ({ dates: joinDates(s.dates), values: share(s.values) });
  return {
    ...data,
    series: data.series && pack(data.series),
    asset_dates: joinDates(data.asset_dates),
    assets: data.assets.map((a) => ({ ...a, values: share(a.values) })),
    benchmarks: Object.fromEntries(benchmarks.map(([k, b]) => [k, pack(b)])),
  };
}

export interface EligibilityTask {
  db: DatabaseTarget;
  assetIds: number[];
  start: string;
  end: string;
  target: string;
  /** The user asking: their private FX rates count as a link to the target. */
  fxUserId: number;
}

export interface EligibilityRows {
  rows: { id: number; currency: string; total: number; first_q: string | null; last_q: string | null; n: number }[];
  /** Per asset currency: whether an FX route, a manual rate or one of the user's private rates links it to the target. */
  fx: Record<string, boolean>;
}

/**
 * Worker side of `POST /risk/eligibility`: each asset's quote counts and first/last quote in the
 * period, and whether its currency reaches the target. Counting walks every quote of every asset
 * (tens of ms for 50 ten-year assets), so it runs here rather than on the request thread.
 */
export function riskEligibility(task: EligibilityTask): Promise<EligibilityRows> {
  return withReadSnapshot(task.db, async (db) => {
    const { start, end, target } = task;
    const marks = task.assetIds.map(() => "?").join(",");
    const rows = (await db.all<EligibilityRows["rows"][number]>(`
      SELECT a.id, a.currency,
             (SELECT count(*) FROM price_history p WHERE p.asset_id = a.id) AS total,
             (SELECT min(date) FROM price_history p WHERE p.asset_id = a.id AND p.date BETWEEN ? AND ?) AS first_q,
             (SELECT max(date) FROM price_history p WHERE p.asset_id = a.id AND p.date BETWEEN ? AND ?) AS last_q,
             (SELECT count(*) FROM price_history p WHERE p.asset_id = a.id AND p.date BETWEEN ? AND ?) AS n
        FROM assets a WHERE a.id IN (${marks})`, [start, end, start, end, start, end, ...task.assetIds]))
      .map((r) => ({ ...r, total: Number(r.total), n: Number(r.n) }));
    const fx: Record<string, boolean> = {};
    for (const c of new Set(rows.map((r) => r.currency))) {
      if (c === target) { fx[c] = true; continue; }
      const [b, q] = c < target ? [c, target] : [target, c];
      fx[c] = (await db.all(`SELECT 1 FROM fx_routes WHERE base = ? AND quote = ? UNION ALL SELECT 1 FROM fx_rates WHERE base = ? AND quote = ?
        UNION ALL SELECT 1 FROM fx_private_rates WHERE user_id = ? AND base = ? AND quote = ? LIMIT 1`, [b, q, b, q, task.fxUserId, b, q])).length > 0;
    }
    return { rows, fx };
  });
}

/**
 * The risk tool `id`: a built-in one, or the plugin at `path` (a PLUGINS_DIR entry the host loaded)
 * with its configuration, made once per worker thread by the one in-worker loader
 * (host/plugins/instance.ts). Risk tools are pure: no network, a silent logger. Tasks are synchronous,
 * so a tool must create its instance synchronously.
 */
function riskTool(id: string, path: string | null, config: unknown): { tool: KindInstance<"risk-tool">; builtin: boolean } {
  const tool = workerPluginInstance("risk-tool", { id, path, config });
  if (tool instanceof Promise) throw new Error(`Risk tool '${id}' creates its instance asynchronously`);
  return { tool, builtin: path === null };
}

/** The analytic's input as the host sends it: packed series, plus the context of that analytic. */
export interface PackedRiskInput {
  scope: string;
  mode: string;
  currency: string;
  end_value: string | null;
  series: PackedSeries | null;
  asset_dates: string;
  assets: PackedRiskData["assets"];
  benchmark: PackedSeries | null;
  parameters: Record<string, unknown>;
  context: unknown;
}

export interface RiskAnalyticTask {
  id: string;
  /** Entry of a PLUGINS_DIR risk tool; null for built-ins. */
  path: string | null;
  /** A PLUGINS_DIR risk tool's raw configuration (undefined for built-ins and when none is configured). */
  config?: unknown;
  input: PackedRiskInput;
}

/**
 * Step 2: one analytic, its input and result checked by the plugin's own schemas. Built-in tools
 * answer `{output, warnings, error}`; a tool from PLUGINS_DIR answers its output alone, or throws a
 * PluginError (invalid-input → invalid_parameters, anything else → execution_failed).
 */
export function riskAnalytic(task: RiskAnalyticTask): unknown {
  const { tool, builtin } = riskTool(task.id, task.path, task.config);
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
    asset_dates: splitDates(p.asset_dates),
    assets: p.assets.map((a) => ({ ...a, values: Array.from(a.values) })),
    benchmark: p.benchmark && unpack(p.benchmark),
    context: (p.context as { window_series?: Record<string, PackedSeries> } | null)?.window_series
      ? { ...(p.context as object), window_series: Object.fromEntries(Object.entries((p.context as { window_series: Record<string, PackedSeries> }).window_series).map(([k, s]) => [k, unpack(s)])) }
      : p.context,
  });
}
