/**
 * Exact arithmetic on the API's decimal strings for the figures a page derives (a position summed
 * over brokers, income summed per month): decimal.js with the API's 34 significant digits, so a
 * sum shown is the sum of the amounts shown, to the cent. Loaded only with the pages that use it.
 */
import DecimalJs from "decimal.js";

const D = DecimalJs.clone({ precision: 34, rounding: DecimalJs.ROUND_HALF_UP });

const dec = (v: string | null | undefined) => new D(v == null || v === "" ? 0 : v);

/** Σ of decimal strings (null and missing count as 0). */
export function sum(values: (string | null | undefined)[]): string {
  let acc = new D(0);
  for (const v of values) if (v != null && v !== "") acc = acc.plus(v);
  return acc.toFixed();
}

export function times(a: string | null | undefined, b: string | null | undefined): string {
  return dec(a).times(dec(b)).toFixed();
}

export function minus(a: string | null | undefined, b: string | null | undefined): string {
  return dec(a).minus(dec(b)).toFixed();
}

/** a / b × 100 with 10 decimals (the API's percentages); null when b is zero, negative or missing. */
export function percentOf(a: string | null | undefined, b: string | null | undefined): string | null {
  if (a == null || b == null || !dec(b).gt(0)) return null;
  return dec(a).div(b).times(100).toDecimalPlaces(10).toFixed();
}

/** (1 + a) / (1 + b) − 1 for fractions: the return between two points of a cumulative series. */
export function chainBetween(end: string, start: string): string {
  const base = dec(start).plus(1);
  if (base.lte(0)) return "0";
  return dec(end).plus(1).div(base).minus(1).toDecimalPlaces(10).toFixed();
}

/** end / start − 1: a price's return between two closes; null when start is not positive. */
export function growth(end: string, start: string): string | null {
  if (!dec(start).gt(0)) return null;
  return dec(end).div(start).minus(1).toDecimalPlaces(10).toFixed();
}

export function isPositive(v: string | null | undefined): boolean {
  return v != null && v !== "" && dec(v).gt(0);
}

export function isZero(v: string | null | undefined): boolean {
  return v == null || v === "" || dec(v).isZero();
}

/** Compares two decimal strings (missing sorts first). */
export function cmp(a: string | null | undefined, b: string | null | undefined): number {
  if (a == null && b == null) return 0;
  if (a == null) return -1;
  if (b == null) return 1;
  return dec(a).cmp(dec(b));
}
