/**
 * An allocation component's share of the day's total as wire text, exactly as
 * `dec(amount.div(total).times(100))` writes it (docs/decisions.md "Allocation percentages in
 * integers"), computed with BigInt instead of a 34-digit Decimal division.
 *
 * The Decimal path rounds twice, both half-even: the quotient to 34 significant digits (decimal.js
 * divisions are correctly rounded), then the percentage to 10 decimals on the wire. Rounding once
 * to 10 decimals would differ when the 34-digit quotient lands on a tie it did not start on
 * (…4999…9|7 becomes …5000…0), so both roundings are done here on exact integers. A quotient
 * of 10^34 % or more (only possible with negative components) keeps the Decimal path.
 */
import type { Decimal } from "../money/decimal.ts";

const PRECISION = 34;
/** Decimals of a percentage on the wire (report.dto.ts `dec`). */
const PLACES = 10;
const TEN = 10n;

const POW10: bigint[] = [];
for (let i = 0, p = 1n; i <= 80; i++, p *= TEN) POW10.push(p);
export const pow10 = (n: number): bigint => POW10[n] ?? TEN ** BigInt(n);

/** A finite Decimal as an exact scaled integer: value = `m` × 10^`exp`, its first digit at 10^`top`. */
export interface DecimalParts {
  m: bigint;
  exp: number;
  top: number;
}

const LIMB = 10_000_000;
const LIMB2 = 100_000_000_000_000n;

/** A finite Decimal's parts, from its base-10^7 limbs (two limbs at a time: below 2^53). */
export function decimalParts(x: Decimal): DecimalParts {
  const limbs = x.d;
  if (!limbs || limbs.length === 0 || limbs[0] === 0) return { m: 0n, exp: 0, top: 0 };
  const n = limbs.length;
  // The first limb has no leading zeros; an odd count starts with it alone.
  let i = n % 2 === 1 ? 1 : 2;
  let m = BigInt(i === 1 ? limbs[0]! : limbs[0]! * LIMB + limbs[1]!);
  for (; i < n; i += 2) m = m * LIMB2 + BigInt(limbs[i]! * LIMB + limbs[i + 1]!);
  const first = limbs[0]!;
  const firstDigits = first >= 1e6 ? 7 : first >= 1e5 ? 6 : first >= 1e4 ? 5 : first >= 1e3 ? 4 : first >= 100 ? 3 : first >= 10 ? 2 : 1;
  const digits = firstDigits + 7 * (n - 1);
  return { m: x.s < 0 ? -m : m, exp: x.e - digits + 1, top: x.e };
}

/** Half-even rounding of `q` (≥ 0) given the discarded part's comparison with one half: -1, 0, 1. */
export function roundHalfEven(q: bigint, half: number): bigint {
  return half > 0 || (half === 0 && (q & 1n) === 1n) ? q + 1n : q;
}

/** `n` × 10^-`scale` (n ≥ 0) rounded half-even to at most `places` decimals: the digits and their scale. */
export function toPlaces(n: bigint, scale: number, places: number): { n: bigint; scale: number } {
  if (scale <= places) return { n, scale };
  const div = pow10(scale - places);
  // One division: the remainder from the quotient (a BigInt division costs several products).
  const q = n / div;
  const r2 = (n - q * div) * 2n;
  return { n: roundHalfEven(q, r2 < div ? -1 : r2 > div ? 1 : 0), scale: places };
}

/**
 * `amount / total × 100` as the wire writes it ("0" for zero), for `total` > 0 given as parts;
 * null when the exact path does not apply (the caller keeps Decimal).
 */
export function percentText(amount: DecimalParts, total: DecimalParts): string | null {
  const ma = amount.m;
  const mt = total.m;
  if (mt <= 0n) return null;
  if (ma === 0n) return "0";
  // Most percentages are decided by doubles (no BigInt division); the rest in integers.
  const fast = percentFromDoubles(amount, total);
  if (fast >= 0) return fast === 0 ? "0" : (ma < 0n ? "-" : "") + plainDigits(String(fast), PLACES);
  return percentTextInIntegers(amount, total);
}

/** `percentText` computed in BigInt only (`total` > 0, `amount` ≠ 0). */
export function percentTextInIntegers(amount: DecimalParts, total: DecimalParts): string | null {
  const ma = amount.m;
  const mt = total.m;
  const neg = ma < 0n;
  const num = (neg ? -ma : ma) * 100n;
  // |P| = num / mt × 10^exp, P the percentage.
  const exp = amount.exp - total.exp;
  // |P| < 10^(top + 1): 34 significant digits are this many decimals, or one more (corrected below).
  const top = amount.top - total.top + 2;
  const single = singleRounding(num, mt, exp, top);
  if (single !== null) return single === 0n ? "0" : (neg ? "-" : "") + plain(single, PLACES);
  let scale = PRECISION - 1 - top;
  let q = 0n;
  let rem = 0n;
  let den = mt;
  for (let tries = 0; ; tries++) {
    if (tries > 3 || scale < 0) return null;
    const shift = scale + exp;
    let n = num;
    den = mt;
    if (shift >= 0) n *= pow10(shift);
    else den *= pow10(-shift);
    q = n / den;
    rem = n - q * den;
    if (q >= pow10(PRECISION)) { scale--; continue; }
    if (q < pow10(PRECISION - 1)) { scale++; continue; }
    break;
  }
  // q has exactly 34 digits: the first rounding, half-even on the remainder.
  const twice = rem * 2n;
  let n34 = roundHalfEven(q, twice < den ? -1 : twice > den ? 1 : 0);
  let s34 = scale;
  // Rounding up may carry to 35 digits (9…9 + 1): the value is a power of ten, drop the zero.
  if (n34 === pow10(PRECISION)) { n34 /= TEN; s34--; }
  // The second rounding: to 10 decimals, half-even on the exact 34-digit value.
  const { n: n10, scale: s10 } = toPlaces(n34, s34, PLACES);
  if (n10 === 0n) return "0";
  return (neg ? "-" : "") + plain(n10, s10);
}

