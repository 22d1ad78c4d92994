/**
 * Double-double estimates (an unevaluated sum `hi + lo` of two doubles, about 106 bits: 31 decimal
 * digits) of the allocation history's exact figures (docs/decisions.md, "Allocation history
 * estimated in double-doubles").
 *
 * The report's figures are those of the Decimal chain (34 significant digits, half-even at every
 * step; exact-decimal.ts emulates it in BigInt). An estimate is used for a figure only where it
 * provably gives the same text: the caller passes a bound on the estimate's distance to the
 * Decimal chain's value (`err`), and every decision (a rounding to 10 decimals, a sign, an order)
 * is taken only when the estimate lies farther than that from the boundary; otherwise the answer
 * is null and the caller takes the exact path. The bound: each operation here is within a few
 * u² (u = 2^-53) of its exact result relative to it (the "accurate" sum and product of Joldes,
 * Muller and Popescu, "Tight and rigorous error bounds for basic building blocks of double-word
 * arithmetic", 2017: 3u² and 7u²), each step of the Decimal chain within 5 × 10^-34 of its own;
 * both far below the 2^-96 per operation the callers budget.
 */
import type { DecimalParts } from "./allocation-percent.ts";

export interface DD {
  readonly hi: number;
  readonly lo: number;
}

export const DD_ZERO: DD = Object.freeze({ hi: 0, lo: 0 });

/** Exact parts with their estimate (made together where both are asked for). */
export interface Estimated {
  readonly parts: DecimalParts;
  readonly dd: DD;
}

export function estimated(parts: DecimalParts): Estimated {
  return { parts, dd: ddOfParts(parts) };
}

/**
 * A value given as its digits as one safe integer and its decimals (a day column's close): the
 * estimate from the two numbers, the exact parts made only if asked for (most days never are).
 */
export class DigitsEstimate implements Estimated {
  readonly dd: DD;
  private exact: DecimalParts | null = null;

  constructor(digits: number, scale: number, private readonly partsOf: () => DecimalParts) {
    this.dd = digits === 0 ? DD_ZERO : scale === 0 ? { hi: digits, lo: 0 } : ddMul({ hi: digits, lo: 0 }, ddPow10(-scale));
  }

  get parts(): DecimalParts {
    return this.exact ??= this.partsOf();
  }
}

/** 2^27 + 1: Dekker's splitter for 53-bit doubles. */
const SPLITTER = 134_217_729;

/** Exact `a + b` as a double-double, |a| ≥ |b| (Fast2Sum). */
function fastTwoSum(a: number, b: number): DD {
  const s = a + b;
  return { hi: s, lo: b - (s - a) };
}

/** `x + y` (AccurateDWPlusDW: relative error ≤ 3u² / (1 − 4u)). */
export function ddAdd(x: DD, y: DD): DD {
  // TwoSum of the high parts, then of the low parts.
  const sh = x.hi + y.hi;
  const bv = sh - x.hi;
  const sl = (x.hi - (sh - bv)) + (y.hi - bv);
  const th = x.lo + y.lo;
  const bw = th - x.lo;
  const tl = (x.lo - (th - bw)) + (y.lo - bw);
  // Fast2Sum twice (the first without an object).
  const c = sl + th;
  const vh = sh + c;
  const vl = c - (vh - sh);
  return fastTwoSum(vh, tl + vl);
}

/** `x − y`. */
export function ddSub(x: DD, y: DD): DD {
  return ddAdd(x, { hi: -y.hi, lo: -y.lo });
}

/** `x × y` (DWTimesDW1 with Dekker's exact product: relative error ≤ 7u²). */
export function ddMul(x: DD, y: DD): DD {
  const a = x.hi;
  const b = y.hi;
  const p = a * b;
  let t = SPLITTER * a;
  const ah = t - (t - a);
  const al = a - ah;
  t = SPLITTER * b;
  const bh = t - (t - b);
  const bl = b - bh;
  const e = ((ah * bh - p) + ah * bl + al * bh) + al * bl;
  return fastTwoSum(p, e + (a * y.lo + x.lo * b));
}

