import { z } from "zod";
import { Decimal, toDecimalString } from "../../core/money/decimal.ts";

/** Wire field schemas shared by several areas, so one rule reads the same everywhere. */

/** A language code such as `en` or `pt-BR` (reference: 2–5 characters). */
export const LanguageField = z.string().trim().min(2).max(5).regex(/^[A-Za-z]{2,3}(-[A-Za-z]{2})?$/, "a language code such as en or pt-BR");

/**
 * A day `YYYY-MM-DD` of the calendar: leap years checked, and no year 0000, which neither the
 * Gregorian calendar nor PostgreSQL's `date` has (it was a 500 there, a stored row on SQLite).
 */
export const DayField = z.iso.date().refine((s) => !s.startsWith("0000"), "a real calendar date YYYY-MM-DD (years start at 0001)");

/** A three-letter currency code, upper-cased. */
export const CurrencyField = z.string().regex(/^[A-Za-z]{3}$/, "a three-letter currency code").transform((s) => s.toUpperCase());

/**
 * A JSON number sent for a decimal field (inputs accept numbers or strings), written in fixed
 * notation from its shortest form: `1e-25` becomes `"0.0000000000000000000000001"` and `0.1` stays
 * `"0.1"`, so the range check of {@link limited} sees every digit (an exponent would hide them).
 */
export const DecimalNumber = z.number().refine(Number.isFinite, "a finite number").transform((n) => toDecimalString(new Decimal(String(n))));

/** The supported range of decimal inputs (docs/errors.md): one rule with the JSON restore, in core. */
export { limited } from "../../core/money/decimal-limits.ts";
