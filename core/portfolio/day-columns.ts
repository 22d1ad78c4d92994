/**
 * Day-indexed typed columns of exact decimals: the report's quotes and FX rates (docs/portfolio.md
 * "Input"). A series is its day numbers in an Int32Array and each value as its digits read as one
 * integer (the point left out) in a Float64Array, with its digits after the point in a Uint8Array:
 * no string or object per close or rate. A value of more than 15 significant digits (beyond what a
 * double holds exactly) or not written as a plain decimal keeps its text, so nothing is rounded.
 * Typed arrays and a Map structured-clone, so a column crosses a worker boundary as it is.
 */
import { dayNumber, dayText } from "../dates/calendar.ts";
import { Decimal } from "../money/decimal.ts";
import { EXACT_ZERO, type DecimalParts } from "./exact-decimal.ts";

export interface DayColumn {
  /** Day numbers (core/dates/calendar.ts `dayNumber`), ascending. */
  days: Int32Array;
  /** Each value's digits as one integer (at most 15 significant: exact); NaN: the value is in `wide`. */
  digits: Float64Array;
  /** Digits after the point of each value (trailing zeros included: "1.50" is 150 and 2). */
  scales: Uint8Array;
  /** The text of each value the numbers cannot hold exactly, by index; null when there is none. */
  wide: Map<number, string> | null;
}

/** A series written by hand (tests, tools): dates and decimal texts, oldest first. */
export interface TextSeries {
  dates: readonly string[];
  values: readonly string[];
}

/** At most 15 significant digits: below 10^15 < 2^53, so every step of `m * 10 + digit` is exact. */
const MAX_SIGNIFICANT = 15;

/**
 * Writes `text` at `i` as digits and scale; false (nothing written) when it is not a plain decimal
 * in its shortest integer part ("-12.50", "0.05"; not "012", "1e5", ".5", "+1") or has more than 15
 * significant digits: the caller keeps its text.
 */
export function putDigits(digits: Float64Array, scales: Uint8Array, i: number, text: string): boolean {
  const len = text.length;
  const neg = len > 0 && text.charCodeAt(0) === 45;
  const start = neg ? 1 : 0;
  if (start >= len) return false;
  // A leading zero only as the whole integer part: the text is then the one the numbers give back.
  if (text.charCodeAt(start) === 48 && start + 1 < len && text.charCodeAt(start + 1) !== 46) return false;
  let m = 0;
  let significant = 0;
  let scale = -1;
  for (let k = start; k < len; k++) {
    const c = text.charCodeAt(k);
    if (c === 46) {
      if (scale >= 0 || k === start || k === len - 1) return false;
      scale = 0;
      continue;
    }
    if (c < 48 || c > 57) return false;
    if (scale >= 0) scale++;
    if (m !== 0 || c !== 48) significant++;
    if (significant > MAX_SIGNIFICANT || scale > 255) return false;
    m = m * 10 + (c - 48);
  }
  // -0 stays -0 in a Float64Array: "-0.00" is given back as written.
  digits[i] = neg ? -m : m;
  scales[i] = scale < 0 ? 0 : scale;
  return true;
}

/** Fills columns row by row: `add` per value, then `column` for the rows added since the last one. */
export class DayColumnWriter {
  private readonly days: Int32Array;
  private readonly digits: Float64Array;
  private readonly scales: Uint8Array;
  private wide: Map<number, string> | null = null;
  private from = 0;
  private n = 0;

  /** Room for `capacity` values in all: one buffer per kind, each series a view of its rows. */
  constructor(capacity: number) {
    this.days = new Int32Array(capacity);
    this.digits = new Float64Array(capacity);
    this.scales = new Uint8Array(capacity);
  }

  add(date: string, text: string): void {
    const i = this.n++;
    this.days[i] = dayNumber(date);
    if (!putDigits(this.digits, this.scales, i, text)) {
      this.digits[i] = NaN;
      (this.wide ??= new Map()).set(i - this.from, text);
    }
  }

  /** The series of the values added since the previous call. */
  column(): DayColumn {
    const col: DayColumn = {
      days: this.days.subarray(this.from, this.n), digits: this.digits.subarray(this.from, this.n),
      scales: this.scales.subarray(this.from, this.n), wide: this.wide,
    };
    this.from = this.n;
    this.wide = null;
    return col;
  }
}

/** The column of a series written as texts. */
export function columnOfTexts(dates: readonly string[], values: readonly string[]): DayColumn {
  const w = new DayColumnWriter(dates.length);
  for (let i = 0; i < dates.length; i++) w.add(dates[i]!, values[i]!);
  return w.column();
}

export const EMPTY_COLUMN: DayColumn = Object.freeze({ days: new Int32Array(0), digits: new Float64Array(0), scales: new Uint8Array(0), wide: null });

/** The value at `i` as the decimal text it was read from ("-12.50" gives "-12.50"). */
export function valueText(col: DayColumn, i: number): string {
  return digitsText(col.digits, col.scales, col.wide, i);
}

/** Value `i` of digits and scales (`putDigits`) as the decimal text it was read from, or from `wide`. */
export function digitsText(digits: Float64Array, scales: Uint8Array, wide: Map<number, string> | null, i: number): string {
  const m = digits[i]!;
  if (m !== m) return wide!.get(i)!;
  const scale = scales[i]!;
  const sign = m < 0 || Object.is(m, -0) ? "-" : "";
  let t = String(Math.abs(m));
  if (scale === 0) return sign + t;
  if (t.length <= scale) t = "0".repeat(scale - t.length + 1) + t;
  return `${sign}${t.slice(0, t.length - scale)}.${t.slice(t.length - scale)}`;
}

