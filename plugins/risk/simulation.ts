import { uniformFloat64 } from "pure-rand/distribution/uniformFloat64";
import { xoroshiro128plus } from "pure-rand/generator/xoroshiro128plus";
import { Decimal, DecimalStringSchema, toDecimalString, z } from "../../sdk/index.ts";
import { defineRiskTool, fail, minObservationsParam, scopeSeries, seriesReturns } from "./contract.ts";
import { mean, quantileLinear, sampleStd } from "./stats.ts";

const MIN = 30;
/** paths × horizon_days above this is refused with `resource_limit` (memory: 8 bytes per cell). */
export const MAX_SIMULATION_CELLS = 5_040_000;
const PERCENTILES = [0.05, 0.25, 0.5, 0.75, 0.95] as const;

export const SimulationParameters = z.object({
  method: z.enum(["bootstrap", "gbm"]).default("bootstrap").describe("Moving-block bootstrap of historical returns, or geometric Brownian motion"),
  paths: z.number().int().min(100).max(100_000).default(1000).describe("Simulated paths"),
  horizon_days: z.number().int().min(1).max(2520).default(252).describe("Trading days simulated"),
  seed: z.number().int().min(0).max(2 ** 31 - 1).default(42).describe("Seed of the xoroshiro128+ generator: the same seed gives the same output"),
  block_size: z.number().int().min(1).max(252).default(5).describe("Consecutive returns per bootstrap block"),
  min_observations: minObservationsParam(MIN),
}).strict();
export type SimulationParameters = z.output<typeof SimulationParameters>;

const Stats = z.object({ p5: z.number(), p25: z.number(), p50: z.number(), p75: z.number(), p95: z.number() });

export interface SimulationOut {
  terminal: { mean: number; p5: number; p25: number; p50: number; p75: number; p95: number; probability_of_loss: number; var_95: number; cvar_95: number };
  path_percentiles: { day: number; p5: number; p50: number; p95: number }[];
}

/**
 * Simulated growth of 1 over `horizon_days` (docs/risk.md "Simulation"). Draws come from
 * pure-rand's xoroshiro128+ seeded with `seed`, each uniform from `uniformFloat64`.
 * bootstrap: blocks of `block_size` consecutive historical returns, each starting at
 * ⌊u·(n − b + 1)⌋, concatenated until the horizon; a path's value is the running product of 1 + r.
 * gbm: daily log-growth m + s·z with m, s the mean and sample stdev of log(1 + r); normals by
 * Box–Muller, both of a pair used in turn: ρ = √(−2 ln(1 − u₁)), z = ρ cos(2π u₂), then ρ sin(2π u₂);
 * a path's log value is the running sum, its value exp of it (taken only where a statistic needs it).
 */
