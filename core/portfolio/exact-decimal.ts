/**
 * decimal.js's `times`, `plus` and `cmp` at the project's precision (34 significant digits,
 * half-even) on exact scaled integers (docs/decisions.md "Allocation history valued in
 * integers"). Each operation is computed exactly in BigInt, then rounded once to 34 significant
 * digits half-even: decimal.js's operations are correctly rounded, so the result is the same
 * value, step for step, as the Decimal chain it replaces. The allocation history's per-asset
 * valuation (quantity × close, × rate, sums per currency, asset and component) runs on these:
 * no Decimal object per asset and day.
 */
import { Decimal } from "../money/decimal.ts";
import { type DecimalParts, decimalParts, plain, pow10, roundHalfEven, toPlaces } from "./allocation-percent.ts";

export type { DecimalParts } from "./allocation-percent.ts";

const PRECISION = 34;
/** Decimals of money on the wire (report.dto.ts `dec`). */
const PLACES = 10;

export const EXACT_ZERO: DecimalParts = Object.freeze({ m: 0n, exp: 0, top: 0 });

const cache = new WeakMap<Decimal, DecimalParts>();

/** The parts of a Decimal, kept per Decimal object (quantities, prices and rates are asked for every day). */
export function partsOf(x: Decimal): DecimalParts {
  let p = cache.get(x);
  if (p === undefined) cache.set(x, p = decimalParts(x));
  return p;
}

/** The parts of a decimal text ("-12.50", as stored), the value `new Decimal(text)` has. */
export function partsOfText(text: string): DecimalParts {
  const i = text.charCodeAt(0) === 45 ? 1 : 0;
  const neg = i === 1;
  const dot = text.indexOf(".");
  const digits = dot < 0 ? text.slice(i) : text.slice(i, dot) + text.slice(dot + 1);
  // Anything but a plain decimal (an exponent, a sign elsewhere): the Decimal parser decides.
  if (digits.length === 0 || !PLAIN_DIGITS.test(digits)) return decimalParts(new Decimal(text));
  let first = 0;
  while (first < digits.length && digits.charCodeAt(first) === 48) first++;
  if (first === digits.length) return EXACT_ZERO;
  const exp = dot < 0 ? 0 : dot + 1 - text.length;
  const m = BigInt(digits);
  return { m: neg ? -m : m, exp, top: exp + digits.length - first - 1 };
}
const PLAIN_DIGITS = /^[0-9]+$/;

/** The same value as a Decimal. */
export function toDecimal(p: DecimalParts): Decimal {
  return p.m === 0n ? new Decimal(0) : new Decimal(`${p.m}e${p.exp}`);
}

/** 10^i and half of it, for the sizes met here (operands of at most 34 digits, exponents apart). */
const P10: bigint[] = [];
const HALF: bigint[] = [0n];
for (let i = 0; i <= 120; i++) {
  P10.push(pow10(i));
  if (i > 0) HALF.push(5n * pow10(i - 1));
}
const p10 = (i: number): bigint => (i <= 120 ? P10[i]! : pow10(i));

/** Digits of `n` (> 0), starting the search at `hint`. */
function digitCount(n: bigint, hint: number): number {
  let d = hint < 1 ? 1 : hint;
  while (d > 1 && n < p10(d - 1)) d--;
  while (n >= p10(d)) d++;
  return d;
}

/** `m` × 10^`exp` rounded to 34 significant digits half-even; `hint`: about the digits of `m`. */
function rounded(m: bigint, exp: number, hint: number): DecimalParts {
  if (m === 0n) return EXACT_ZERO;
  const neg = m < 0n;
  let a = neg ? -m : m;
  let digits = digitCount(a, hint);
  if (digits > PRECISION) {
    const k = digits - PRECISION;
    const div = p10(k);
    const q = a / div;
    const r = a - q * div;
    const half = k <= 120 ? HALF[k]! : 5n * pow10(k - 1);
    a = roundHalfEven(q, r < half ? -1 : r > half ? 1 : 0);
    exp += k;
    digits = PRECISION;
    // 9…9 rounded up: a power of ten with one digit more.
    if (a === P10[PRECISION]) { a = P10[PRECISION - 1]!; exp++; }
  }
  return { m: neg ? -a : a, exp, top: exp + digits - 1 };
}

/** `a.times(b)`. */
export function times(a: DecimalParts, b: DecimalParts): DecimalParts {
  if (a.m === 0n || b.m === 0n) return EXACT_ZERO;
  return rounded(a.m * b.m, a.exp + b.exp, a.top - a.exp + b.top - b.exp + 2);
}

/** `a.plus(b)`. */
export function plus(a: DecimalParts, b: DecimalParts): DecimalParts {
  if (b.m === 0n) return a;
  if (a.m === 0n) return b;
  const exp = a.exp < b.exp ? a.exp : b.exp;
  const m = (a.exp === exp ? a.m : a.m * p10(a.exp - exp)) + (b.exp === exp ? b.m : b.m * p10(b.exp - exp));
  return rounded(m, exp, (a.top > b.top ? a.top : b.top) - exp + 1);
}

/** `a.cmp(b)`: -1, 0 or 1. */
export function cmp(a: DecimalParts, b: DecimalParts): number {
  const sa = a.m < 0n ? -1 : a.m > 0n ? 1 : 0;
  const sb = b.m < 0n ? -1 : b.m > 0n ? 1 : 0;
  if (sa !== sb) return sa < sb ? -1 : 1;
  if (sa === 0) return 0;
  if (a.top !== b.top) return (a.top > b.top ? 1 : -1) * sa;
  const exp = a.exp < b.exp ? a.exp : b.exp;
  const x = a.m * p10(a.exp - exp);
  const y = b.m * p10(b.exp - exp);
  return x === y ? 0 : x > y ? 1 : -1;
}

/** `dec(toDecimal(p))`: at most 10 decimals (half-even), no trailing zeros, "0" for zero. */
export function wireText(p: DecimalParts): string {
  if (p.m === 0n) return "0";
  const neg = p.m < 0n;
  const { n: a, scale } = toPlaces(neg ? -p.m : p.m, -p.exp, PLACES);
  if (a === 0n) return "0";
  return (neg ? "-" : "") + plain(a, scale);
}
