import { Decimal, DecimalStringSchema, GeographyGroupSchema, RiskScenarioSchema, toDecimalString, z } from "../../sdk/index.ts";
import { type AssetSeries, defineRiskTool, fail, type RiskWarning, warning } from "./contract.ts";

export const StressParameters = z.object({
  scenario_id: z.string().min(1).max(80).describe("A scenario of GET /risk/scenario-catalog"),
  start: z.iso.date().optional().describe("Replay start (scenarios with editable dates, e.g. custom_period)"),
  end: z.iso.date().optional().describe("Replay end (scenarios with editable dates)"),
  dimension: z.enum(["asset_class", "sector", "geography"]).optional().describe("Shock dimension, when the scenario lets it change"),
  bucket_shocks: z.record(z.string(), z.number().min(-1).max(10)).optional().describe("Shock per bucket (fraction), replacing the scenario's"),
  manual_overrides: z.record(z.string().regex(/^\d+$/), z.number().min(-1).max(10)).optional().describe("Shock per asset id, over any bucket"),
  proxies: z.record(z.string().regex(/^\d+$/), z.number().int().positive()).optional().describe("Asset id → asset whose history stands in for it in a replay"),
  exclusions: z.array(z.number().int().positive()).max(500).optional().describe("Asset ids left out of a replay"),
}).strict();
export type StressParameters = z.output<typeof StressParameters>;

/** What the host resolves for a stress run: the scenario, the geography groups and, for replays, each asset's (and proxy's) prices in the window. */
export const StressContext = z.object({
  scenario: RiskScenarioSchema,
  geography_groups: z.array(GeographyGroupSchema),
  window: z.object({ start: z.string(), end: z.string() }).nullable(),
  window_series: z.record(z.string(), z.object({ dates: z.array(z.string()), values: z.array(z.number()) })),
});
export type StressContext = z.output<typeof StressContext>;

type Item = { asset_id: number; name: string; weight: number; shock: number | null; contribution: number | null; source: string };

function shockOf(a: AssetSeries, dimension: string, shocks: Record<string, number>, groups: z.output<typeof GeographyGroupSchema>[], warnings: RiskWarning[]): number {
  if (dimension === "asset_class") {
    const bucket = a.asset_type ?? "OTHER";
    if (bucket in shocks) return shocks[bucket]!;
    warnings.push(warning("unmapped_bucket", `No shock for ${a.name}'s class ${bucket}; OTHER (or 0) used`, { asset_id: a.asset_id, bucket }, false));
    return shocks.OTHER ?? 0;
  }
  const split = dimension === "sector" ? a.sectors : a.geography;
  if (!split) {
    warnings.push(warning("unclassified_asset", `${a.name} has no ${dimension} classification; its shock is 0`, { asset_id: a.asset_id }, true));
    return 0;
  }
  let s = 0;
  for (const [bucket, w] of Object.entries(split)) {
    let shock = shocks[bucket];
    if (shock === undefined && dimension === "geography") shock = groups.filter((g) => g.members.includes(bucket) && g.id in shocks).map((g) => shocks[g.id]!)[0];
    if (shock === undefined && dimension === "sector") shock = shocks.Other;
    s += w * (shock ?? 0);
  }
  return s;
}

/** Window return of a series: last value on or before `end` over the first on or after `start`. */
function windowReturn(s: { dates: string[]; values: number[] } | undefined, start: string, end: string): number | null {
  if (!s) return null;
  const i = s.dates.findIndex((d) => d >= start);
  let j = -1;
  for (let k = s.dates.length - 1; k >= 0; k--) if (s.dates[k]! <= end) { j = k; break; }
  if (i < 0 || j <= i || !(s.values[i]! > 0)) return null;
  return s.values[j]! / s.values[i]! - 1;
}

/**
 * Today's holdings under a scenario: each asset's shock (hypothetical: its bucket's, or a weighted mix
 * of its sector or country buckets; replay: its own, or its proxy's, window return), the portfolio's
 * return Σ wᵢ sᵢ / Σ wᵢ over the covered assets, and the amount on today's value.
 */
