import { EigenvalueDecomposition, Matrix } from "ml-matrix";
import { solveQP } from "quadprog";
import { z } from "../../sdk/index.ts";
import { defineRiskTool, fail, minObservationsParam } from "./contract.ts";
import { assetReturns } from "./assets.ts";
import { covarianceMatrix, mean, TRADING_DAYS } from "./stats.ts";

const MIN = 30;
/** Smallest eigenvalue of Σ, relative to the largest, below which Σ counts as singular. */
export const MIN_RELATIVE_EIGENVALUE = 1e-10;
const RISK_PARITY_TOLERANCE = 1e-13;
const RISK_PARITY_MAX_ITERATIONS = 100_000;

export const OptimizationParameters = z.object({
  objective: z.enum(["min_risk", "max_sharpe", "risk_parity"]).default("min_risk")
    .describe("min_risk: least variance; max_sharpe: highest (μ − rf) / σ; risk_parity: equal contributions to σ"),
  min_weight: z.number().min(0).max(1).default(0).describe("Lower bound of every weight (long only)"),
  max_weight: z.number().gt(0).max(1).default(1).describe("Upper bound of every weight"),
  risk_free_rate: z.number().min(-1).max(1).default(0).describe("Annual risk-free rate (max_sharpe and the reported Sharpe ratio)"),
  min_observations: minObservationsParam(MIN),
}).strict().refine((p) => p.min_weight <= p.max_weight, { message: "min_weight must not exceed max_weight", path: ["min_weight"] });
export type OptimizationParameters = z.output<typeof OptimizationParameters>;

/** Annualised mean vector and covariance matrix, refusing a singular Σ. */
export function moments(returns: readonly (readonly number[])[]): { mu: number[]; sigma: number[][] } {
  const sigma = covarianceMatrix(returns).map((row) => row.map((x) => x * TRADING_DAYS));
  const eig = new EigenvalueDecomposition(new Matrix(sigma), { assumeSymmetric: true }).realEigenvalues;
  const max = Math.max(...eig);
  const min = Math.min(...eig);
  if (!(max > 0) || min <= MIN_RELATIVE_EIGENVALUE * max) {
    fail("invalid_covariance", "The covariance matrix is singular (an asset is flat or a combination of the others)", { min_eigenvalue: min, max_eigenvalue: max });
  }
  return { mu: returns.map((r) => mean(r) * TRADING_DAYS), sigma };
}

/** quadprog (Goldfarb–Idnani dual active set; 1-indexed arrays): min ½xᵀDx − dᵀx s.t. Aᵀx ≥ b, the first `meq` as equalities. */
function qp(D: number[][], d: number[], A: number[][], b: number[], meq: number): number[] {
  const n = d.length;
  const one = (v: number[]) => [0, ...v];
  const Dm = [[], ...D.map((row) => one(row))] as number[][];
  const Am = [[], ...Array.from({ length: n }, (_, i) => one(A.map((col) => col[i]!)))] as number[][];
  const out = solveQP(Dm, one(d), Am, one(b), meq);
  if (out.message) {
    if (/inconsistent/i.test(out.message)) fail("optimization_infeasible", "No weights satisfy the constraints", { solver: out.message });
    fail("invalid_covariance", `The solver refused the covariance matrix: ${out.message}`);
  }
  return out.solution.slice(1);
}

