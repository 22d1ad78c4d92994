/**
 * Returns over the replay's daily states (docs/portfolio.md "Returns"): daily-chained TWRR,
 * MWRR as an XIRR (summary and per-day series), simple ROI, and the series' check against the summary ("Series check").
 *
 * Rates of return are solved in binary floating point: money is summed in decimals, converted
 * once per flow, and the root is reported at 10 decimals, far above float64's error; an exact
 * decimal `pow` per flow, per day, per iteration would cost about a hundred times more.
 */
import { Decimal } from "../money/decimal.ts";

const ONE = new Decimal(1);

/** Cumulative TWRR at each day: Π(1 + HPR) − 1 with `HPR = (NAV_t − F_t − NAV_{t−1}) / NAV_{t−1}`, 0 when NAV_{t−1} ≤ 0. */
export function twrrSeries(navs: readonly Decimal[], flows: readonly Decimal[]): Decimal[] {
  return twrrGrowth(navs, flows).map((g) => g.minus(1));
}

/** The growth factor Π(1 + HPR) of each day; `prefix` holds the factors of the first days when they are known. */
export function twrrGrowth(navs: readonly Decimal[], flows: readonly Decimal[], prefix: readonly Decimal[] = []): Decimal[] {
  const out: Decimal[] = prefix.slice(0, navs.length);
  let growth = out.at(-1) ?? ONE;
  for (let i = out.length; i < navs.length; i++) {
    if (i > 0 && navs[i - 1]!.gt(0)) {
      const prev = navs[i - 1]!;
      growth = growth.times(navs[i]!.minus(flows[i]!).div(prev));
    }
    out.push(growth);
  }
  return out;
}

export type MwrrUnavailableReason = "zero_day_period" | "nav_not_positive" | "no_net_invested_capital" | "solver_failed";

export interface Mwrr {
  /** The solved annual rate (fraction), or null when not calculable. */
  rate: number | null;
  /** The annual rate when the period has at least 30 days, else null. */
  annualized: number | null;
  cumulative: number | null;
  days: number;
  reason: MwrrUnavailableReason | null;
}

/**
 * The period's cash flows seen by the investor: `−NAV_start` on day 0, `−F_t` on each later day,
 * `+NAV_end` on the last day (amounts of one day summed). `t` in years (ACT/365).
 */
export class MwrrFlows {
  readonly times: number[] = [];
  readonly amounts: number[] = [];
  private invested = 0;

  constructor(private readonly navStart: number) {
    this.invested = navStart;
  }

  /** Net external inflow of day `day` (days since the start), positive = money in. */
  addFlow(day: number, inflow: number): void {
    this.invested += inflow;
    if (inflow !== 0) { this.times.push(day / 365); this.amounts.push(-inflow); }
  }

  /** MWRR of the period ending on `day` with end NAV `navEnd` (the day's flow already added). */
  solve(day: number, navEnd: number, guess: number): Mwrr {
    if (day === 0) return unavailable(day, "zero_day_period");
    if (!(navEnd > 0)) return unavailable(day, "nav_not_positive");
    if (!(this.invested > 0)) return unavailable(day, "no_net_invested_capital");
    const r = solveXirr(this.navStart, this.times, this.amounts, day / 365, navEnd, guess);
    if (r === null) return unavailable(day, "solver_failed");
    return { rate: r, annualized: day >= 30 ? r : null, cumulative: Math.pow(1 + r, day / 365) - 1, days: day, reason: null };
  }
}

function unavailable(days: number, reason: MwrrUnavailableReason): Mwrr {
  return { rate: null, annualized: null, cumulative: null, days, reason };
}

/** The root of Σ cᵢ(1+r)^−tᵢ with −navStart at t = 0 and +navEnd at tEnd: Newton, then bisection. */
export function solveXirr(navStart: number, times: readonly number[], amounts: readonly number[], tEnd: number, navEnd: number, guess: number): number | null {
  const f = (r: number): [number, number] => {
    const l = Math.log1p(r);
    let v = -navStart;
    let d = 0;
    for (let i = 0; i < times.length; i++) {
      const disc = Math.exp(-times[i]! * l);
      v += amounts[i]! * disc;
      d -= times[i]! * amounts[i]! * disc / (1 + r);
    }
    const disc = Math.exp(-tEnd * l);
    v += navEnd * disc;
    d -= tEnd * navEnd * disc / (1 + r);
    return [v, d];
  };
  const scale = Math.max(navStart, navEnd, 1);
  let r = guess;
  for (let i = 0; i < 60; i++) {
    const [v, d] = f(r);
    if (Math.abs(v) < 1e-12 * scale) return r;
    if (d === 0 || !Number.isFinite(d)) break;
    const next = r - v / d;
    if (!Number.isFinite(next) || next <= -1) break;
    if (Math.abs(next - r) < 1e-13) return next;
    r = next;
  }
  // Bisection over (−0.9999, 100) when Newton leaves the domain or stalls.
  let lo = -0.9999;
  let hi = 100;
  let fLo = f(lo)[0];
  if (!Number.isFinite(fLo) || fLo * f(hi)[0] > 0) return null;
  for (let i = 0; i < 200; i++) {
    const mid = (lo + hi) / 2;
    const fMid = f(mid)[0];
    if (Math.abs(fMid) < 1e-12 * scale || hi - lo < 1e-14) return mid;
    if (fMid * fLo < 0) hi = mid;
    else { lo = mid; fLo = fMid; }
  }
  return null;
}