export const stressPlugin = defineRiskTool({
  id: "stress",
  name: "Stress test",
  description: "Today's holdings under a hypothetical shock (by asset class, sector or geography) or a replay of a historical crisis",
  outputKind: "stress",
  scopes: ["asset", "asset_set", "portfolio"],
  modes: ["current_composition"],
  minObservations: 1,
  parameters: StressParameters,
  output: z.object({
    kind: z.literal("stress"), scenario_id: z.string(), scenario_kind: z.string(), dimension: z.string().nullable(),
    window: z.object({ start: z.string(), end: z.string() }).nullable(), portfolio_return: z.number(), pnl_amount: DecimalStringSchema.nullable(),
    coverage: z.number(),
    items: z.array(z.object({
      asset_id: z.number().int(), name: z.string(), weight: z.number(), shock: z.number().nullable(), contribution: z.number().nullable(), source: z.string(),
    })),
  }),
  compute(input, warnings) {
    const ctx = StressContext.parse(input.context ?? fail("data_unavailable", "The scenario could not be resolved"));
    const p = input.parameters;
    const sc = ctx.scenario;
    const assets = input.assets;
    if (assets.length === 0) fail("data_unavailable", "No holding with a price to stress");
    const equal = 1 / assets.length;
    const weightOf = (a: AssetSeries) => a.weight ?? (assets.length === 1 ? 1 : equal);
    if (assets.some((a) => a.weight === null) && assets.length > 1) {
      warnings.push(warning("equal_weights", "The asset set has no holdings: every asset is weighted equally", {}, false));
    }
    const overrides = p.manual_overrides ?? {};
    const items: Item[] = [];
    let dimension: string | null = null;
    if (sc.kind === "hypothetical_shock") {
      dimension = p.dimension ?? sc.defaults.dimension;
      if (!sc.allowed_dimensions.includes(dimension as never)) fail("invalid_parameters", `${sc.id} allows the dimensions ${sc.allowed_dimensions.join(", ")}`);
      if (p.bucket_shocks && !sc.editable.bucket_shocks) fail("invalid_parameters", `${sc.id} does not let its bucket shocks change`);
      if (p.manual_overrides && !sc.editable.manual_overrides) fail("invalid_parameters", `${sc.id} does not take manual overrides`);
      const shocks = p.bucket_shocks ?? sc.defaults.bucket_shocks;
      if (Object.values(shocks).some((s) => s < sc.limits.minimum_shock || s > sc.limits.maximum_shock)) {
        fail("invalid_parameters", `Shocks must lie between ${sc.limits.minimum_shock} and ${sc.limits.maximum_shock}`);
      }
      for (const a of assets) {
        const override = overrides[String(a.asset_id)];
        const shock = override ?? shockOf(a, dimension, shocks, ctx.geography_groups, warnings);
        items.push({ asset_id: a.asset_id, name: a.name, weight: weightOf(a), shock, contribution: weightOf(a) * shock, source: override !== undefined ? "override" : "bucket" });
      }
    } else {
      const window = ctx.window ?? fail("invalid_parameters", `${sc.id} needs start and end dates`);
      const excluded = new Set(p.exclusions ?? []);
      for (const a of assets) {
        const w = weightOf(a);
        const override = overrides[String(a.asset_id)];
        if (excluded.has(a.asset_id)) { items.push({ asset_id: a.asset_id, name: a.name, weight: w, shock: null, contribution: null, source: "excluded" }); continue; }
        if (override !== undefined) { items.push({ asset_id: a.asset_id, name: a.name, weight: w, shock: override, contribution: w * override, source: "override" }); continue; }
        const own = windowReturn(ctx.window_series[String(a.asset_id)], window.start, window.end);
        const proxyId = p.proxies?.[String(a.asset_id)];
        const proxy = own === null && proxyId !== undefined ? windowReturn(ctx.window_series[String(proxyId)], window.start, window.end) : null;
        const shock = own ?? proxy;
        items.push({ asset_id: a.asset_id, name: a.name, weight: w, shock, contribution: shock === null ? null : w * shock, source: own !== null ? "history" : proxy !== null ? "proxy" : "excluded" });
      }
      const missing = items.filter((i) => i.source === "excluded" && !excluded.has(i.asset_id)).map((i) => i.asset_id);
      if (missing.length > 0) {
        warnings.push(warning("missing_history", "Assets without prices over the scenario's window were left out; give a proxy to include them", { asset_ids: missing }, true));
      }
    }
    const covered = items.filter((i) => i.contribution !== null);
    const coverage = covered.reduce((s, i) => s + i.weight, 0);
    if (!(coverage > 0)) fail("data_unavailable", "No holding could be stressed under this scenario");
    const ret = covered.reduce((s, i) => s + i.contribution!, 0) / coverage;
    return {
      kind: "stress" as const, scenario_id: sc.id, scenario_kind: sc.kind, dimension, window: ctx.window, portfolio_return: ret,
      pnl_amount: input.end_value === null ? null : toDecimalString(new Decimal(input.end_value).times(new Decimal(ret)).toDecimalPlaces(2)),
      coverage, items,
    };
  },
});
