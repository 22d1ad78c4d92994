import { type ConvertLeg, convertAlong, type RateSeries } from "../fx/convert.calc.ts";
import { Decimal } from "../money/decimal.ts";
import type { LotFxLeg, LotFxSource } from "./lots-types.ts";

/** A conversion that could not be made: the source currency and the day. */
export interface FxGap {
  date: string;
  from: string;
}

export interface LotsConverter {
  /** Dates without a rate, per source currency (sorted, unique). */
  gaps(): Map<string, string[]>;
  /** `amount` in `currency` converted into the target on `date`; null (and a gap) when impossible. */
  toTarget(amount: Decimal, currency: string, date: string): Decimal | null;
}

/**
 * Each leg's rates parsed once: the assets of one request share their FX sources (the same
 * objects, also after the copy into a worker), so a realised-gains pass over fifty assets parses
 * the years of daily rates once instead of once per asset.
 */
const parsed = new WeakMap<LotFxLeg, RateSeries>();

function seriesOf(leg: LotFxLeg): RateSeries {
  let series = parsed.get(leg);
  if (!series) parsed.set(leg, series = { dates: leg.dates, rates: leg.rates.map((r) => new Decimal(r)) });
  return series;
}

/**
 * Converts through each source's routes by priority (docs/portfolio.md "FX"): the first route
 * whose every leg has a rate on or before the day wins; unlimited backward fill.
 */
export function lotsConverter(target: string, sources: readonly LotFxSource[]): LotsConverter {
  const routes = new Map<string, ConvertLeg[][]>();
  for (const s of sources) {
    routes.set(s.from, s.routes.map((legs) => legs.map((l) => ({ from: l.from, to: l.to, series: seriesOf(l) }))));
  }
  const missing = new Map<string, Set<string>>();
  return {
    gaps: () => new Map([...missing].map(([from, dates]) => [from, [...dates].sort()])),
    toTarget(amount, currency, date) {
      if (currency === target) return amount;
      for (const legs of routes.get(currency) ?? []) {
        const c = convertAlong(amount, legs, date);
        if (c) return c.amount;
      }
      let set = missing.get(currency);
      if (!set) missing.set(currency, (set = new Set()));
      set.add(date);
      return null;
    },
  };
}
