/**
 * The input every risk analytic receives (assembled by the host from the portfolio engine and the
 * price history) and the result it returns: an output of its kind, warnings and, when it cannot
 * produce one, an error with one of the risk API's error codes (docs/risk.md "Requests").
 */
import { definePlugin, DecimalStringSchema, z } from "../../sdk/index.ts";
import type { RiskMode, RiskScope } from "../../sdk/index.ts";

/**
 * Finite floats, checked in one pass: tens of thousands of values per input, where a schema per
 * element would cost more than the analytic (NaN and ±Infinity are refused).
 */
const Floats = z.custom<number[]>((v) => Array.isArray(v) && v.every((x) => typeof x === "number" && Number.isFinite(x)), "finite numbers");
const Days = z.custom<string[]>((v) => Array.isArray(v) && v.every((x) => typeof x === "string"), "ISO dates");

/** A value series in the target currency, oldest first. */
export const SeriesSchema = z.object({ dates: Days, values: Floats });
export type Series = z.output<typeof SeriesSchema>;

/** One asset of the scope: its value per unit on the shared `asset_dates` and its weight today. */
export const AssetSeriesSchema = z.object({
  asset_id: z.number().int(),
  name: z.string(),
  asset_type: z.string().nullable(),
  /** Sector and country weights (fractions) when the asset is classified. */
  sectors: z.record(z.string(), z.number()).nullable(),
  geography: z.record(z.string(), z.number()).nullable(),
  /** Share of the scope's value today (current composition), or null. */
  weight: z.number().nullable(),
  values: Floats,
});
export type AssetSeries = z.output<typeof AssetSeriesSchema>;

export const RISK_ERROR_CODES = [
  "analytic_not_found", "incompatible_scope", "incompatible_mode", "invalid_parameters", "insufficient_history", "undefined_metric",
  "data_unavailable", "invalid_covariance", "resource_limit", "worker_busy", "execution_timeout", "optimization_infeasible",
  "execution_failed",
] as const;
export type RiskErrorCode = (typeof RISK_ERROR_CODES)[number];

const BaseInput = {
  scope: z.enum(["asset", "asset_set", "portfolio"]),
  mode: z.enum(["historical", "current_composition"]),
  currency: z.string(),
  /** The scope's value on the last date (money), or null. */
  end_value: DecimalStringSchema.nullable(),
  /** The scope's value series (asset, portfolio); null for asset sets. */
  series: SeriesSchema.nullable(),
  asset_dates: Days,
  assets: z.array(AssetSeriesSchema),
  /** The benchmark's value series on its own dates (comparison analytics), or null. */
  benchmark: SeriesSchema.nullable(),
  /** Extra data the host resolves for one analytic (the stress scenario and its window prices), or null. */
  context: z.unknown().nullable().default(null),
};

export function riskInputSchema<P extends z.ZodType>(parameters: P) {
  return z.object({ ...BaseInput, parameters });
}
export type RiskInput<P> = Omit<z.output<ReturnType<typeof riskInputSchema>>, "parameters"> & { parameters: P };

export const WarningSchema = z.object({
  code: z.string(),
  message: z.string(),
  details: z.record(z.string(), z.unknown()),
  degrades_result: z.boolean(),
});
export type RiskWarning = z.output<typeof WarningSchema>;

export const ErrorSchema = z.object({ code: z.enum(RISK_ERROR_CODES), message: z.string(), details: z.record(z.string(), z.unknown()) });

export function riskResultSchema<O extends z.ZodType>(output: O) {
  return z.object({ output: output.nullable(), warnings: z.array(WarningSchema), error: ErrorSchema.nullable() });
}
export interface RiskResult<O> {
  output: O | null;
  warnings: RiskWarning[];
  error: { code: RiskErrorCode; message: string; details: Record<string, unknown> } | null;
}

/** An analytic that cannot produce its output. */
export class RiskFailure extends Error {
  constructor(readonly code: RiskErrorCode, message: string, readonly details: Record<string, unknown> = {}) {
    super(message);
  }
}

export function fail(code: RiskErrorCode, message: string, details: Record<string, unknown> = {}): never {
  throw new RiskFailure(code, message, details);
}

export function warning(code: string, message: string, details: Record<string, unknown> = {}, degrades = true): RiskWarning {
  return { code, message, details, degrades_result: degrades };
}

export interface RiskToolSpec<P extends z.ZodType, O extends z.ZodType> {
  id: string;
  name: string;
  description: string;
  version?: string;
  outputKind: string;
  scopes: RiskScope[];
  modes: RiskMode[];
  minObservations: number;
  parameters: P;
  output: O;
  /** The math; throws `RiskFailure` (via `fail`) when no output can be produced, pushes warnings. */
  compute(input: RiskInput<z.output<P>>, warnings: RiskWarning[]): z.output<O>;
}

/** A `risk-tool` plugin from the analytic's math: failures become the result's `error`, never an exception. */
export function defineRiskTool<P extends z.ZodType, O extends z.ZodType>(spec: RiskToolSpec<P, O>) {
  const inputSchema = riskInputSchema(spec.parameters);
  const outputSchema = riskResultSchema(spec.output);
  return definePlugin({
    description: spec.description,
    id: spec.id,
    kind: "risk-tool",
    name: spec.name,
    version: spec.version ?? "1.0.0",
    create: () => ({
      catalog: {
        algorithmVersion: spec.version ?? "1.0.0", minObservations: spec.minObservations, outputKind: spec.outputKind,
        supportedModes: spec.modes, supportedScopes: spec.scopes,
      },
      compute(input: z.output<typeof inputSchema>): RiskResult<z.output<O>> {
        const warnings: RiskWarning[] = [];
        try {
          return { output: spec.compute(input as RiskInput<z.output<P>>, warnings), warnings, error: null };
        } catch (e) {
          if (e instanceof RiskFailure) return { output: null, warnings, error: { code: e.code, message: e.message, details: e.details } };
          throw e;
        }
      },
      inputSchema,
      outputSchema,
    }),
  });
}

/** Returns of a series, refusing too short or non-positive ones. */
export function seriesReturns(values: readonly number[], minObservations: number): number[] {
  if (values.length === 0) fail("data_unavailable", "No value in the period (no prices, or no FX rate to the target currency)");
  if (values.some((v) => !(v > 0))) fail("data_unavailable", "The value series has days with a zero or negative value", {});
  const observations = Math.max(0, values.length - 1);
  if (observations < minObservations) {
    fail("insufficient_history", `${observations} return observations, at least ${minObservations} needed`, {
      observations, min_observations: minObservations,
    });
  }
  const out: number[] = [];
  for (let i = 1; i < values.length; i++) out.push(values[i]! / values[i - 1]! - 1);
  return out;
}

/** The value series of a single-series scope (asset, portfolio). */
export function scopeSeries(input: { series: Series | null }): Series {
  return input.series ?? fail("incompatible_scope", "This analytic needs a single value series (asset or portfolio scope)");
}

/** `min_observations` may be raised per request, never lowered below the analytic's floor. */
export function minObservationsParam(floor: number) {
  return z.number().int().min(floor).max(100_000).default(floor).describe(`Return observations needed at least (≥ ${floor})`);
}
