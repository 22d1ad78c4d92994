/**
 * Returns per calendar month, quarter and year of a report's period (docs/portfolio.md "Period
 * returns"). Each period's figures are those a report over that period alone would give: its
 * daily states are the whole period's days from the close it chains from (the day before the
 * period begins, or the first day computed) to its last day, and the same functions as the
 * summary's (`twrrGrowth`, `mwrrSummary`) run over them.
 */
import { addDays, addMonths, daysBetween } from "../dates/calendar.ts";
import type { Decimal } from "../money/decimal.ts";
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
 * same first day, valid for the periods that end within its first `days` days (the days whose
 * NAVs and flows did not change since).
 */
export interface KeptPeriodReturns {
  days: number;
  periods: Record<PeriodLength, readonly PeriodReturn[]>;
}

/**
 * The returns of each calendar period of `length` over consecutive daily states (`dates[i]` is
 * the day after `dates[i - 1]`), with their NAVs and net external flows. A period of `kept` that
 * ends within its valid days, over the same days, is taken as it is: a period's figures read only
 * its own days, so only the periods touching or after the first changed day are computed again.
 */
export function periodReturns(
  dates: readonly string[], navs: readonly Decimal[], flows: readonly Decimal[], length: PeriodLength, kept?: KeptPeriodReturns,
): PeriodReturn[] {
  if (dates.length === 0) return [];
  const from = dates[0]!;
  const reusable = kept ? kept.periods[length] : [];
  let k = 0;
  return calendarPeriods(from, dates.at(-1)!, length).map((p) => {
    const i = daysBetween(from, p.start);
    const j = daysBetween(from, p.end) + 1;
    // Kept periods are oldest first, like these: one pass finds each.
    while (k < reusable.length && reusable[k]!.begins < p.begins) k++;
    const same = reusable[k];
    if (kept && j <= kept.days && same && same.begins === p.begins && same.start === p.start && same.end === p.end) return same;
    const periodNavs = navs.slice(i, j);
    const periodFlows = flows.slice(i, j);
    return { ...p, twrrPercent: twrrGrowth(periodNavs, periodFlows).at(-1)!.minus(1).times(100), mwrr: mwrrSummary(periodNavs, periodFlows) };
  });
}
