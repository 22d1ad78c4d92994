/**
 * Returns per calendar month, quarter and year of a report's period (docs/portfolio.md "Period
 * returns"). Each period's figures are those a report over that period alone would give: its
 * daily states are the whole period's days from the close it chains from (the day before the
 * period begins, or the first day computed) to its last day, and the same functions as the
 * summary's (`twrrGrowth`, `mwrrSummary`) run over them.
 */
import { addDays, addMonths, daysBetween } from "../dates/calendar.ts";
import { Decimal } from "../money/decimal.ts";
import { type Mwrr, mwrrSummary, twrrGrowth } from "./returns.calc.ts";

export type PeriodLength = "month" | "quarter" | "year";
export const PERIOD_LENGTHS: readonly PeriodLength[] = ["month", "quarter", "year"];

/** A calendar period cut to the computed days: `start` is the close its returns chain from. */
export interface CalendarPeriod {
  /** First calendar day of the period (YYYY-MM-01). */
  begins: string;
  /** The day before `begins`, or the first computed day when the period begins on or before it. */
  start: string;
  /** The period's last day, or the last computed day. */
  end: string;
}

export interface PeriodReturn extends CalendarPeriod {
  /** TWRR from `start`'s close to `end` in percent (the summary's `twrr_percent` of that period). */
  twrrPercent: Decimal;
  mwrr: Mwrr;
}

const MONTHS: Record<PeriodLength, number> = { month: 1, quarter: 3, year: 12 };
const ONE = new Decimal(1);

/** The calendar periods of `length` from `from` to `to`, oldest first. */
export function calendarPeriods(from: string, to: string, length: PeriodLength): CalendarPeriod[] {
  const out: CalendarPeriod[] = [];
  const step = MONTHS[length];
  const month = Number(from.slice(5, 7));
  const first = length === "month" ? month : length === "quarter" ? Math.floor((month - 1) / 3) * 3 + 1 : 1;
  for (let begins = `${from.slice(0, 4)}-${String(first).padStart(2, "0")}-01`; begins <= to; begins = addMonths(begins, step)) {
    const last = addDays(addMonths(begins, step), -1);
    const start = begins <= from ? from : addDays(begins, -1);
    const end = last < to ? last : to;
    if (end >= start) out.push({ begins, start, end });
  }
  return out;
}

/**
 * The figures of each calendar period computed by an earlier report over daily states from the
 * same first day, valid for its first `days` days (the days whose NAVs and flows did not change
 * since): the periods that end within them, and each day's TWRR growth within its period.
 */
export interface KeptPeriodReturns {
  days: number;
  periods: Record<PeriodLength, readonly PeriodReturn[]>;
  /**
   * Per length, at day `d` from `growthFrom` on: the growth factor from its period's start to `d`
   * (`d` not a period's start day).
   */
  growth: Record<PeriodLength, readonly (Decimal | undefined)[]>;
  /** The first day whose growth is kept (`allPeriodReturns`); a period beginning before it is computed whole. */
  growthFrom: number;
}

/**
 * The returns of each calendar period of `length` over consecutive daily states (`dates[i]` is
 * the day after `dates[i - 1]`), with their NAVs and net external flows. A period of `kept` that
 * ends within its valid days, over the same days, is taken as it is: a period's figures read only
 * its own days, so only the periods touching or after the first changed day are computed again,
 * and those from the kept growth of their days before it. `growth` receives each day's growth
 * within its period (`KeptPeriodReturns.growth`).
 */
export function periodReturns(
  dates: readonly string[], navs: readonly Decimal[], flows: readonly Decimal[], length: PeriodLength, kept?: KeptPeriodReturns,
  growth: (Decimal | undefined)[] = [],
): PeriodReturn[] {
  if (dates.length === 0) return [];
  const from = dates[0]!;
  const reusable = kept ? kept.periods[length] : [];
  const keptGrowth = kept ? kept.growth[length] : [];
  let k = 0;
  return calendarPeriods(from, dates.at(-1)!, length).map((p) => {
    const i = daysBetween(from, p.start);
    const j = daysBetween(from, p.end) + 1;
    // Kept periods are oldest first, like these: one pass finds each.
    while (k < reusable.length && reusable[k]!.begins < p.begins) k++;
    const same = reusable[k];
    if (kept && j <= kept.days && same && same.begins === p.begins && same.start === p.start && same.end === p.end) {
      for (let d = i + 1; d < j; d++) growth[d] = keptGrowth[d]!;
      return same;
    }
    const periodNavs = navs.slice(i, j);
    const periodFlows = flows.slice(i, j);
    // The period's first day is its base (a factor of 1); its days before the kept ones end have their kept factors.
    const known = kept ? Math.min(j, kept.days) : 0;
    const prefix = known > i + 1 && i + 1 >= kept!.growthFrom ? [ONE, ...keptGrowth.slice(i + 1, known) as Decimal[]] : [];
    const periodGrowth = twrrGrowth(periodNavs, periodFlows, prefix);
    for (let d = i + 1; d < j; d++) growth[d] = periodGrowth[d - i]!;
    return { ...p, twrrPercent: periodGrowth.at(-1)!.minus(1).times(100), mwrr: mwrrSummary(periodNavs, periodFlows) };
  });
}

/**
 * The period returns of every length, with what a later run over the same days keeps. The growth
 * is kept for the days of the last two calendar years only (~3 MB of 34-digit factors on ten
 * years otherwise): a resumed report continues the periods open at its checkpoint, and a
 * checkpoint on the first of a month is in the last 12 months, one on 1 January opens no period
 * before it (docs/decisions.md "Portfolio engine"). Elsewhere a period is computed whole.
 */
export function allPeriodReturns(
  dates: readonly string[], navs: readonly Decimal[], flows: readonly Decimal[], kept?: KeptPeriodReturns,
): KeptPeriodReturns & { periods: Record<PeriodLength, PeriodReturn[]> } {
  const periods = {} as Record<PeriodLength, PeriodReturn[]>;
  const growth = {} as Record<PeriodLength, (Decimal | undefined)[]>;
  for (const length of PERIOD_LENGTHS) periods[length] = periodReturns(dates, navs, flows, length, kept, growth[length] = []);
  const years = periods.year;
  const growthFrom = years.length >= 2 ? daysBetween(dates[0]!, years.at(-2)!.start) + 1 : 0;
  for (const length of PERIOD_LENGTHS) growth[length].fill(undefined, 0, Math.min(growthFrom, growth[length].length));
  return { days: dates.length, periods, growth, growthFrom };
}
