import { Decimal } from "../money/decimal.ts";

/** The price columns of one day, decimal strings; only `close` is always present. */
export interface DayPrices {
  close: string;
  high: string | null;
  low: string | null;
  open: string | null;
}

const larger = (a: string, b: string) => (new Decimal(b).greaterThan(a) ? b : a);
const smaller = (a: string, b: string) => (new Decimal(b).lessThan(a) ? b : a);

/**
 * A provider quote dated today creates today's row with open, high,
 * low and close all equal to the quote, or extends the stored row: high and low widened to take
 * the quote in, open set only when missing, close replaced. Strings are kept as written (the
 * larger or smaller of two is chosen, never re-formatted), so "101.25" stays "101.25".
 */
export function mergeTodayRow(stored: DayPrices | null, quote: string): DayPrices {
  if (stored === null) return { close: quote, high: quote, low: quote, open: quote };
  return {
    close: quote,
    high: stored.high === null ? quote : larger(stored.high, quote),
    low: stored.low === null ? quote : smaller(stored.low, quote),
    open: stored.open ?? quote,
  };
}

/** True when the merge changed nothing, so nothing needs writing. */
export function sameDayPrices(a: DayPrices, b: DayPrices): boolean {
  return a.close === b.close && a.high === b.high && a.low === b.low && a.open === b.open;
}
