/**
 * FX conversion along chain steps (pure; no typeorm, no tsyringe). Each leg reads the rate series
 * of its alphabetical pair (1 base = rate quote); a leg walked quote→base uses 1/rate. Backward
 * fill is unlimited: a leg uses its latest rate on or before the day.
 */
import { daysBetween, indexOnOrBefore } from "../dates/calendar.ts";
import { Decimal } from "../money/decimal.ts";

/** Kept for callers of the former location; the one implementation is core/dates/calendar.ts. */
export { daysBetween, eachDay, indexOnOrBefore } from "../dates/calendar.ts";
import type { ChainStep } from "./fx-route.entity.ts";

/** Significant digits kept when a rate is inverted (decimal128, the SDK's precision). */
export const RATE_DIGITS = 34;

/** One rate series of an alphabetical pair, oldest first (`dates[i]` ↔ `rates[i]`). */
export interface RateSeries {
  dates: readonly string[];
  rates: readonly Decimal[];
}

/** One leg of a conversion: `from`→`to` over the series of the alphabetical pair of the two. */
export interface ConvertLeg {
  from: string;
  series: RateSeries;
  to: string;
}

export interface BackwardFillInfo {
  actualRateDate: string;
  daysBack: number;
}

export interface Converted {
  amount: Decimal;
  /** 1 unit of the source currency in the target currency, the product of the legs' rates. */
  rate: Decimal;
  /** Present when some leg used a rate older than the day: the oldest such rate date. */
  backwardFill?: BackwardFillInfo;
}

/** 1 / rate rounded to {@link RATE_DIGITS} significant digits. */
export function invertRate(rate: Decimal): Decimal {
  return new Decimal(1).div(rate).toSignificantDigits(RATE_DIGITS);
}

/** The rate of one leg on a day (inverted when walked quote→base), with the date it comes from; null when none. */
export function legRate(leg: ConvertLeg, date: string): { date: string; rate: Decimal } | null {
  const i = indexOnOrBefore(leg.series.dates, date);
  if (i < 0) return null;
  const stored = leg.series.rates[i]!;
  return { date: leg.series.dates[i]!, rate: leg.from < leg.to ? stored : invertRate(stored) };
}

/**
 * Converts `amount` along `legs` on `date`; null when a leg has no rate on or before that day.
 * An empty leg list is the identity (same currency, rate 1).
 */
export function convertAlong(amount: Decimal, legs: readonly ConvertLeg[], date: string): Converted | null {
  let rate = new Decimal(1);
  let oldest: string | null = null;
  for (const leg of legs) {
    const i = indexOnOrBefore(leg.series.dates, date);
    if (i < 0) return null;
    // A reversed leg divides by the stored rate: one rounding instead of invert-then-multiply.
    rate = leg.from < leg.to ? rate.mul(leg.series.rates[i]!) : rate.div(leg.series.rates[i]!);
    const rateDate = leg.series.dates[i]!;
    if (rateDate < date && (oldest === null || rateDate < oldest)) oldest = rateDate;
  }
  const out: Converted = { amount: amount.mul(rate), rate };
  if (oldest !== null) out.backwardFill = { actualRateDate: oldest, daysBack: daysBetween(oldest, date) };
  return out;
}

/** Steps of a stored route (base→quote) walked from `from`; reversed and flipped when `from` is the quote. */
export function orientSteps(steps: readonly ChainStep[], from: string, base: string): ChainStep[] {
  if (from === base) return [...steps];
  return [...steps].reverse().map((s) => ({ from: s.to, provider: s.provider, to: s.from }));
}
