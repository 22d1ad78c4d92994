import type { Decimal } from "../../core/money/decimal.ts";

/**
 * The wire's decimal text as decimal.js writes it: at most 10 decimals rounded half-even
 * (`toDecimalPlaces`, the configured rounding), `toFixed()` without trailing zeros, "0" for zero.
 * The reference the integer writers (report.dto.ts `dec`, exact-decimal.ts `wireText`) are checked against.
 */
export function decimalJsText(d: Decimal): string {
  const r = d.decimalPlaces() > 10 ? d.toDecimalPlaces(10) : d;
  return r.isZero() ? "0" : r.toFixed();
}
