import { Decimal } from "../money/decimal.ts";

/** Inclusive bounds on the absolute cash amount of a row; a row without cash never matches (as in the reference's SQL). */
export interface AmountBounds {
  max?: string;
  min?: string;
}

/**
 * Float bounds for narrowing in SQL. `lo`/`hi` are the bounds widened by a relative margin far
 * above a double's rounding error (1e-9 against 1e-16), so every matching row passes them;
 * rows between `sureLo` and `sureHi` match for certain; only rows outside those two but inside
 * `lo`/`hi` need the exact Decimal comparison. Floats never decide a result on their own.
 */
export interface AmountBand {
  hi: number | null;
  lo: number | null;
  sureHi: number | null;
  sureLo: number | null;
}

const MARGIN = 1e-9;

export function amountBand(b: AmountBounds): AmountBand | null {
  if (b.min === undefined && b.max === undefined) return null;
  const min = b.min === undefined ? null : new Decimal(b.min).abs().toNumber();
  const max = b.max === undefined ? null : new Decimal(b.max).abs().toNumber();
  return {
    lo: min === null ? null : min * (1 - MARGIN),
    sureLo: min === null ? null : min * (1 + MARGIN) + Number.MIN_VALUE,
    hi: max === null ? null : max * (1 + MARGIN),
    sureHi: max === null ? null : max * (1 - MARGIN),
  };
}

/** SQL conditions on an absolute-amount expression: the widened bounds, or (`near`) the margins only. */
export function bandSql(expr: string, band: AmountBand, near: boolean): { params: number[]; sql: string } {
  if (!near) {
    const parts: string[] = [];
    const params: number[] = [];
    if (band.lo !== null) { parts.push(`${expr} >= ?`); params.push(band.lo); }
    if (band.hi !== null) { parts.push(`${expr} <= ?`); params.push(band.hi); }
    return { sql: parts.join(" AND "), params };
  }
  const parts: string[] = [];
  const params: number[] = [];
  if (band.sureLo !== null) { parts.push(`${expr} < ?`); params.push(band.sureLo); }
  if (band.sureHi !== null) { parts.push(`${expr} > ?`); params.push(band.sureHi); }
  return { sql: `(${parts.join(" OR ")})`, params };
}

/** The exact test: min ≤ |amount| ≤ max with decimal arithmetic. */
export function inBounds(amount: string | null, b: AmountBounds): boolean {
  if (amount === null) return false;
  const abs = new Decimal(amount).abs();
  if (b.min !== undefined && abs.lt(b.min)) return false;
  if (b.max !== undefined && abs.gt(b.max)) return false;
  return true;
}