/**
 * |P| = `num` / `mt` × 10^`exp` rounded half-even straight to 10 decimals (the digits at scale
 * 10), when that is what the two roundings give; null when they may differ. The first rounding
 * (34 significant digits) moves |P| by at most half a unit of its 34th digit, at most
 * 10^(`top` − 33) / 2 since |P| < 10^(`top` + 1). That changes the second rounding only when
 * |P| × 10^10 lies within that distance of a tie (a fraction of exactly one half); farther, one
 * division at 10 decimals gives the same digits as the division at 34 digits and the rounding
 * after it. Near an integer both round to it, so only the tie needs the two steps.
 */
function singleRounding(num: bigint, mt: bigint, exp: number, top: number): bigint | null {
  // From 10^23 on, 34 digits end at or before the 10th decimal: the two-step path.
  if (top > 22) return null;
  const shift = PLACES + exp;
  const n = shift >= 0 ? num * pow10(shift) : num;
  const den = shift >= 0 ? mt : mt * pow10(-shift);
  const q = n / den;
  const twice = (n - q * den) * 2n;
  // |2·rem − den| / (2·den) is the distance to the tie, in units of the 10th decimal.
  const off = twice - den;
  if ((off < 0n ? -off : off) * pow10(23 - top) <= den * 2n) return null;
  return roundHalfEven(q, off < 0n ? -1 : 1);
}

/** 10^i as doubles, each the nearest double (exact up to 10^22; parsing rounds correctly). */
const F10: number[] = [];
for (let i = 0; i <= 308; i++) F10.push(Number(`1e${i}`));
/**
 * Relative error allowed for the double estimate: six correctly rounded steps (two conversions,
 * × 100, the division, 10^k as a double, × or ÷ 10^k) are within 6 × 2^-53 ≈ 6.7e-16 of the exact
 * quotient, the first rounding (34 significant digits) within 5e-34 of it; the bound is three times
 * their sum, for margin.
 */
const DOUBLE_ERROR = 2e-15;

/**
 * |P| × 10^10 rounded half-even to an integer from doubles (P = `amount` / `total` × 100,
 * `total` > 0), or -1 when the doubles do not decide it. The estimate f is within
 * f × DOUBLE_ERROR of the exact value and of the 34-digit quotient the Decimal path rounds, so
 * when f's fraction is farther than that from one half, both lie on the same side of the same
 * half-integer: their nearest integer, the 10-decimal rounding, is f's (and is no tie). Only
 * percentages below 10^5 (f < 10^15: a safe integer with exact arithmetic on its fraction) take
 * this path; f rounded to 0 (an underflow included) is a share below half a unit of the 10th decimal.
 */
export function percentFromDoubles(amount: DecimalParts, total: DecimalParts): number {
  const shift = PLACES + amount.exp - total.exp;
  if (shift > 308 || shift < -308) return -1;
  const a = Number(amount.m);
  const t = Number(total.m);
  // A total beyond the double range would make the quotient 0: the BigInt path decides.
  if (!(t > 0 && t < Infinity)) return -1;
  const q = ((a < 0 ? -a : a) * 100) / t;
  const f = shift >= 0 ? q * F10[shift]! : q / F10[-shift]!;
  // Also false for NaN (operands beyond the double range): the BigInt path decides.
  if (!(f < 1e15)) return -1;
  const whole = Math.floor(f);
  const frac = f - whole; // exact: both below 2^53, `whole` within one of f
  const off = frac - 0.5;
  if ((off < 0 ? -off : off) <= f * DOUBLE_ERROR) return -1;
  return off < 0 ? whole : whole + 1;
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** `n` (> 0) × 10^-scale as plain text without trailing zeros (Decimal `toFixed()`). */
export function plain(n: bigint, scale: number): string {
  if (scale <= 0) return (n * pow10(-scale)).toString();
  // A safe integer's digits from the number: BigInt's own toString costs several times more.
  return plainDigits(n <= MAX_SAFE ? String(Number(n)) : n.toString(), scale);
}

/** The digits `digits` (of an integer > 0) × 10^-scale (scale > 0) as plain text without trailing zeros. */
function plainDigits(digits: string, scale: number): string {
  const text = digits.padStart(scale + 1, "0");
  let end = text.length;
  const point = text.length - scale;
  while (end > point && text.charCodeAt(end - 1) === 48) end--;
  return end === point ? text.slice(0, point) : `${text.slice(0, point)}.${text.slice(point, end)}`;
}
