/** KPI, VaR/CVaR and drawdown of one value series, shared by the scope and the per-asset (`asset_set_*`) analytics. */
import { fail, type RiskWarning, warning } from "./contract.ts";
import {
  calendarDays, drawdownEpisodes, finiteOrNull, horizonReturns, mean, moments, normalDensity, normalQuantile, quantileLinear, sampleStd,
  TRADING_DAYS,
} from "./stats.ts";

export interface Kpi {
  annualized_return: number | null;
  annualized_volatility: number | null;
  sharpe_ratio: number | null;
  sortino_ratio: number | null;
  max_drawdown: number;
  max_drawdown_duration_days: number;
  observations: number;
}

/** The formulas of docs/risk.md "Formulas"; an undefined ratio (flat series) is null with an `undefined_metric` warning. */
export function kpi(dates: readonly string[], values: readonly number[], returns: readonly number[], riskFree: number, warnings: RiskWarning[]): Kpi {
  const n = returns.length;
  const annualizedReturn = (values.at(-1)! / values[0]!) ** (TRADING_DAYS / n) - 1;
  const volatility = sampleStd(returns) * Math.sqrt(TRADING_DAYS);
  const excess = mean(returns) * TRADING_DAYS - riskFree;
  let sharpe: number | null = null;
  if (volatility > 0) sharpe = finiteOrNull(excess / volatility);
  else warnings.push(warning("undefined_metric", "Sharpe ratio is undefined: the returns have zero volatility", { metric: "sharpe_ratio" }));
  const dailyRf = riskFree / TRADING_DAYS;
  let downside = 0;
  for (const r of returns) downside += Math.min(r - dailyRf, 0) ** 2;
  const downsideDev = Math.sqrt(downside / n) * Math.sqrt(TRADING_DAYS);
  let sortino: number | null = null;
  if (downsideDev > 0) sortino = finiteOrNull(excess / downsideDev);
  else warnings.push(warning("undefined_metric", "Sortino ratio is undefined: no return below the risk-free rate", { metric: "sortino_ratio" }));
  const dd = drawdown(dates, values);
  return {
    annualized_return: finiteOrNull(annualizedReturn),
    annualized_volatility: finiteOrNull(volatility),
    sharpe_ratio: sharpe,
    sortino_ratio: sortino,
    max_drawdown: dd.max_drawdown,
    max_drawdown_duration_days: dd.longest_days,
    observations: n,
  };
}

export interface DrawdownOut {
  max_drawdown: number;
  peak_date: string | null;
  trough_date: string | null;
  recovery_date: string | null;
  /** Calendar days of the longest episode, peak to recovery (or to the last date when open). */
  longest_days: number;
  episodes: { peak_date: string; trough_date: string; recovery_date: string | null; depth: number; duration_days: number }[];
}

export function drawdown(dates: readonly string[], values: readonly number[]): DrawdownOut {
  const episodes = drawdownEpisodes(values).map((e) => ({
    peak_date: dates[e.peakIndex]!,
    trough_date: dates[e.troughIndex]!,
    recovery_date: e.recoveryIndex === null ? null : dates[e.recoveryIndex]!,
    depth: e.depth,
    duration_days: calendarDays(dates[e.peakIndex]!, e.recoveryIndex === null ? dates.at(-1)! : dates[e.recoveryIndex]!),
  }));
  let worst: (typeof episodes)[number] | null = null;
  for (const e of episodes) if (worst === null || e.depth < worst.depth) worst = e;
  return {
    max_drawdown: worst?.depth ?? 0,
    peak_date: worst?.peak_date ?? null,
    trough_date: worst?.trough_date ?? null,
    recovery_date: worst?.recovery_date ?? null,
    longest_days: episodes.reduce((m, e) => Math.max(m, e.duration_days), 0),
    episodes,
  };
}

export type VarMethod = "historical" | "parametric" | "cornish_fisher";

/** Nodes of the midpoint rule averaging the Cornish-Fisher quantile over the tail (its CVaR). */
export const CF_CVAR_NODES = 10_000;

/**
 * VaR and CVaR as positive loss fractions at confidence c over h days.
 * historical: quantile of the overlapping h-day compounded returns at p = 1 − c (numpy linear), CVaR the
 * mean of those at or below it. parametric: μ_h = h·mean, σ_h = √h·stdev; VaR = −(μ_h + z_p σ_h),
 * CVaR = −μ_h + σ_h φ(z_p) / p. cornish_fisher: z_p replaced by the Cornish-Fisher expansion with the
 * sample's skewness and excess kurtosis; CVaR the mean of the expanded quantile over the tail (midpoint rule).
 */
export function varCvar(returns: readonly number[], confidence: number, horizon: number, method: VarMethod): { var: number; cvar: number } {
  const p = 1 - confidence;
  if (method === "historical") {
    const hr = horizonReturns(returns, horizon);
    if (hr.length < 2) fail("insufficient_history", "Too few observations for this horizon", { horizon_days: horizon, windows: hr.length });
    const q = quantileLinear(hr, p);
    const tail = hr.filter((r) => r <= q);
    return { var: -q, cvar: -mean(tail) };
  }
  const mu = mean(returns) * horizon;
  const sigma = sampleStd(returns) * Math.sqrt(horizon);
  if (method === "parametric") {
    const z = normalQuantile(p);
    return { var: -(mu + z * sigma), cvar: -mu + (sigma * normalDensity(z)) / p };
  }
  const { skewness: s, excessKurtosis: k } = moments(returns);
  if (!Number.isFinite(s) || !Number.isFinite(k)) fail("undefined_metric", "Skewness and kurtosis are undefined for a flat series");
  const cf = (u: number) => {
    const z = normalQuantile(u);
    return z + ((z * z - 1) * s) / 6 + ((z ** 3 - 3 * z) * k) / 24 - ((2 * z ** 3 - 5 * z) * s * s) / 36;
  };
  let tail = 0;
  for (let i = 0; i < CF_CVAR_NODES; i++) tail += mu + cf((p * (i + 0.5)) / CF_CVAR_NODES) * sigma;
  return { var: -(mu + cf(p) * sigma), cvar: -(tail / CF_CVAR_NODES) };
}