/** Guess for the next day: the previous root, or 0.1 when it left (−0.99, 2). */
function warmGuess(previous: number | null): number {
  return previous !== null && previous > -0.99 && previous < 2 ? previous : 0.1;
}

/**
 * MWRR of `[start, day]` for every day of the period; `warm` reuses the previous root as the
 * guess. `prefix`: the warm series of the first days when they are known (only those after it are solved).
 */
export function mwrrSeries(navs: readonly Decimal[], flows: readonly Decimal[], warm: boolean, prefix: readonly Mwrr[] = []): Mwrr[] {
  const out: Mwrr[] = warm ? prefix.slice(0, navs.length) : [];
  if (navs.length === 0) return out;
  const acc = new MwrrFlows(navs[0]!.toNumber());
  let previous: number | null = null;
  for (let day = 1; day < out.length; day++) acc.addFlow(day, flows[day]!.toNumber());
  for (const m of out) if (m.rate !== null) previous = m.rate;
  for (let day = out.length; day < navs.length; day++) {
    if (day > 0) acc.addFlow(day, flows[day]!.toNumber());
    const m = acc.solve(day, navs[day]!.toNumber(), warm ? warmGuess(previous) : 0.1);
    if (m.rate !== null) previous = m.rate;
    out.push(m);
  }
  return out;
}

/** The summary's MWRR over the whole period, solved cold from 0.1. */
export function mwrrSummary(navs: readonly Decimal[], flows: readonly Decimal[]): Mwrr {
  if (navs.length === 0) return unavailable(0, "zero_day_period");
  const acc = new MwrrFlows(navs[0]!.toNumber());
  for (let day = 1; day < navs.length; day++) acc.addFlow(day, flows[day]!.toNumber());
  return acc.solve(navs.length - 1, navs.at(-1)!.toNumber(), 0.1);
}

export interface SeriesCheck {
  /** The series to publish (possibly rebuilt, possibly nulled). */
  series: Mwrr[];
  /** Present when the series was nulled (MWRR_SERIES_UNRELIABLE); percentages rounded to two decimals. */
  unreliable?: { summaryCum: number; seriesCum: number | null; divergencePp: number | null; firstBadDate: string };
}

/**
 * The series check (docs/portfolio.md "Returns", Series check): compare the summary's cumulative MWRR with the series' last point; beyond
 * max(0.005, 5 % of |summary|) rebuild the series cold, and null it when it still disagrees.
 */
export function checkMwrrSeries(summaryCum: number | null, series: Mwrr[], dates: readonly string[], rebuild: () => Mwrr[]): SeriesCheck {
  if (summaryCum === null || series.length < 2) return { series };
  const tolerance = Math.max(0.005, 0.05 * Math.abs(summaryCum));
  const agrees = (s: Mwrr[]) => s.at(-1)!.cumulative !== null && Math.abs(s.at(-1)!.cumulative! - summaryCum) <= tolerance;
  if (agrees(series)) return { series };
  const cold = rebuild();
  if (agrees(cold)) return { series: cold };
  const last = cold.at(-1)!.cumulative;
  // Where solving went wrong: the first date the warm and the cold series part (beyond the
  // tolerance, or one of them without a value), else the last date.
  let firstBad = cold.length - 1;
  for (let i = 0; i < cold.length; i++) {
    const a = series[i]!.cumulative;
    const b = cold[i]!.cumulative;
    if ((a === null) !== (b === null) || (a !== null && b !== null && Math.abs(a - b) > tolerance)) { firstBad = i; break; }
  }
  const nulled = series.map((m) => ({ ...m, annualized: null, cumulative: null }));
  return {
    series: nulled,
    unreliable: {
      summaryCum: round2(summaryCum * 100), seriesCum: last === null ? null : round2(last * 100),
      divergencePp: last === null ? null : round2(Math.abs(last - summaryCum) * 100), firstBadDate: dates[firstBad]!,
    },
  };
}

function round2(x: number): number {
  return Math.round(x * 100) / 100;
}
