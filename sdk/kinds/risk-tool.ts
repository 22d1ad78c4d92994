import { z } from "zod";
import { DecimalStringSchema } from "../money.ts";

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
 * Finite floats, checked in one pass: tens of thousands of values per input, where a schema per
 * element would cost more than the analytic (NaN and ±Infinity are refused).
 */
const Floats = z.custom<number[]>((v) => Array.isArray(v) && v.every((x) => typeof x === "number" && Number.isFinite(x)), "finite numbers");
const Days = z.custom<string[]>((v) => Array.isArray(v) && v.every((x) => typeof x === "string"), "ISO dates");

/** A value series in the target currency, oldest first: `values[i]` is the value on `dates[i]`. */
export const RiskSeriesSchema = z.object({ dates: Days, values: Floats });
export type RiskSeries = z.output<typeof RiskSeriesSchema>;

/** One asset of the scope: its value per unit on the input's `asset_dates` and its weight today. */
export const RiskAssetSeriesSchema = z.object({
  asset_id: z.number().int(),
  name: z.string(),
  asset_type: z.string().nullable(),
  /** Sector weights (fractions) when the asset is classified, else null. */
  sectors: z.record(z.string(), z.number()).nullable(),
  /** Country weights (fractions, ISO 3166 alpha-3 keys) when the asset is classified, else null. */
  geography: z.record(z.string(), z.number()).nullable(),
  /** Share of the scope's value today (current composition), or null. */
  weight: z.number().nullable(),
  values: Floats,
});
export type RiskAssetSeries = z.output<typeof RiskAssetSeriesSchema>;

/** The error codes of a risk result (the risk API's codes, docs/risk.md "Requests"). */
export const RISK_ERROR_CODES = [
  "analytic_not_found", "incompatible_scope", "incompatible_mode", "invalid_parameters", "insufficient_history", "undefined_metric",
  "data_unavailable", "invalid_covariance", "resource_limit", "worker_busy", "execution_timeout", "optimization_infeasible",
  "execution_failed",
] as const;
export type RiskErrorCode = (typeof RISK_ERROR_CODES)[number];

/**
 * The input the host assembles for a risk analytic, with the analytic's own `parameters` schema:
 * `{scope, mode, currency, end_value, series, asset_dates, assets, benchmark, context, parameters}`,
 * values as float64 in the target currency (docs/risk.md "Series"). Fields may be added in later
 * minor versions (zod's objects ignore keys they do not list, so a tool built on this keeps working).
 */
export function riskInputSchema<P extends z.ZodType>(parameters: P) {
  return z.object({
    scope: z.enum(["asset", "asset_set", "portfolio"]),
    mode: z.enum(["historical", "current_composition"]),
    currency: z.string(),
    /** The scope's value on the last date (money), or null. */
    end_value: DecimalStringSchema.nullable(),
    /** The scope's value series (asset, portfolio); null for asset sets. */
    series: RiskSeriesSchema.nullable(),
    /** The dates of every asset's `values`. */
    asset_dates: Days,
    assets: z.array(RiskAssetSeriesSchema),
    /** The benchmark's value series on its own dates (comparison analytics), or null. */
    benchmark: RiskSeriesSchema.nullable(),
    /** Extra data the host resolves for one analytic (the stress scenario and its window prices), or null. */
    context: z.unknown().nullable().default(null),
    parameters,
  });
}
export type RiskInput<P = unknown> = Omit<z.output<ReturnType<typeof riskInputSchema>>, "parameters"> & { parameters: P };

/** A warning of a risk result: `degrades_result` marks the result as partial. */
export const RiskWarningSchema = z.object({
  code: z.string(),
  message: z.string(),
  details: z.record(z.string(), z.unknown()),
  degrades_result: z.boolean(),
});
export type RiskWarning = z.output<typeof RiskWarningSchema>;

/** Why a risk analytic produced no output. */
export const RiskErrorSchema = z.object({ code: z.enum(RISK_ERROR_CODES), message: z.string(), details: z.record(z.string(), z.unknown()) });

/** The result of a risk analytic: its output (null when it failed), warnings and the error. */
export function riskResultSchema<O extends z.ZodType>(output: O) {
  return z.object({ output: output.nullable(), warnings: z.array(RiskWarningSchema), error: RiskErrorSchema.nullable() });
}
export interface RiskResult<O> {
  output: O | null;
  warnings: RiskWarning[];
  error: { code: RiskErrorCode; message: string; details: Record<string, unknown> } | null;
}

/**
 * Contract of kind `risk-tool`: one risk analytic (volatility, drawdown, VaR).
 * The host assembles the input ({@link RiskInput}, built with
 * {@link riskInputSchema}), validates it with `inputSchema` (whose `parameters`
 * member is published in the catalog), runs `compute` in a worker and validates
 * the result with `outputSchema`. `I` and `O` default to the host's input and
 * an unknown output; a tool may declare a narrower input (its schema reads the
 * fields it needs).
 */
export interface RiskTool<I = RiskInput, O = unknown> {
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
