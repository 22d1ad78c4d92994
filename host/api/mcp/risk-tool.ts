import { z } from "zod";
import type { McpGrade, McpScope } from "../../../core/users/access-token.service.ts";
import { databaseTarget } from "../../db/dialect.ts";
import type { HttpDeps } from "../../http/deps.ts";
import { RISK_TOOLS, RiskService, type RiskTools } from "../risk/risk.service.ts";

/**
 * The `risk_analytics` MCP tool (docs/mcp.md): portfolio-scope risk analytics through the same
 * RiskService as `POST /risk/query`, built with the same configured limits (per-analytic time budget,
 * queue size, period and asset caps) on the same worker pool, so a slow analytic answers
 * `execution_timeout` here exactly as there. Below `full` only analytics whose output is made of
 * ratios are offered; the amounts some of them add (`var_amount`) go through the grade filter.
 */

/** Analytics a grade may run. `full`: any analytic of the catalogue. */
export const RISK_ANALYTICS: Record<Exclude<McpGrade, "full">, readonly string[]> = {
  relative: ["historical_kpi", "historical_var", "drawdown_summary", "risk_contribution"],
  // Portfolio-level only: the contribution table names each holding.
  aggregate: ["historical_kpi", "historical_var", "drawdown_summary"],
};

const Day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

export function riskInput(grade: McpGrade) {
  const code = grade === "full" ? z.string().regex(/^[a-z][a-z0-9_]*$/).max(80) : z.enum(RISK_ANALYTICS[grade] as [string, ...string[]]);
  return z.object({
    date_start: Day.describe("First day of the period"),
    date_end: Day.optional().describe("Last day (default: today)"),
    mode: z.enum(["historical", "current_composition"]).default("historical")
      .describe("historical: the portfolio's value series as it was (flows removed); current_composition: today's holdings held over the period"),
    analytics: z.array(z.object({
      analytic_code: code.describe(grade === "full" ? "An analytic of the risk catalogue (docs/risk.md)" : `One of ${RISK_ANALYTICS[grade].join(", ")}`),
      parameters: z.record(z.string(), z.unknown()).default({}).describe("The analytic's parameters (docs/risk.md)"),
    }).strict()).min(1).max(8).describe("1 to 8 analytics, each answered in its own item"),
  }).strict();
}

export const RiskOut = z.object({
  method: z.string().describe("How the figures were computed"),
  currency: z.string().describe("The currency of the value series"),
  mode: z.string().describe("historical or current_composition"),
  items: z.array(z.object({
    analytic_code: z.string().describe("The analytic"),
    status: z.enum(["ok", "partial", "unavailable", "failed"]).describe("`unavailable`: not enough data; `failed`: refused or over its limits"),
    output: z.record(z.string(), z.unknown()).nullable().describe("The analytic's output (docs/risk.md); ratios as fractions"),
    observations_start: z.string().nullable().describe("First day of the series used"),
    observations_end: z.string().nullable().describe("Last day of the series used"),
    warnings: z.array(z.object({ code: z.string().describe("Warning code"), message: z.string().describe("What it means") })).describe("What weakened the result"),
    error: z.object({ code: z.string().describe("Such as execution_timeout, worker_busy, insufficient_history"), message: z.string().describe("Why") })
      .nullable().describe("Why there is no output"),
  })).describe("One item per analytic asked for, in order"),
  data_quality: z.object({
    status: z.enum(["ok", "carried_forward", "partial", "not_applicable"]).describe("`partial` when prices or FX rates are missing"),
    issues: z.array(z.object({
      code: z.string().describe("MISSING_PRICE or MISSING_FX_RATE"), severity: z.string().describe("`warning`"),
      count: z.number().int().describe("How many assets or pairs"),
      affected_asset_ids: z.array(z.number().int()).optional().describe("The assets concerned (absent at the `aggregate` grade)"),
      affected_fx_pairs: z.array(z.string()).describe("The FX pairs concerned"),
    })).describe("What made the figures less than complete"),
  }).describe("Data-quality status of the scope's series"),
});

export function mcpRisk(deps: HttpDeps, brokers: (userId: number, scope: McpScope) => Promise<number[] | null>) {
  const risk = new RiskService(deps.container, databaseTarget(deps.config.dataDir), deps.container.resolve<RiskTools>(RISK_TOOLS), deps.config.dataDir, {
    analyticTimeoutMs: deps.config.riskAnalyticTimeoutMs, maxQueuedTasks: deps.config.riskMaxQueuedTasks,
  });

  /** `cancel`: the MCP client went away; the query's worker tasks stop (docs/mcp.md "Cancellation"). */
  return async (userId: number, scope: McpScope, q: z.infer<ReturnType<typeof riskInput>>, cancel?: AbortSignal): Promise<z.infer<typeof RiskOut>> => {
    const within = await brokers(userId, scope);
    const { items } = await risk.query(userId, {
      scope: { kind: "portfolio", ...(within ? { broker_ids: within } : {}) },
      date_range: { start: q.date_start, end: q.date_end ?? null }, target_currency: null, mode: q.mode,
      composition_policy: q.mode === "current_composition" ? "current_buy_and_hold" : null,
      analytics: q.analytics.map((a, i) => ({ instance_id: `a${i}`, analytic_code: a.analytic_code, parameters: a.parameters })),
    } as Parameters<RiskService["query"]>[1], cancel);
    const missingAssets = new Set<number>();
    const missingPairs = new Set<string>();
    let partial = false;
    for (const i of items) {
      if (!i.data_quality) continue;
      if (i.data_quality.data_quality_status === "partial") partial = true;
      for (const a of i.data_quality.missing_price_assets) missingAssets.add(a);
      for (const p of i.data_quality.missing_fx_pairs) missingPairs.add(p);
    }
    const issues = [
      ...(missingAssets.size ? [{ code: "MISSING_PRICE", severity: "warning", count: missingAssets.size, affected_asset_ids: [...missingAssets], affected_fx_pairs: [] }] : []),
      ...(missingPairs.size ? [{ code: "MISSING_FX_RATE", severity: "warning", count: missingPairs.size, affected_fx_pairs: [...missingPairs] }] : []),
    ];
    return {
      method: "risk analytics on the portfolio scope (docs/risk.md), on the calculation workers with the /risk limits",
      currency: items.find((i) => i.metadata)?.metadata?.target_currency ?? "",
      mode: q.mode,
      items: items.map((i) => ({
        analytic_code: i.analytic_code, status: i.status, output: i.output,
        observations_start: i.metadata?.observations_start ?? null, observations_end: i.metadata?.observations_end ?? null,
        warnings: i.warnings.map((w) => ({ code: w.code, message: w.message })),
        error: i.error ? { code: i.error.code, message: i.error.message } : null,
      })),
      data_quality: { status: partial || issues.length ? "partial" : "ok", issues },
    };
  };
}
