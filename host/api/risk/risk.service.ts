import { createHash } from "node:crypto";
import type { DependencyContainer } from "tsyringe";
import { z } from "zod";
import { BrokerAccess } from "../../../core/brokers/broker-access.entity.ts";
import { brokerNotFound } from "../../../core/brokers/broker-access.service.ts";
import { aggregationScale } from "../../../core/brokers/share-scale.ts";
import { CacheRegistry } from "../../../core/cache/cache-registry.ts";
import { Database } from "../../../core/db/database.ts";
import { DomainError, NotFoundError } from "../../../core/errors/domain-error.ts";
import { daysBetween, today } from "../../../core/dates/calendar.ts";
import type { RiskDataQuality, RiskDataRequest, RiskScopeRequest } from "../../../core/risk/risk-data.ts";
import type { PackedRiskData as RiskData } from "./risk.task.ts";
import { UserSettingsService } from "../../../core/settings/user-settings.service.ts";
import type { KindInstance, RiskErrorCode, RiskMode, RiskScope } from "../../../sdk/index.ts";
import type { LoadedPlugin, PluginRegistry } from "../../plugins/registry.ts";
import type { DatabaseTarget } from "../../db/dialect.ts";
import { poolQueueSize } from "../../workers/pool.ts";
import { runCalculation } from "../run-calculation.ts";
import type { RiskQueryRequest } from "./risk.schema.ts";
import { loadScenarioCatalog } from "./scenario-catalog.ts";

/** Default limits (docs/risk.md "Limits"); the first two can be set in the environment (host/config.ts). */
export const RISK_LIMITS = {
  /** Tasks waiting for a worker beyond which analytics are refused with `worker_busy`. */
  maxQueuedTasks: 64,
  /** Wall time of one analytic in a worker before `execution_timeout`. */
  analyticTimeoutMs: 30_000,
  /** Wall time of loading the scope's series. */
  dataTimeoutMs: 60_000,
  /** Calendar days of a period. */
  maxPeriodDays: 50 * 366,
  /** Assets of a per-asset analytic (correlation matrix side, optimisation size). */
  maxAssets: 100,
};

/** Eligibility thresholds (docs/risk.md "Eligibility"). */
export const ELIGIBILITY = { minQuotes: 20, staleDays: 7 };

/** Results kept in the `risk_simulation` / `risk_optimization` caches (cleared with the portfolio caches). */
const CACHED: Record<string, string> = { simulation: "risk_simulation", portfolio_optimization: "risk_optimization" };

type ItemStatus = "ok" | "partial" | "unavailable" | "failed";

export interface RiskItem {
  instance_id: string;
  analytic_code: string;
  status: ItemStatus;
  output: Record<string, unknown> | null;
  metadata: {
    algorithm_version: string; scope_kind: RiskScope; mode: RiskMode; target_currency: string; requested_start: string; requested_end: string;
    observations_start: string | null; observations_end: string | null; cached: boolean;
  } | null;
  data_quality: RiskDataQuality | null;
  warnings: { code: string; message: string; details: Record<string, unknown>; degrades_result: boolean }[];
  error: { code: RiskErrorCode; message: string; details: Record<string, unknown> } | null;
}

interface AnalyticResult {
  output: Record<string, unknown> | null;
  warnings: RiskItem["warnings"];
  error: RiskItem["error"];
}

/** Errors meaning "not enough data" rather than "something went wrong". */
const UNAVAILABLE = new Set<RiskErrorCode>(["data_unavailable", "insufficient_history"]);

function failed(a: { instance_id: string; analytic_code: string }, code: RiskErrorCode, message: string, details: Record<string, unknown> = {}): RiskItem {
  return {
    instance_id: a.instance_id, analytic_code: a.analytic_code, status: UNAVAILABLE.has(code) ? "unavailable" : "failed", output: null,
    metadata: null, data_quality: null, warnings: [], error: { code, message, details },
  };
}

