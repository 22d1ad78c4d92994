import { loadRiskData, type RiskData, type RiskDataRequest } from "../../core/risk/risk-data.ts";
import type { KindInstance } from "../../sdk/index.ts";
import { riskPlugins } from "../../plugins/risk/index.ts";
import { readOnly } from "./portfolio-report.task.ts";

export interface RiskDataTask {
  dbFile: string;
  request: RiskDataRequest;
}

/** Worker side of `POST /risk/query`, step 1: the scope's series, read on this thread's read-only connection. */
export function riskData(task: RiskDataTask): RiskData {
  const db = readOnly(task.dbFile);
  return db.transaction(() => loadRiskData(db, task.request))();
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

export interface RiskAnalyticTask {
  id: string;
  input: unknown;
}

/** Step 2: one analytic, its input and result checked by the plugin's own schemas. */
export function riskAnalytic(task: RiskAnalyticTask): unknown {
  const tool = riskTool(task.id);
  const input = tool.inputSchema.parse(task.input);
  return tool.outputSchema.parse(tool.compute(input));
}