/** decimal.js's digits per word of its `d` array (its base is 10^7). */
const LOG_BASE = 7;

/**
 * The value at `i` as a Decimal: the one `new Decimal(digitsText(...))` makes, built from the
 * digits without writing the text and parsing it back (a replay reads every transaction's
 * quantity and amount: at 100,000 rows the text and its parse were ~10 % of a cold report). The
 * words are laid out as decimal.js's parser lays them (parseDecimal): the first word holds the
 * digits down to the units' word boundary, then words of 7 digits, the last padded with zeros.
 */
export function decimalAt(digits: Float64Array, scales: Uint8Array, wide: Map<number, string> | null, i: number): Decimal {
  const m = digits[i]!;
  if (m !== m) return new Decimal(wide!.get(i)!);
  // Zero, with the sign its text has ("-0.00" is a negative zero to decimal.js too).
  if (m === 0) return new Decimal(m);
  const text = String(m < 0 ? -m : m);
  let len = text.length;
  while (text.charCodeAt(len - 1) === 48) len--;
  const e = text.length - 1 - scales[i]!;
  const d: number[] = [];
  let k = (e + 1) % LOG_BASE;
  if (e < 0) k += LOG_BASE;
  let rest: string;
  let pad: number;
  if (k < len) {
    if (k) d.push(+text.slice(0, k));
    for (const stop = len - LOG_BASE; k < stop;) d.push(+text.slice(k, k += LOG_BASE));
    rest = text.slice(k, len);
    pad = LOG_BASE - rest.length;
  } else {
    rest = text.slice(0, len);
    pad = k - len;
  }
  d.push(pad > 0 ? +rest * 10 ** pad : +rest);
  // A Decimal made by the constructor (its fields in the constructor's order), then given the value.
  const x = new Decimal(1) as Decimal & { s: number; e: number; d: number[] };
  x.s = m < 0 ? -1 : 1;
  x.e = e;
  x.d = d;
  return x;
}

/** The value at `i` as exact parts (exact-decimal.ts): what `partsOfText` gives for its text. */
export function valueParts(col: DayColumn, i: number): DecimalParts | null {
  const m = col.digits[i]!;
  if (m !== m) return null;
  if (m === 0) return EXACT_ZERO;
  const exp = -col.scales[i]!;
  return { m: BigInt(m), exp, top: exp + String(Math.abs(m)).length - 1 };
}

/** Index of the latest day on or before `day` in `days` (ascending), or -1. */
export function dayOnOrBefore(days: ArrayLike<number>, day: number): number {
  let lo = 0;
  let hi = days.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (days[mid]! <= day) { found = mid; lo = mid + 1; } else hi = mid - 1;
  }
  return found;
}

/** Index of the first day on or after `day` in `days` (ascending); the length when none. */
export function firstDayFrom(days: ArrayLike<number>, day: number): number {
  let lo = 0;
  let hi = days.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (days[mid]! < day) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The dates of a column as texts (one text per day: calendar.ts keeps them). */
export function columnDates(col: DayColumn): string[] {
  return Array.from(col.days, dayText);
}

/** Rows [from, to) of `col` (views of its buffers, `wide` renumbered). */
function rows(col: DayColumn, from: number, to: number): DayColumn {
  let wide: Map<number, string> | null = null;
  if (col.wide) for (const [i, t] of col.wide) if (i >= from && i < to) (wide ??= new Map()).set(i - from, t);
  return { days: col.days.subarray(from, to), digits: col.digits.subarray(from, to), scales: col.scales.subarray(from, to), wide };
}

/** The rows of `a` then those of `b` (each in its own new buffers). */
export function concatColumns(a: DayColumn, b: DayColumn): DayColumn {
  const n = a.days.length + b.days.length;
  const days = new Int32Array(n);
  const digits = new Float64Array(n);
  const scales = new Uint8Array(n);
  days.set(a.days); days.set(b.days, a.days.length);
  digits.set(a.digits); digits.set(b.digits, a.days.length);
  scales.set(a.scales); scales.set(b.scales, a.days.length);
  let wide: Map<number, string> | null = a.wide ? new Map(a.wide) : null;
  if (b.wide) for (const [i, t] of b.wide) (wide ??= new Map()).set(i + a.days.length, t);
  return { days, digits, scales, wide };
}

/**
 * `prev` with its rows from `since` on replaced by `fresh` (the rows reloaded from that day): `prev`
 * itself when they are the same rows (after one write nearly every series is unchanged).
 */
export function patchColumn(prev: DayColumn, fresh: DayColumn, since: number): DayColumn {
  const n = firstDayFrom(prev.days, since);
  if (prev.days.length - n === fresh.days.length) {
    let same = true;
    for (let i = 0; same && i < fresh.days.length; i++) {
      same = fresh.days[i] === prev.days[n + i] && Object.is(fresh.digits[i], prev.digits[n + i]) && fresh.scales[i] === prev.scales[n + i]
        && (fresh.digits[i] === fresh.digits[i] || fresh.wide!.get(i) === prev.wide!.get(n + i));
    }
    if (same) return prev;
  }
  return concatColumns(rows(prev, 0, n), fresh);
}