/** The `parameters` part of a risk tool's input schema (published in the catalog). */
export function parametersSchema(tool: KindInstance<"risk-tool">): z.ZodType {
  const shape = (tool.inputSchema as unknown as z.ZodObject).shape as Record<string, z.ZodType>;
  return shape.parameters ?? z.object({});
}

/**
 * The loaded `risk-tool` plugins, and a PLUGINS_DIR tool's raw configuration (the plugin
 * configuration file) that the worker re-creating it needs. Registered once at boot under
 * {@link RISK_TOOLS} (host/plugins/ports.ts).
 */
export interface RiskTools {
  configFor(id: string): unknown;
  get(code: string): LoadedPlugin<"risk-tool"> | undefined;
  list(): LoadedPlugin<"risk-tool">[];
}

export const RISK_TOOLS = Symbol("RiskTools");

/** The risk port over the plugin registry. */
export function riskTools(plugins: PluginRegistry, configFor: (id: string) => unknown): RiskTools {
  return { configFor, get: (code) => plugins.get("risk-tool", code), list: () => plugins.list("risk-tool") };
}

/** A risk query whose caller went away (docs/mcp.md "Cancellation"): its worker tasks were stopped. */
export class QueryCancelledError extends DomainError {
  constructor() { super("CANCELLED", "The request was cancelled: the client went away"); }
}

/** A worker task's time budget, ended early when the caller goes away. */
function budget(ms: number, cancel?: AbortSignal): AbortSignal {
  return cancel ? AbortSignal.any([AbortSignal.timeout(ms), cancel]) : AbortSignal.timeout(ms);
}

/**
 * `POST /risk/query` (docs/risk.md): resolves the caller's scope on the request thread (access rows,
 * shares, assets), loads the series once in a worker, then runs each analytic as its own worker task
 * with a time limit. Every analytic answers in its own envelope; only scope errors fail the request.
 */
export class RiskService {
  private readonly db: Database;
  private readonly caches: CacheRegistry;
  private readonly settings: UserSettingsService;

  private readonly limits: typeof RISK_LIMITS;

  constructor(
    container: DependencyContainer, private readonly dbTarget: DatabaseTarget, private readonly plugins: RiskTools, private readonly dataDir: string,
    overrides: { analyticTimeoutMs?: number; maxQueuedTasks?: number } = {},
  ) {
    this.limits = {
      ...RISK_LIMITS,
      ...(overrides.analyticTimeoutMs !== undefined ? { analyticTimeoutMs: overrides.analyticTimeoutMs } : {}),
      ...(overrides.maxQueuedTasks !== undefined ? { maxQueuedTasks: overrides.maxQueuedTasks } : {}),
    };
    // Parse the built-in scenarios now rather than during the first stress query.
    loadScenarioCatalog(dataDir);
    this.db = container.resolve(Database);
    this.caches = container.resolve(CacheRegistry);
    this.settings = container.resolve(UserSettingsService);
  }

  tools(): LoadedPlugin<"risk-tool">[] {
    return this.plugins.list();
  }

  #catalog: ReturnType<RiskService["buildCatalog"]> | undefined;

  /** `GET /risk/catalog`; built once (the plugins are fixed at boot; the JSON Schemas took ~7 ms a call). */
  catalog() {
    this.#catalog ??= this.buildCatalog();
    return this.#catalog;
  }

  private buildCatalog() {
    return this.tools().map((p) => {
      const c = p.instance.catalog;
      const id = p.manifest.id;
      return {
        analytic_code: id, name: p.manifest.name, description: p.manifest.description,
        name_i18n_key: `risk.analytics.${id}.name`, description_i18n_key: `risk.analytics.${id}.description`,
        output_kind: c.outputKind, supported_scopes: [...c.supportedScopes], supported_modes: [...c.supportedModes],
        parameters_schema: z.toJSONSchema(parametersSchema(p.instance), { io: "input", unrepresentable: "any" }) as Record<string, unknown>,
        min_observations: c.minObservations, algorithm_version: c.algorithmVersion,
      };
    });
  }

