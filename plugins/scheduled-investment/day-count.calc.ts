import { Decimal, type IsoDate } from "../../sdk/index.ts";

/** The day-count conventions of a schedule. */
export const DAY_COUNTS = ["ACT/365", "ACT/360", "ACT/ACT", "30/360"] as const;
export type DayCount = (typeof DAY_COUNTS)[number];

/**
 * A year fraction kept as an exact ratio of integers, so that `base × rate × fraction` is divided
 * once, at the end: 10 days ACT/365 of 365.00 is exactly 10, never 9.99…9 from a rounded 10/365.
 */
export interface YearFraction {
  readonly denominator: number;
  readonly numerator: number;
}

// Civil-date arithmetic on day numbers (days since 1970-01-01), after H. Hinnant's "chrono-compatible
// low-level date algorithms": plain integer maths, no Date object and no clock.

function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

function civilFromDays(days: number): [year: number, month: number, day: number] {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365);
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const shifted = Math.floor((5 * dayOfYear + 2) / 153);
  const month = shifted < 10 ? shifted + 3 : shifted - 9;
  return [yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, dayOfYear - Math.floor((153 * shifted + 2) / 5) + 1];
}

const pad = (value: number, width: number) => String(value).padStart(width, "0");
const format = (year: number, month: number, day: number) => `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}` as IsoDate;

/** Days since 1970-01-01 of an ISO day. */
export function dayNumber(date: string): number {
  return daysFromCivil(...parts(date));
}

/** The ISO day of a day number (inverse of {@link dayNumber}). */
export function isoDay(days: number): IsoDate {
  return format(...civilFromDays(days));
}

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

export function daysInMonth(year: number, month: number): number {
  return [31, isLeapYear(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
}

function parts(date: string): [year: number, month: number, day: number] {
  const [year, month, day] = date.split("-").map((part) => Number.parseInt(part, 10));
  return [year!, month!, day!];
}

/**
 * `anchor` moved by whole months, month-end aware: an anchor on the last day of its month lands on
 * the last day of the target month (2024-01-31 + 1 = 2024-02-29, + 2 = 2024-03-31); any other
 * anchor keeps its day, clamped to the month's length (2024-01-30 + 1 = 2024-02-29, + 2 = 2024-03-30).
 * Always computed from the anchor, never step by step, so short months do not make the day drift.
 */
export function addMonths(anchor: string, months: number): IsoDate {
  const [year, month, day] = parts(anchor);
  const index = year * 12 + (month - 1) + months;
  const targetYear = Math.floor(index / 12);
  const targetMonth = (index % 12) + 1;
  const length = daysInMonth(targetYear, targetMonth);
  return format(targetYear, targetMonth, day === daysInMonth(year, month) ? length : Math.min(day, length));
}

/** ACT/ACT ISDA: each day from `from` (included) to `to` (excluded) counts 1/366 in a leap year, 1/365 otherwise. */
function actualActual(from: number, to: number): YearFraction {
  let leapDays = 0;
  let otherDays = 0;
  for (let year = civilFromDays(from)[0]; year <= civilFromDays(to)[0]; year += 1) {
    const days = Math.min(to, daysFromCivil(year + 1, 1, 1)) - Math.max(from, daysFromCivil(year, 1, 1));
    if (isLeapYear(year)) leapDays += days;
    else otherDays += days;
  }
  return { denominator: 365 * 366, numerator: otherDays * 366 + leapDays * 365 };
}

/** 30/360 bond basis (ISDA 2006 4.16(f)): D1 31 becomes 30; D2 31 becomes 30 when D1 is then 30. No February rule. */
function thirty360(from: number, to: number): YearFraction {
  const [y1, m1, rawD1] = civilFromDays(from);
  const [y2, m2, rawD2] = civilFromDays(to);
  const d1 = Math.min(rawD1, 30);
  const d2 = rawD2 === 31 && d1 === 30 ? 30 : rawD2;
  return { denominator: 360, numerator: 360 * (y2 - y1) + 30 * (m2 - m1) + (d2 - d1) };
}

/** {@link yearFraction} between two day numbers. */
export function yearFractionOfDays(from: number, to: number, convention: DayCount): YearFraction {
  if (to < from) throw new RangeError(`year fraction from ${isoDay(from)} to an earlier day ${isoDay(to)}`);
  switch (convention) {
    case "ACT/365":
      return { denominator: 365, numerator: to - from };
    case "ACT/360":
      return { denominator: 360, numerator: to - from };
    case "ACT/ACT":
      return actualActual(from, to);
    case "30/360":
      return thirty360(from, to);
  }
}

/**
 * The year fraction from `from` to `to` (`from` <= `to`; 0 when equal) under `convention`:
 * ACT/365 and ACT/360 divide the actual days by 365 or 360; ACT/ACT is ISDA (split by calendar
 * year); 30/360 is the US bond basis. Throws a RangeError when `to` is before `from`.
 */
export function yearFraction(from: string, to: string, convention: DayCount): YearFraction {
  return yearFractionOfDays(dayNumber(from), dayNumber(to), convention);
}

/** `amount × rate × fraction`, multiplied first and divided once (one rounding at 34 digits). */
export function accrue(amount: Decimal, rate: Decimal, fraction: YearFraction): Decimal {
  if (fraction.numerator === 0) return new Decimal(0);
  return amount.times(rate).times(fraction.numerator).div(fraction.denominator);
}
