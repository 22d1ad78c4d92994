import type { z } from "zod";

/** Scopes a risk analytic can run on, spelled as the API spells them. */
export type RiskScope = "asset" | "asset_set" | "portfolio";

/** Modes a risk analytic supports, spelled as the API spells them. */
export type RiskMode = "current_composition" | "historical";

/**
 * How a risk analytic appears in the risk catalog (besides the manifest's
 * `name` and `description`): `algorithmVersion` (semver of the math),
 * `minObservations` (price points needed at least), `outputKind` (e.g.
 * `"kpi"`, `"drawdown"`, `"var_cvar"`), and the supported scopes and modes.
 */
export interface RiskToolCatalogEntry {
  readonly algorithmVersion: string;
  readonly minObservations: number;
  readonly outputKind: string;
  readonly supportedModes: readonly RiskMode[];
  readonly supportedScopes: readonly RiskScope[];
}

/**
 * Contract of kind `risk-tool`: one risk analytic (volatility, drawdown, VaR).
 * The host assembles the input — `{scope, mode, currency, end_value (DecimalString
 * or null), series: {dates, values} | null, asset_dates, assets: [{asset_id, name,
 * asset_type, sectors, geography, weight, values}], benchmark, context, parameters}`,
 * values as float64 in the target currency (docs/risk.md "Series") — validates it
 * with `inputSchema` (whose `parameters` member is published in the catalog), runs
 * `compute` in a worker and validates the result with `outputSchema`. The input
 * assembled by the host is expected to grow in later minor versions.
 */
export interface RiskTool<I = unknown, O = unknown> {
  /** Catalog metadata. */
  readonly catalog: RiskToolCatalogEntry;
  /**
   * The analytic: pure, synchronous, deterministic, over plain data. Throw a
   * `PluginError` with reason `invalid-input` (e.g. too few observations).
   */
  compute(input: I): O;
  /** Validates the input; its parameters part is published in the catalog. */
  readonly inputSchema: z.ZodType<I>;
  /** Validates the output. */
  readonly outputSchema: z.ZodType<O>;
}