  /** Scope → what the worker loads; 404 for a broker without an access row or an unknown asset. */
  async resolveScope(userId: number, scope: RiskQueryRequest["scope"]): Promise<RiskScopeRequest> {
    const assetIds = scope.kind === "asset" ? [scope.asset_id] : scope.asset_ids ?? [];
    if (assetIds.length > 0) {
      const rows: { id: number }[] = await this.db.reads.query(`SELECT id FROM assets WHERE id IN (${assetIds.map(() => "?").join(",")})`, assetIds);
      const known = new Set(rows.map((r) => r.id));
      const unknown = assetIds.find((id) => !known.has(id));
      if (unknown !== undefined) throw new NotFoundError("ASSET_NOT_FOUND", `Asset ${unknown} not found`, { asset_id: unknown });
    }
    if (scope.kind === "asset") return { kind: "asset", assetIds: [scope.asset_id] };
    if (scope.kind === "asset_set") return { kind: "asset_set", assetIds: scope.asset_ids };
    const rows = await this.db.reads.findBy(BrokerAccess, { userId });
    const byBroker = new Map(rows.map((r) => [r.brokerId, r]));
    const ids = scope.broker_ids ? [...scope.broker_ids] : rows.map((r) => r.brokerId);
    const scales: Record<number, string> = {};
    for (const id of ids.sort((a, b) => a - b)) {
      const row = byBroker.get(id);
      if (!row) throw brokerNotFound(id);
      scales[id] = aggregationScale(row).toFixed();
    }
    return { kind: "portfolio", scales, assetIds: scope.asset_ids ?? null };
  }

  /**
   * `cancel`: the caller went away (an MCP client that disconnected). Every worker task of the query
   * is then stopped (a queued one never starts, a running one's thread is ended) and the query
   * rejects with {@link QueryCancelledError} instead of answering items nobody reads.
   */
  async query(userId: number, body: RiskQueryRequest, cancel?: AbortSignal): Promise<{ items: RiskItem[] }> {
    cancel?.throwIfAborted();
    const scope = await this.resolveScope(userId, body.scope);
    const target = body.target_currency ?? await this.settings.effectiveBaseCurrency(userId);
    const start = body.date_range.start;
    const end = body.date_range.end ?? today();
    const mode = body.mode;

    // Step 1: which analytics can run, with validated parameters.
    const runnable: { index: number; tool: LoadedPlugin<"risk-tool">; parameters: Record<string, unknown> }[] = [];
    const items: (RiskItem | null)[] = body.analytics.map((a, index) => {
      const tool = this.plugins.get(a.analytic_code);
      if (!tool) return failed(a, "analytic_not_found", `Unknown analytic '${a.analytic_code}'`);
      const c = tool.instance.catalog;
      if (!c.supportedScopes.includes(body.scope.kind as RiskScope)) {
        return failed(a, "incompatible_scope", `${a.analytic_code} supports the scopes ${c.supportedScopes.join(", ")}`, { supported_scopes: c.supportedScopes });
      }
      if (!c.supportedModes.includes(mode as RiskMode)) {
        return failed(a, "incompatible_mode", `${a.analytic_code} supports the modes ${c.supportedModes.join(", ")}`, { supported_modes: c.supportedModes });
      }
      const parsed = parametersSchema(tool.instance).safeParse(a.parameters);
      if (!parsed.success) {
        return failed(a, "invalid_parameters", "The parameters do not match the analytic's schema", {
          issues: parsed.error.issues.map((i) => ({ loc: ["parameters", ...i.path.map(String)], msg: i.message, type: i.code })),
        });
      }
      const periodDays = (Date.parse(end) - Date.parse(start)) / 86_400_000;
      if (periodDays > this.limits.maxPeriodDays) {
        return failed(a, "resource_limit", `The period is longer than ${this.limits.maxPeriodDays} days`, { max_period_days: this.limits.maxPeriodDays });
      }
      runnable.push({ index, tool, parameters: parsed.data as Record<string, unknown> });
      return null;
    });
    if (runnable.length === 0) return { items: items as RiskItem[] };

    // Step 2: the series, once for every analytic.
    const benchmarkIds = [...new Set(runnable.map((r) => r.parameters.benchmark_asset_id).filter((x): x is number => typeof x === "number"))];
    if (benchmarkIds.length > 0) await this.resolveScope(userId, { kind: "asset_set", asset_ids: benchmarkIds });
    const request: RiskDataRequest = { scope, mode, target, start, end, benchmarkIds, fxUserId: userId };
    // Before the series are read: a write (here or in another process) after this point makes the
    // results computed from them fail the generation check, so they are served but not kept.
    await this.caches.sync();
    const generations = new Map(Object.values(CACHED).map((name) => [name, this.caches.generation(name)]));
    let data: RiskData;
    if (poolQueueSize() >= this.limits.maxQueuedTasks) {
      for (const r of runnable) items[r.index] = failed(body.analytics[r.index]!, "worker_busy", "The calculation workers are busy; try again shortly", { retryable: true });
      return { items: items as RiskItem[] };
    }
    try {
      data = (await runCalculation("riskData", { db: this.dbTarget, request }, budget(this.limits.dataTimeoutMs, cancel))).result;
    } catch (e) {
      if (cancel?.aborted) throw new QueryCancelledError();
      const timeout = (e as Error)?.name === "AbortError" || (e as Error)?.name === "TimeoutError";
      for (const r of runnable) {
        items[r.index] = failed(body.analytics[r.index]!, timeout ? "execution_timeout" : "execution_failed",
          timeout ? "Loading the series took too long" : "Loading the series failed");
      }
      return { items: items as RiskItem[] };
    }

    // Step 3: each analytic in its own worker task.
    await Promise.all(runnable.map(async (r) => {
      const a = body.analytics[r.index]!;
      items[r.index] = await this.runOne(a, r.tool, r.parameters, data, body.scope.kind, mode, request, generations, cancel);
    }));
    if (cancel?.aborted) throw new QueryCancelledError();
    return { items: items as RiskItem[] };
  }

