import { Decimal as DecimalJs } from "decimal.js";
import { z } from "zod";

/**
 * The one configured decimal type for money and quantities: 34 significant
 * digits (IEEE 754 decimal128), banker's rounding (ROUND_HALF_EVEN), and no
 * exponent in `toString()` within any realistic range. Plugins use this clone
 * and never import decimal.js themselves, so every number follows one policy.
 * Throws decimal.js's `DecimalError` on a non-numeric input.
 * Example: `new Decimal("1.10").plus("2.205").toFixed()` is `"3.305"`.
 */
export const Decimal: typeof DecimalJs = DecimalJs.clone({
  precision: 34,
  rounding: DecimalJs.ROUND_HALF_EVEN,
  toExpNeg: -9e15,
  toExpPos: 9e15,
});

/** An instance of the configured {@link Decimal}. */
export type Decimal = DecimalJs;

/**
 * Parses and brands a {@link DecimalString}: plain fixed-point notation, an
 * optional leading minus, digits, an optional fraction; no exponent, no plus
 * sign, no leading zeros, no spaces. `"-12.50"` passes; `"1e5"`, `".5"`,
 * `"01"` and `"1,5"` fail.
 */
export const DecimalStringSchema = z
  .string()
  .regex(/^-?(?:0|[1-9]\d*)(?:\.\d+)?$/, "must be a plain decimal string such as -12.50 (no exponent)")
  .brand<"DecimalString">();

/**
 * An exact decimal number carried as a string, e.g. `"1234.5600"`. The unit
 * depends on the field (an amount in its currency, a quantity of units, a
 * rate). Never convert it with `Number()`; use `new Decimal(s)`.
 */
export type DecimalString = z.output<typeof DecimalStringSchema>;

/**
 * Writes a {@link Decimal} as a {@link DecimalString} in fixed notation, never
 * with an exponent; negative zero becomes `"0"`. Throws a `RangeError` for NaN
 * or an infinity. Example: `toDecimalString(new Decimal("1e-7"))` is `"0.0000001"`.
 */
export function toDecimalString(value: Decimal): DecimalString {
  if (!value.isFinite()) throw new RangeError(`cannot write ${value.toString()} as a decimal string`);
  const text = value.isZero() ? "0" : value.toFixed();
  return text as DecimalString;
}

/**
 * Parses and brands a {@link CurrencyCode}: exactly three upper-case letters
 * (ISO 4217 shape; whether the code exists is not checked). `"EUR"` passes;
 * `"eur"` and `"EURO"` fail.
 */
export const CurrencyCodeSchema = z
  .string()
  .regex(/^[A-Z]{3}$/, "must be a three-letter upper-case currency code such as EUR")
  .brand<"CurrencyCode">();

/** A three-letter upper-case currency code, e.g. `"CHF"`. */
export type CurrencyCode = z.output<typeof CurrencyCodeSchema>;

/**
 * An amount of money: a {@link DecimalString} in a {@link CurrencyCode}.
 * Example: `{ amount: "-250.00", currency: "EUR" }` is a 250 EUR outflow.
 */
export interface Money {
  readonly amount: DecimalString;
  readonly currency: CurrencyCode;
}
