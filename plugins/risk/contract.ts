/**
 * How the built-in risk analytics are written on the SDK's risk-tool contract (the input the host
 * assembles, the result `{output, warnings, error}` with the risk API's error codes; docs/risk.md
 * "Requests"): `defineRiskTool` turns the math into a plugin, `fail` and `warning` report.
 */
import {
  definePlugin, riskInputSchema, riskResultSchema, z,
  type RiskErrorCode, type RiskInput, type RiskMode, type RiskResult, type RiskScope, type RiskSeries, type RiskWarning,
} from "../../sdk/index.ts";

// The contract itself (input, series, warnings, error codes) is the SDK's (sdk/kinds/risk-tool.ts);
// these are the built-in analytics' helpers on top of it.
export type { RiskAssetSeries as AssetSeries, RiskSeries as Series, RiskWarning } from "../../sdk/index.ts";

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
export function scopeSeries(input: { series: RiskSeries | null }): RiskSeries {
  return input.series ?? fail("incompatible_scope", "This analytic needs a single value series (asset or portfolio scope)");
}

/** `min_observations` may be raised per request, never lowered below the analytic's floor. */
export function minObservationsParam(floor: number) {
  return z.number().int().min(floor).max(100_000).default(floor).describe(`Return observations needed at least (≥ ${floor})`);
}