  /**
   * `POST /risk/eligibility`: per asset, whether its quotes in the period can feed an analytic
   * (docs/risk.md "Eligibility"): ineligible without any quote, without quotes in the period, with fewer than
   * `min_quotes`, or without an FX route or manual rate to the target; a warning when its first
   * quote comes more than `stale_days` after the start or its last one more than that before the end.
   */
  async eligibility(userId: number, body: { asset_ids: number[]; date_range: { start: string; end?: string | null }; target_currency?: string | null }) {
    await this.resolveScope(userId, { kind: "asset_set", asset_ids: body.asset_ids });
    const target = body.target_currency ?? await this.settings.effectiveBaseCurrency(userId);
    const start = body.date_range.start;
    const end = body.date_range.end ?? today();
    // Counting every quote of every asset runs in a worker, off the request thread.
    const { rows, fx } = (await runCalculation("riskEligibility", {
      db: this.dbTarget, assetIds: body.asset_ids, start, end, target, fxUserId: userId,
    }, AbortSignal.timeout(this.limits.dataTimeoutMs))).result;
    const byId = new Map(rows.map((r) => [r.id, r]));
    const items = body.asset_ids.map((id) => {
      const r = byId.get(id)!;
      const reasons: string[] = [];
      if (Number(r.total) === 0) reasons.push("no_price_history");
      else if (Number(r.n) === 0) reasons.push("no_prices");
      else if (Number(r.n) < ELIGIBILITY.minQuotes) reasons.push("too_few_quotes");
      if (!fx[r.currency]) reasons.push("missing_fx");
      const warn: string[] = [];
      if (reasons.length === 0) {
        if (daysBetween(start, r.first_q!) > ELIGIBILITY.staleDays) warn.push("starts_late");
        if (daysBetween(r.last_q!, end) > ELIGIBILITY.staleDays) warn.push("stale_at_end");
      }
      return {
        asset_id: id, level: reasons.length > 0 ? "ineligible" as const : warn.length > 0 ? "warning" as const : "eligible" as const,
        reasons: reasons.length > 0 ? reasons : warn, first_quote: r.first_q, last_quote: r.last_q, quotes_in_period: Number(r.n),
      };
    });
    const usable = items.filter((i) => i.level !== "ineligible");
    let common: { start: string; end: string } | null = null;
    if (usable.length > 0) {
      const s = usable.map((i) => i.first_quote!).sort().at(-1)!;
      const e = usable.map((i) => i.last_quote!).sort()[0]!;
      if (s <= e) common = { start: s, end: e };
    }
    const suggested = common && (common.start !== start || common.end !== end) ? common : null;
    return { items, min_quotes: ELIGIBILITY.minQuotes, stale_days: ELIGIBILITY.staleDays, common_range: common, suggested_range: suggested };
  }