/** `x × d` for a double `d` (exact products of doubles as above). */
export function ddMulNumber(x: DD, d: number): DD {
  return ddMul(x, { hi: d, lo: 0 });
}

/** The double nearest to an exact rational `num / den` (BigInts, den > 0) within a few ulps. */
function approxRatio(num: bigint, den: bigint): number {
  if (num === 0n) return 0;
  // Shift both to at most ~1000 bits so Number() keeps them finite, then divide.
  const shift = Math.max(0, Math.max(num < 0n ? (-num).toString(2).length : num.toString(2).length, den.toString(2).length) - 1000);
  const k = BigInt(shift);
  return Number(num >> k) / Number(den >> k);
}

const POW10 = new Map<number, DD>();

/** 10^k as a double-double (the nearest double and the nearest double to what it leaves). */
export function ddPow10(k: number): DD {
  if (k <= 0 && k > -SMALL.length) {
    const p = SMALL[-k];
    if (p) return p;
  }
  // Beyond the normal doubles' range the estimate is no estimate: NaN, which no decision takes.
  if (!(k >= -POW10_RANGE && k <= POW10_RANGE)) return DD_NAN;
  let p = POW10.get(k);
  if (p) return p;
  const hi = Number(`1e${k}`);
  if (k >= 0) {
    p = { hi, lo: k <= 22 ? 0 : Number(10n ** BigInt(k) - BigInt(hi)) };
  } else {
    // hi = M × 2^e exactly (a normal double): 10^k − hi = (2^-e − M × 10^-k) / (10^-k × 2^-e).
    const bits = new DataView(new ArrayBuffer(8));
    bits.setFloat64(0, hi);
    const word = bits.getBigUint64(0);
    const e = Number((word >> 52n) & 0x7ffn) - 1075;
    const m = (word & ((1n << 52n) - 1n)) | (1n << 52n);
    const tenK = 10n ** BigInt(-k);
    const twoE = 1n << BigInt(-e);
    p = { hi, lo: approxRatio(twoE - m * tenK, tenK * twoE) };
  }
  POW10.set(k, p);
  if (k <= 0 && k > -SMALL.length) SMALL[-k] = p;
  return p;
}
/** Powers of ten kept to normal doubles (10^±290, with room for the products of the values they scale). */
const POW10_RANGE = 290;
const DD_NAN: DD = Object.freeze({ hi: NaN, lo: NaN });
/** 10^-i for the decimals closes and quantities have, without a Map lookup. */
const SMALL: (DD | undefined)[] = new Array(40);

const TEN_15 = 1e15;

/** Exact parts (m × 10^exp) as a double-double: within ~20u² of the value, relative. */
export function ddOfParts(p: DecimalParts): DD {
  const m = p.m;
  if (m === 0n) return DD_ZERO;
  let x: DD;
  if (m >= -9_007_199_254_740_991n && m <= 9_007_199_254_740_991n) {
    x = { hi: Number(m), lo: 0 };
  } else {
    // 15 digits at a time (each chunk below 2^53, so exact as a double).
    const neg = m < 0n;
    const digits = (neg ? -m : m).toString();
    let i = digits.length % 15 || 15;
    x = { hi: Number(digits.slice(0, i)), lo: 0 };
    for (; i < digits.length; i += 15) x = ddAdd(ddMulNumber(x, TEN_15), { hi: Number(digits.slice(i, i + 15)), lo: 0 });
    if (neg) x = { hi: -x.hi, lo: -x.lo };
  }
  return p.exp === 0 ? x : ddMul(x, ddPow10(p.exp));
}

const PLACES = 10;
const SCALE = 1e10;
/**
 * Error of the text's own arithmetic in units of the 10th decimal: the fraction `(hi − ⌊hi⌋) + lo`
 * (below 1.5) and its shift into [0, 1) round twice (≤ 2.5u together), × 10^10 once more (≤ u):
 * ≤ 3.5u × 10^10 ≈ 3.9e-6; allowed: 10^-5.
 */
