import { z } from "zod";
import { DayField } from "../../http/fields.ts";
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

export function riskInput(grade: McpGrade) {
  // `stress` has its own tool (`stress_test`), whose arguments the grade narrows.
  const code = grade === "full" ? z.string().regex(/^[a-z][a-z0-9_]*$/).max(80) : z.enum(RISK_ANALYTICS[grade] as [string, ...string[]]);
  return z.object({
    date_start: DayField.describe("First day of the period"),
    date_end: DayField.optional().describe("Last day (default: today)"),
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

/** Shock per asset id: these name holdings, so an `aggregate` token may not give them. */
const ShockOverrides = {
  manual_overrides: z.record(z.string().regex(/^\d+$/), z.number().min(-1).max(10)).optional().describe("Shock per asset id (fraction), over any bucket, when the scenario takes overrides"),
  proxies: z.record(z.string().regex(/^\d+$/), z.number().int().positive()).optional().describe("Asset id → asset whose history stands in for it in a replay"),
  exclusions: z.array(z.number().int().positive()).max(500).optional().describe("Asset ids left out of a replay"),
};

export function stressInput(grade: McpGrade) {
  const base = z.object({
    scenario_id: z.string().min(1).max(80).describe("A scenario of `stress_scenarios`"),
    date_start: DayField.describe("First day of the period whose prices value today's holdings"),
    date_end: DayField.optional().describe("Last day: the composition and values of this day (default: today)"),
    start: DayField.optional().describe("Replay start (scenarios with editable dates, such as custom_period)"),
    end: DayField.optional().describe("Replay end (scenarios with editable dates)"),
    dimension: z.enum(["asset_class", "sector", "geography"]).optional().describe("Shock dimension, when the scenario lets it change"),
    bucket_shocks: z.record(z.string(), z.number().min(-1).max(10)).optional().describe("Shock per bucket (fraction), replacing the scenario's when it allows"),
  }).strict();
  return grade === "aggregate" ? base : base.extend(ShockOverrides).strict();
}

export const ScenariosOut = z.object({
  method: z.string().describe("Where the scenarios come from"),
  scenarios: z.array(z.object({
    id: z.string().describe("Scenario id, for `stress_test`"),
    name: z.string().describe("Scenario name (English)"),
    // Not `description`/`tags`: those names are a user's free text to the grade filter; these are the catalogue's own.
    summary: z.string().describe("What it models (English)"),
    kind: z.enum(["historical_replay", "hypothetical_shock"]).describe("A replay of a historical window, or a shock per bucket"),
    labels: z.array(z.string()).describe("The scenario's tags"),
    source: z.enum(["built_in", "host"]).describe("Shipped, or a file of DATA_DIR/scenarios"),
    window: z.object({ start: z.string().nullable(), end: z.string().nullable() }).nullable().describe("A replay's default window (null dates: to be given)"),
    dimensions: z.array(z.string()).nullable().describe("A shock's allowed dimensions"),
    bucket_shocks: z.record(z.string(), z.number()).nullable().describe("A shock's default shock per bucket (fraction)"),
  })).describe("The stress scenarios, built-in first"),
  data_quality: z.object({ status: z.literal("not_applicable"), issues: z.array(z.never()) }).describe("A catalogue: no figures of yours"),
});

export const StressOut = z.object({
  method: z.string().describe("How the figures were computed"),
  currency: z.string().describe("The currency of the amount"),
  scenario_id: z.string().describe("The scenario run"),
  status: z.enum(["ok", "partial", "unavailable", "failed"]).describe("`unavailable`: not enough data; `failed`: refused or over its limits"),
  result: z.object({
    scenario_kind: z.string().describe("historical_replay or hypothetical_shock"),
    dimension: z.string().nullable().describe("The shock's dimension"),
    window: z.object({ start: z.string(), end: z.string() }).nullable().describe("A replay's window"),
    portfolio_return_percent: z.string().describe("The portfolio's return under the scenario, in percent"),
    coverage_percent: z.string().describe("Share of today's value the scenario covered, in percent"),
    pnl_amount: z.string().nullable().optional().describe("Gain or loss on today's value (`full` grade only)"),
    holdings: z.array(z.object({
      asset_id: z.number().int().describe("Asset id"),
      asset_name: z.string().describe("Asset name"),
      weight_percent: z.string().describe("Weight in today's holdings, in percent"),
      shock_percent: z.string().nullable().describe("The asset's shock, in percent; null when excluded"),
      contribution_percent: z.string().nullable().describe("Weight × shock, in percent points"),
      source: z.string().describe("bucket, override, history, proxy or excluded"),
    })).optional().describe("Per holding (absent at the `aggregate` grade)"),
  }).nullable().describe("Null when the run failed"),
  warnings: z.array(z.object({ code: z.string().describe("Warning code"), message: z.string().describe("What it means") })).describe("What weakened the result"),
  error: z.object({ code: z.string().describe("Such as invalid_parameters, data_unavailable, execution_timeout, worker_busy"), message: z.string().describe("Why") })
    .nullable().describe("Why there is no result"),
  data_quality: RiskOut.shape.data_quality,
});

const pct = (x: number | null) => (x === null ? null : (Math.round(x * 1e8) / 1e6).toString());

export function mcpRisk(deps: HttpDeps, brokers: (userId: number, scope: McpScope) => Promise<number[] | null>) {
  const risk = new RiskService(deps.container, databaseTarget(deps.config.dataDir), deps.container.resolve<RiskTools>(RISK_TOOLS), deps.config.dataDir, {
    analyticTimeoutMs: deps.config.riskAnalyticTimeoutMs, maxQueuedTasks: deps.config.riskMaxQueuedTasks,
  });
  const query = queryWith(risk, brokers);
  return {
    query,

    /** The scenario catalogue of `GET /risk/scenario-catalog`, without the loader's file warnings. */
    scenarios(): z.infer<typeof ScenariosOut> {
      return {
        method: "built-in scenarios and the host's DATA_DIR/scenarios files, as GET /risk/scenario-catalog",
        scenarios: risk.scenarioCatalog().items.map(({ scenario: sc, source }) => ({
          id: sc.id, name: sc.name.en!, summary: sc.description.en!, kind: sc.kind, labels: sc.tags, source,
          window: sc.kind === "historical_replay" ? { start: sc.defaults.start ?? null, end: sc.defaults.end ?? null } : null,
          dimensions: sc.kind === "hypothetical_shock" ? [...sc.allowed_dimensions] : null,
          bucket_shocks: sc.kind === "hypothetical_shock" ? sc.defaults.bucket_shocks : null,
        })),
        data_quality: { status: "not_applicable", issues: [] },
      };
    },

    /** One `stress` analytic on today's holdings through the same query, limits and workers as `risk_analytics`. */
    async stress(userId: number, scope: McpScope, q: z.infer<ReturnType<typeof stressInput>>, cancel?: AbortSignal): Promise<z.infer<typeof StressOut>> {
      const { scenario_id, date_start, date_end, ...rest } = q;
      const out = await query(userId, scope, {
        date_start, date_end, mode: "current_composition",
        analytics: [{ analytic_code: "stress", parameters: { scenario_id, ...rest } }],
      }, cancel);
      const item = out.items[0]!;
      const o = item.output as null | {
        scenario_kind: string; dimension: string | null; window: { start: string; end: string } | null; portfolio_return: number; coverage: number;
        pnl_amount: string | null; items: { asset_id: number; name: string; weight: number; shock: number | null; contribution: number | null; source: string }[];
      };
      return {
        method: "stress test of today's holdings (docs/risk.md \"Stress\"): each holding's shock weighted by its value, on the calculation workers with the /risk limits",
        currency: out.currency, scenario_id, status: item.status,
        result: o && {
          scenario_kind: o.scenario_kind, dimension: o.dimension, window: o.window,
          portfolio_return_percent: pct(o.portfolio_return)!, coverage_percent: pct(o.coverage)!, pnl_amount: o.pnl_amount,
          holdings: o.items.map((i) => ({
            asset_id: i.asset_id, asset_name: i.name, weight_percent: pct(i.weight)!, shock_percent: pct(i.shock), contribution_percent: pct(i.contribution), source: i.source,
          })),
        },
        warnings: item.warnings, error: item.error, data_quality: out.data_quality,
      };
    },
  };
}

function queryWith(risk: RiskService, brokers: (userId: number, scope: McpScope) => Promise<number[] | null>) {
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