  scenarioCatalog() {
    return loadScenarioCatalog(this.dataDir);
  }

  /** The stress scenario named by the parameters and, for a replay, every holding's (and proxy's) prices over its window. */
  private async stressContext(parameters: Record<string, unknown>, data: RiskData, request: RiskDataRequest, cancel?: AbortSignal):
    Promise<{ context: unknown } | { error: { code: RiskErrorCode; message: string; details: Record<string, unknown> } }> {
    const catalog = loadScenarioCatalog(this.dataDir);
    const entry = catalog.items.find((i) => i.scenario.id === parameters.scenario_id);
    const bad = (message: string, details: Record<string, unknown> = {}) => ({ error: { code: "invalid_parameters" as const, message, details } });
    if (!entry) return bad(`Unknown scenario '${String(parameters.scenario_id)}'`, { scenario_ids: catalog.items.map((i) => i.scenario.id) });
    const sc = entry.scenario;
    if (sc.kind === "hypothetical_shock") return { context: { scenario: sc, geography_groups: catalog.geography_groups, window: null, window_series: {} } };
    const given = parameters.start !== undefined || parameters.end !== undefined;
    if (given && !sc.editable.dates) return bad(`The dates of ${sc.id} are fixed`);
    const start = (parameters.start as string | undefined) ?? sc.defaults.start;
    const end = (parameters.end as string | undefined) ?? sc.defaults.end;
    if (!start || !end) return bad(`${sc.id} needs start and end`);
    const days = daysBetween(start, end);
    if (days < sc.limits.minimum_calendar_days || (sc.limits.maximum_calendar_days !== undefined && days > sc.limits.maximum_calendar_days)) {
      return bad(`The window must last between ${sc.limits.minimum_calendar_days} and ${sc.limits.maximum_calendar_days ?? "any number of"} days`, { days });
    }
    const ids = data.assets.map((x) => x.asset_id);
    const proxies = Object.values((parameters.proxies as Record<string, number> | undefined) ?? {});
    if (proxies.length > 0) {
      const rows: { id: number }[] = await this.db.reads.query(`SELECT id FROM assets WHERE id IN (${proxies.map(() => "?").join(",")})`, proxies);
      const unknown = proxies.find((id) => !rows.some((r) => r.id === id));
      if (unknown !== undefined) return bad(`Proxy asset ${unknown} not found`, { asset_id: unknown });
    }
    const extra = [...new Set([...ids, ...proxies])];
    const window = extra.length === 0 ? { benchmarks: {} } : (await runCalculation("riskData", {
      db: this.dbTarget,
      request: { scope: { kind: "asset_set", assetIds: extra }, mode: "historical", target: request.target, start, end, benchmarkIds: extra, fxUserId: request.fxUserId },
    }, budget(this.limits.dataTimeoutMs, cancel))).result;
    return { context: { scenario: sc, geography_groups: catalog.geography_groups, window: { start, end }, window_series: window.benchmarks } };
  }