export function simulate(returns: readonly number[], p: SimulationParameters): SimulationOut {
  const { paths, horizon_days: h } = p;
  const rng = xoroshiro128plus(p.seed);
  // Day-major: cells[t * paths + path], growth of 1 (bootstrap) or its logarithm (gbm).
  const cells = new Float64Array(paths * h);
  const n = returns.length;
  const b = Math.min(p.block_size, n);
  const gbm = p.method === "gbm";
  const logs = returns.map((r) => Math.log(1 + r));
  const m = mean(logs);
  const s = sampleStd(logs);
  let spare: number | null = null;
  const normal = () => {
    if (spare !== null) { const z = spare; spare = null; return z; }
    const rho = Math.sqrt(-2 * Math.log(1 - uniformFloat64(rng)));
    const theta = 2 * Math.PI * uniformFloat64(rng);
    spare = rho * Math.sin(theta);
    return rho * Math.cos(theta);
  };
  for (let path = 0; path < paths; path++) {
    if (!gbm) {
      let v = 1;
      let t = 0;
      while (t < h) {
        const start = Math.floor(uniformFloat64(rng) * (n - b + 1));
        for (let k = 0; k < b && t < h; k++, t++) {
          v *= 1 + returns[start + k]!;
          cells[t * paths + path] = v;
        }
      }
    } else {
      let l = 0;
      for (let t = 0; t < h; t++) {
        l += m + s * normal();
        cells[t * paths + path] = l;
      }
    }
  }
  const value = (x: number) => (gbm ? Math.exp(x) : x) - 1;
  /** Percentile q (linear interpolation) of the day's returns, from the sorted cells of that day. */
  const pct = (sorted: Float64Array, q: number) => {
    const pos = (sorted.length - 1) * q;
    const lo = Math.floor(pos);
    const hi = Math.min(lo + 1, sorted.length - 1);
    const a = value(sorted[lo]!);
    return a + (pos - lo) * (value(sorted[hi]!) - a);
  };
  const path_percentiles: SimulationOut["path_percentiles"] = [];
  let day = new Float64Array(0);
  for (let t = 0; t < h; t++) {
    day = cells.subarray(t * paths, (t + 1) * paths).sort();
    path_percentiles.push({ day: t + 1, p5: pct(day, 0.05), p50: pct(day, 0.5), p95: pct(day, 0.95) });
  }
  // `day` now holds the sorted terminal cells.
  const terminal = Array.from(day, value);
  const q5 = quantileLinear(terminal, 0.05);
  const [p5, p25, p50, p75, p95] = PERCENTILES.map((q) => pct(day, q)) as [number, number, number, number, number];
  return {
    terminal: {
      mean: mean(terminal), p5, p25, p50, p75, p95, probability_of_loss: terminal.filter((x) => x < 0).length / paths,
      var_95: -q5, cvar_95: -mean(terminal.filter((x) => x <= q5)),
    },
    path_percentiles,
  };
}

export const simulationPlugin = defineRiskTool({
  id: "simulation",
  name: "Monte Carlo simulation",
  description: "Seeded block-bootstrap or geometric-Brownian-motion paths of today's holdings: percentiles of the terminal value and of the path",
  outputKind: "simulation",
  scopes: ["asset", "portfolio"],
  modes: ["current_composition"],
  minObservations: MIN,
  parameters: SimulationParameters,
  output: z.object({
    kind: z.literal("simulation"), method: z.string(), paths: z.number().int(), horizon_days: z.number().int(), seed: z.number().int(),
    block_size: z.number().int(), start_value: DecimalStringSchema.nullable(),
    terminal: Stats.extend({ mean: z.number(), probability_of_loss: z.number(), var_95: z.number(), cvar_95: z.number() }),
    terminal_value: Stats.extend({}).partial().extend({ p5: DecimalStringSchema, p50: DecimalStringSchema, p95: DecimalStringSchema }).nullable(),
    path_percentiles: z.array(z.object({ day: z.number().int(), p5: z.number(), p50: z.number(), p95: z.number() })),
  }),
  compute(input) {
    const p = input.parameters;
    if (p.paths * p.horizon_days > MAX_SIMULATION_CELLS) {
      fail("resource_limit", `paths × horizon_days may be at most ${MAX_SIMULATION_CELLS}`, { cells: p.paths * p.horizon_days, max_cells: MAX_SIMULATION_CELLS });
    }
    const s = scopeSeries(input);
    const returns = seriesReturns(s.values, p.min_observations);
    const out = simulate(returns, p);
    const money = (r: number) => toDecimalString(new Decimal(input.end_value!).times(new Decimal(1 + r)).toDecimalPlaces(2));
    return {
      kind: "simulation" as const, method: p.method, paths: p.paths, horizon_days: p.horizon_days, seed: p.seed, block_size: p.block_size,
      start_value: input.end_value, terminal: out.terminal,
      terminal_value: input.end_value === null ? null : { p5: money(out.terminal.p5), p50: money(out.terminal.p50), p95: money(out.terminal.p95) },
      path_percentiles: out.path_percentiles,
    };
  },
});
