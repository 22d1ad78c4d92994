/**
 * The one calendar module: whole UTC days as `YYYY-MM-DD` strings (string order is day order).
 * Pure: no typeorm, no tsyringe; safe in the worker pool.
 */

const DAY_MS = 86_400_000;

/** Where "today" comes from; tests pass a fixed one. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

const toDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
const toMs = (date: string): number => Date.parse(`${date}T00:00:00Z`);

/** The UTC calendar day of the clock's instant. */
export function today(clock: Clock = systemClock): string {
  return toDay(clock.now().getTime());
}

/** `date` moved by `days` (negative: back). */
export function addDays(date: string, days: number): string {
  return toDay(toMs(date) + days * DAY_MS);
}

/**
 * `date` moved by whole calendar months (negative: back), the day clamped to the target month's
 * length: 03-31 − 1 month = 02-28 (02-29 in a leap year), 2024-02-29 − 12 months = 2023-02-28.
 */
export function addMonths(date: string, months: number): string {
  const d = new Date(toMs(date));
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + months);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, last));
  return toDay(d.getTime());
}

/** Whole days from `earlier` to `later` (negative when `later` is before `earlier`). */
export function daysBetween(earlier: string, later: string): number {
  return Math.round((toMs(later) - toMs(earlier)) / DAY_MS);
}

/** Every day from `start` to `end` inclusive (empty when `end < start`). */
export function eachDay(start: string, end: string): string[] {
  const days: string[] = [];
  const last = toMs(end);
  for (let t = toMs(start); t <= last; t += DAY_MS) days.push(toDay(t));
  return days;
}

/** Index of the latest date on or before `date` in ascending `dates` (binary search), or -1. */
export function indexOnOrBefore(dates: readonly string[], date: string): number {
  let lo = 0;
  let hi = dates.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (dates[mid]! <= date) { found = mid; lo = mid + 1; } else hi = mid - 1;
  }
  return found;
}

/**
 * `date` as a day number: whole days since 1970-01-01 (negative before it). Read from the text's
 * digits, without a Date: the report's input holds its days as these (docs/portfolio.md "Input").
 */
export function dayNumber(date: string): number {
  let y = (date.charCodeAt(0) - 48) * 1000 + (date.charCodeAt(1) - 48) * 100 + (date.charCodeAt(2) - 48) * 10 + date.charCodeAt(3) - 48;
  const m = (date.charCodeAt(5) - 48) * 10 + date.charCodeAt(6) - 48;
  const d = (date.charCodeAt(8) - 48) * 10 + date.charCodeAt(9) - 48;
  // Days from civil (proleptic Gregorian), years starting in March.
  if (m <= 2) y -= 1;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

/** One text per day number met (a report meets a few thousand days), so a day's text is never made twice. */
const dayTexts = new Map<number, string>();

/** The `YYYY-MM-DD` text of a day number (the inverse of {@link dayNumber}). */
export function dayText(day: number): string {
  let text = dayTexts.get(day);
  if (text === undefined) dayTexts.set(day, text = toDay(day * DAY_MS));
  return text;
}
