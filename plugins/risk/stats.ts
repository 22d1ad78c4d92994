/**
 * The statistics every risk analytic shares (docs/risk.md states each formula). Plain float64 over
 * arrays; callers turn non-finite results into `null` plus a warning, never into NaN on the wire.
 */
import jstat from "jstat";

/** Trading days per year used to annualise (docs/risk.md "Formulas"). */
export const TRADING_DAYS = 252;

/** Simple returns `v[i] / v[i−1] − 1`; a non-positive previous value gives NaN (callers refuse such series). */
export function simpleReturns(values: readonly number[]): number[] {
  const out: number[] = [];
  for (let i = 1; i < values.length; i++) {
    const prev = values[i - 1]!;
    out.push(prev > 0 ? values[i]! / prev - 1 : Number.NaN);
  }
  return out;
}

export function mean(xs: readonly number[]): number {
  let s = 0;
  for (const x of xs) s += x;
  return xs.length === 0 ? Number.NaN : s / xs.length;
}

/** Sample variance (n − 1), two-pass. */
export function sampleVariance(xs: readonly number[]): number {
  const n = xs.length;
  if (n < 2) return Number.NaN;
  const m = mean(xs);
  let s = 0;
  for (const x of xs) s += (x - m) * (x - m);
  return s / (n - 1);
}

export function sampleStd(xs: readonly number[]): number {
  return Math.sqrt(sampleVariance(xs));
}

/** Sample covariance (n − 1) of two equally long series. */
export function sampleCovariance(a: readonly number[], b: readonly number[]): number {
  const n = a.length;
  if (n < 2 || b.length !== n) return Number.NaN;
  const ma = mean(a);
  const mb = mean(b);
  let s = 0;
  for (let i = 0; i < n; i++) s += (a[i]! - ma) * (b[i]! - mb);
  return s / (n - 1);
}

/** Pearson correlation; NaN when either series is flat. */
export function pearson(a: readonly number[], b: readonly number[]): number {
  const va = sampleVariance(a);
  const vb = sampleVariance(b);
  if (!(va > 0) || !(vb > 0)) return Number.NaN;
  return sampleCovariance(a, b) / Math.sqrt(va * vb);
}

/** Quantile of `p` in [0, 1] with linear interpolation at position (m − 1)·p of the sorted values (numpy's default). */
export function quantileLinear(values: readonly number[], p: number): number {
  const sorted = [...values].sort((x, y) => x - y);
  const m = sorted.length;
  if (m === 0) return Number.NaN;
  const pos = (m - 1) * p;
  const lo = Math.floor(pos);
  const hi = Math.min(lo + 1, m - 1);
  return sorted[lo]! + (pos - lo) * (sorted[hi]! - sorted[lo]!);
}

/** Biased (population) skewness m3 / m2^1.5 and excess kurtosis m4 / m2² − 3, as scipy's defaults. */
export function moments(xs: readonly number[]): { skewness: number; excessKurtosis: number } {
  const m = mean(xs);
  let m2 = 0;
  let m3 = 0;
  let m4 = 0;
  for (const x of xs) {
    const d = x - m;
    m2 += d * d;
    m3 += d * d * d;
    m4 += d * d * d * d;
  }
  const n = xs.length;
  m2 /= n;
  m3 /= n;
  m4 /= n;
  return { skewness: m3 / m2 ** 1.5, excessKurtosis: m4 / (m2 * m2) - 3 };
}

/** Standard normal quantile (exact to ~1e-16, jstat) and density. */
export function normalQuantile(p: number): number {
  return jstat.normal.inv(p, 0, 1);
}
export function normalDensity(z: number): number {
  return Math.exp(-0.5 * z * z) / Math.sqrt(2 * Math.PI);
}

/** Overlapping compounded h-day returns Π(1 + r_j) − 1 over every window of h consecutive returns. */
export function horizonReturns(returns: readonly number[], h: number): number[] {
  if (h <= 1) return [...returns];
  const out: number[] = [];
  for (let i = 0; i + h <= returns.length; i++) {
    let g = 1;
    for (let j = i; j < i + h; j++) g *= 1 + returns[j]!;
    out.push(g - 1);
  }
  return out;
}

export interface DrawdownEpisode {
  peakIndex: number;
  troughIndex: number;
  /** Index of the first value back at or above the peak, or null when not recovered by the end. */
  recoveryIndex: number | null;
  /** trough / peak − 1 (≤ 0). */
  depth: number;
}

/**
 * Drawdown episodes of a value series: an episode starts at a running peak followed by a lower
 * value, reaches its trough (the lowest value before recovery) and ends on the first value at or
 * above the peak (or stays open at the end).
 */
export function drawdownEpisodes(values: readonly number[]): DrawdownEpisode[] {
  const out: DrawdownEpisode[] = [];
  let peak = 0;
  let current: DrawdownEpisode | null = null;
  for (let i = 1; i < values.length; i++) {
    const v = values[i]!;
    if (current === null) {
      if (v >= values[peak]!) { peak = i; continue; }
      current = { peakIndex: peak, troughIndex: i, recoveryIndex: null, depth: v / values[peak]! - 1 };
    } else if (v >= values[current.peakIndex]!) {
      current.recoveryIndex = i;
      out.push(current);
      current = null;
      peak = i;
    } else if (v < values[current.troughIndex]!) {
      current.troughIndex = i;
      current.depth = v / values[current.peakIndex]! - 1;
    }
  }
  if (current) out.push(current);
  return out;
}

/** Whole calendar days between two ISO dates. */
export function calendarDays(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** A finite number, or null (NaN and ±Infinity never reach a response). */
export function finiteOrNull(x: number): number | null {
  return Number.isFinite(x) ? x : null;
}

/** The columns minus their means, as typed arrays (the inner loops of covariance and correlation). */
function centered(cols: readonly (readonly number[])[]): Float64Array[] {
  return cols.map((c) => {
    const m = mean(c);
    const out = new Float64Array(c.length);
    for (let t = 0; t < c.length; t++) out[t] = c[t]! - m;
    return out;
  });
}

function dot(a: Float64Array, b: Float64Array): number {
  let s = 0;
  for (let t = 0; t < a.length; t++) s += a[t]! * b[t]!;
  return s;
}

/** Sample covariance matrix (n − 1) of column series `cols[i]` (all equally long). */
export function covarianceMatrix(cols: readonly (readonly number[])[]): number[][] {
  const k = cols.length;
  const c = centered(cols);
  const n = cols[0]?.length ?? 0;
  const out = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  for (let i = 0; i < k; i++) for (let j = i; j < k; j++) out[i]![j] = out[j]![i] = dot(c[i]!, c[j]!) / (n - 1);
  return out;
}

/** Pearson correlation matrix; NaN for pairs with a flat series. */
export function correlationMatrix(cols: readonly (readonly number[])[]): number[][] {
  const c = centered(cols);
  const norms = c.map((x) => Math.sqrt(dot(x, x)));
  return c.map((a, i) => c.map((b, j) => (norms[i]! > 0 && norms[j]! > 0 ? dot(a, b) / (norms[i]! * norms[j]!) : Number.NaN)));
}