export function optimize(mu: number[], sigma: number[][], p: OptimizationParameters): number[] {
  const n = mu.length;
  const lo = p.min_weight;
  const hi = p.max_weight;
  if (n * lo > 1 + 1e-12 || n * hi < 1 - 1e-12) {
    fail("optimization_infeasible", `${n} weights between ${lo} and ${hi} cannot sum to 1`, { assets: n, min_weight: lo, max_weight: hi });
  }
  const unit = (i: number) => Array.from({ length: n }, (_, j) => (i === j ? 1 : 0));
  const D = sigma.map((row) => row.map((x) => 2 * x));
  if (p.objective === "min_risk") {
    const A = [new Array(n).fill(1), ...Array.from({ length: n }, (_, i) => unit(i)), ...Array.from({ length: n }, (_, i) => unit(i).map((x) => -x))];
    const b = [1, ...new Array(n).fill(lo), ...new Array(n).fill(-hi)];
    return clean(qp(D, new Array(n).fill(0), A, b, 1), lo, hi);
  }
  if (p.objective === "max_sharpe") {
    // Cornuejols–Tütüncü: min yᵀΣy s.t. (μ − rf)ᵀy = 1, lo·Σy ≤ yᵢ ≤ hi·Σy; then w = y / Σy.
    const excess = mu.map((m) => m - p.risk_free_rate);
    if (!excess.some((e) => e > 0)) fail("optimization_infeasible", "No asset has an expected return above the risk-free rate", { risk_free_rate: p.risk_free_rate });
    const A = [excess, ...Array.from({ length: n }, (_, i) => unit(i).map((x) => x - lo)),
      ...Array.from({ length: n }, (_, i) => unit(i).map((x) => hi - x))];
    const b = [1, ...new Array(2 * n).fill(0)];
    const y = qp(D, new Array(n).fill(0), A, b, 1);
    const s = y.reduce((t, v) => t + v, 0);
    if (!(s > 0)) fail("optimization_infeasible", "No long-only portfolio with a positive excess return satisfies the bounds");
    return clean(y.map((v) => v / s), lo, hi);
  }
  // Risk parity: w ← w·√(σ²/n / (wᵢ(Σw)ᵢ)), renormalised, until every contribution is σ²/n.
  let w = new Array(n).fill(1 / n);
  for (let it = 0; it < RISK_PARITY_MAX_ITERATIONS; it++) {
    const sw = sigma.map((row) => row.reduce((t, x, j) => t + x * w[j]!, 0));
    const variance = sw.reduce((t, x, i) => t + x * w[i]!, 0);
    const target = variance / n;
    const rc = w.map((wi, i) => wi * sw[i]!);
    if (rc.every((r) => Math.abs(r - target) <= RISK_PARITY_TOLERANCE * variance)) break;
    w = w.map((wi, i) => wi * Math.sqrt(target / rc[i]!));
    const total = w.reduce((t, x) => t + x, 0);
    w = w.map((x) => x / total);
  }
  const outside = w.map((x, i) => (x < lo - 1e-9 || x > hi + 1e-9 ? i : -1)).filter((i) => i >= 0);
  if (outside.length > 0) fail("optimization_infeasible", "The risk-parity weights fall outside the bounds", { asset_indexes: outside, weights: w });
  return w;
}

/** Solver round-off (±1e-12) pulled back inside the bounds. */
function clean(w: number[], lo: number, hi: number): number[] {
  return w.map((x) => (Math.abs(x - lo) < 1e-12 ? lo : Math.abs(x - hi) < 1e-12 ? hi : x));
}

export const portfolioOptimizationPlugin = defineRiskTool({
  id: "portfolio_optimization",
  name: "Portfolio optimisation",
  description: "Long-only minimum-variance, maximum-Sharpe or risk-parity weights with per-asset bounds (convex QP, Goldfarb–Idnani)",
  outputKind: "optimization",
  scopes: ["asset_set", "portfolio"],
  modes: ["historical", "current_composition"],
  minObservations: MIN,
  parameters: OptimizationParameters,
  output: z.object({
    kind: z.literal("optimization"), objective: z.string(),
    weights: z.array(z.object({ asset_id: z.number().int(), name: z.string(), weight: z.number(), current_weight: z.number().nullable() })),
    expected_return: z.number(), volatility: z.number(), sharpe_ratio: z.number().nullable(),
  }),
  compute(input) {
    const p = input.parameters;
    const returns = assetReturns(input.assets, p.min_observations, 1);
    const { mu, sigma } = moments(returns);
    const w = optimize(mu, sigma, p);
    const er = w.reduce((t, x, i) => t + x * mu[i]!, 0);
    const vol = Math.sqrt(w.reduce((t, x, i) => t + x * sigma[i]!.reduce((u, s, j) => u + s * w[j]!, 0), 0));
    return {
      kind: "optimization" as const, objective: p.objective,
      weights: input.assets.map((a, i) => ({ asset_id: a.asset_id, name: a.name, weight: w[i]!, current_weight: a.weight })),
      expected_return: er, volatility: vol, sharpe_ratio: vol > 0 ? (er - p.risk_free_rate) / vol : null,
    };
  },
});