const TEXT_SLACK = 1e-5;

/**
 * `wireText` (10 decimals, half-even, no trailing zeros, "0" for zero) of the value an estimate
 * `v` stands for, given that the value is within `err` of `v`; null when `v` is within that of a
 * tie, or its integer part is beyond 2^52.
 */
export function ddWireText(v: DD, err: number): string | null {
  const neg = v.hi < 0;
  const hi = neg ? -v.hi : v.hi;
  const lo = neg ? -v.lo : v.lo;
  if (!(hi < 2 ** 52)) return null;
  let whole = Math.floor(hi);
  let frac = (hi - whole) + lo;
  if (frac < 0) { whole -= 1; frac += 1; } else if (frac >= 1) { whole += 1; frac -= 1; }
  const s = frac * SCALE;
  const floor = Math.floor(s);
  const off = s - floor - 0.5;
  if ((off < 0 ? -off : off) <= TEXT_SLACK + err * SCALE * 1.01) return null;
  let digits = off < 0 ? floor : floor + 1;
  if (digits === SCALE) { whole += 1; digits = 0; }
  if (whole === 0 && digits === 0) return "0";
  return (neg ? "-" : "") + decimalText(whole, digits);
}

/**
 * `whole` and `fraction` (an integer below 10^10: its 10 decimals) as plain text without trailing
 * zeros. The decimals are written as two halves of five (32-bit integers: their remainders and
 * digits are cheap where a double's are not).
 */
function decimalText(whole: number, fraction: number): string {
  if (fraction === 0) return String(whole);
  const first = Math.floor(fraction / 100_000);
  const last = fraction - first * 100_000;
  return `${whole}.${last === 0 ? trimmed(first) : padded(first, 5) + trimmed(last)}`;
}

const ZEROS = ["", "0", "00", "000", "0000"];
/** `n` (0 ≤ n < 10^5) in `width` digits, zeros first. */
function padded(n: number, width: number): string {
  const digits = n >= 10_000 ? 5 : n >= 1_000 ? 4 : n >= 100 ? 3 : n >= 10 ? 2 : 1;
  return ZEROS[width - digits]! + String(n);
}
/** Five decimals `n` (0 < n < 10^5) without their trailing zeros. */
function trimmed(n: number): string {
  let width = 5;
  while (n % 10 === 0) { n = (n / 10) | 0; width--; }
  return padded(n, width);
}

/**
 * `amount / total × 100` as the wire writes it (allocation-percent.ts `percentText`) for the
 * values the estimates stand for (each within `err` of its estimate; `total` > `err`), or null
 * when the estimates do not decide it. As `percentFromDoubles` there, from the high parts: their
 * rounding and the four steps below are six roundings (≤ 6u relative), and the estimates' `err`
 * moves the quotient by at most (f + 10^12) × err / total; the allowance is more than twice both.
 */
export function ddPercentText(amount: DD, total: DD, err: number): string | null {
  const t = total.hi;
  if (!(t > err)) return null;
  const neg = amount.hi < 0;
  const a = neg ? -amount.hi : amount.hi;
  const f = ((a * 100) / t) * SCALE;
  if (!(f < 1e15)) return null;
  const whole = Math.floor(f);
  const off = f - whole - 0.5;
  if ((off < 0 ? -off : off) <= f * 2e-15 + (2 * (f + 1e12) * err) / (t - err)) return null;
  const digits = off < 0 ? whole : whole + 1;
  if (digits === 0) return "0";
  // digits < 10^15: the quotient by 10^10 is at least 10^-10 from the next integer, so its floor is exact.
  const units = Math.floor(digits / SCALE);
  return (neg ? "-" : "") + decimalText(units, digits - units * SCALE);
}

/** −1, 0 (undecided: within `err` of each other) or 1 as `x` is below or above `y`. */
export function ddCompare(x: DD, y: DD, err: number): number {
  const d = ddSub(x, y).hi;
  return d > err ? 1 : d < -err ? -1 : 0;
}
