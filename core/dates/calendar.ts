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