  private async runOne(
    a: RiskQueryRequest["analytics"][number], tool: LoadedPlugin<"risk-tool">, parameters: Record<string, unknown>, data: RiskData,
    scopeKind: RiskScope, mode: RiskMode, request: RiskDataRequest, generations: ReadonlyMap<string, number>, cancel?: AbortSignal,
  ): Promise<RiskItem> {
    const code = a.analytic_code;
    // Per-asset analytics (matrices, optimisation) are bounded; single-series ones are not.
    if (!tool.instance.catalog.supportedScopes.includes("asset") && data.assets.length > this.limits.maxAssets) {
      return failed(a, "resource_limit", `At most ${this.limits.maxAssets} assets per analytic`, { assets: data.assets.length, max_assets: this.limits.maxAssets });
    }
    const benchmarkId = typeof parameters.benchmark_asset_id === "number" ? parameters.benchmark_asset_id : null;
    let context: unknown = null;
    if (code === "stress") {
      const resolved = await this.stressContext(parameters, data, request, cancel);
      if ("error" in resolved) return failed(a, resolved.error.code, resolved.error.message, resolved.error.details);
      context = resolved.context;
    }
    const input = {
      scope: scopeKind, mode, currency: data.currency, end_value: data.end_value, series: data.series, asset_dates: data.asset_dates,
      assets: data.assets, benchmark: benchmarkId === null ? null : data.benchmarks[benchmarkId] ?? null, parameters, context,
    };
    const cacheName = CACHED[code];
    // Keyed by what the result depends on besides stored data (a data write clears the cache).
    const cacheKey = cacheName ? createHash("sha256").update(JSON.stringify({
      code, parameters, scope: request.scope, mode: request.mode, target: request.target, start: request.start, end: request.end, fx_user: request.fxUserId,
      version: tool.instance.catalog.algorithmVersion,
    })).digest("hex") : null;
    const cache = cacheName ? this.caches.get<AnalyticResult>(cacheName) : null;
    const generation = cacheName ? generations.get(cacheName) ?? -1 : 0;
    let result: AnalyticResult | undefined = cacheKey ? cache!.get(cacheKey) : undefined;
    const cached = result !== undefined;
    if (!result) {
      if (poolQueueSize() >= this.limits.maxQueuedTasks) return failed(a, "worker_busy", "The calculation workers are busy; try again shortly", { retryable: true });
      try {
        const external = tool.source !== "builtin";
        result = (await runCalculation("riskAnalytic", {
          id: code, path: external ? tool.path : null, config: external ? this.plugins.configFor(code) : undefined, input,
        }, budget(this.limits.analyticTimeoutMs, cancel))).result as AnalyticResult;
      } catch (e) {
        if (cancel?.aborted) throw new QueryCancelledError();
        const name = (e as Error)?.name;
        if (name === "AbortError" || name === "TimeoutError") {
          return failed(a, "execution_timeout", `The analytic did not finish within ${this.limits.analyticTimeoutMs} ms`, { timeout_ms: this.limits.analyticTimeoutMs });
        }
        return failed(a, "execution_failed", "The analytic failed");
      }
      if (cacheKey && result.error === null && this.caches.generation(cacheName!) === generation) cache!.set(cacheKey, result);
    }
    const warnings = [...data.warnings, ...result.warnings];
    let status: ItemStatus = "ok";
    if (result.error) status = UNAVAILABLE.has(result.error.code) ? "unavailable" : "failed";
    else if (warnings.some((w) => w.degrades_result) || data.data_quality.data_quality_status !== "ok") status = "partial";
    return {
      instance_id: a.instance_id, analytic_code: code, status, output: result.output,
      metadata: {
        algorithm_version: tool.instance.catalog.algorithmVersion, scope_kind: scopeKind, mode, target_currency: data.currency,
        requested_start: request.start, requested_end: request.end, observations_start: data.data_quality.observations_start,
        observations_end: data.data_quality.observations_end, cached,
      },
      data_quality: { ...data.data_quality }, warnings, error: result.error,
    };
  }
}
