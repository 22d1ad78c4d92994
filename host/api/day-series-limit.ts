import { daysBetween } from "../../core/dates/calendar.ts";
import { amount, type Limit } from "../http/bulk-limits.ts";

/** The day-series limit the FX conversion and the price query share (docs/security.md "Bulk-read limits"). */

/** Calendar days of the inclusive range `start`..`end` (1 for a single day; 0 when `end` is before `start`). */
export function daysIn(start: string, end: string): number {
  return Math.max(0, daysBetween(start, end) + 1);
}

/**
 * Days × series one read may span (`POST /fx/currencies/convert`, `POST /assets/prices/query`): an
 * answer carries at most one row per day and series, ~140 bytes of JSON each, so 200,000 keep an
 * answer under ~30 MB (~3 MB gzipped) and its work in the worker under ~2 s. 20 years of one series
 * are 7,305 day-series: 27 of them fit in one request.
 */
export const MAX_DAY_SERIES = 200_000;

/** The day-series limit of a read whose items each span `days` and carry `signals` (each signal one more series). */
export function daySeriesLimit<T>(itemsOf: (body: any) => readonly T[], days: (item: T) => number, signals: (item: T) => number): Limit {
  return {
    max: MAX_DAY_SERIES,
    unit: "day-series",
    validated: true,
    count: ({ body }) => itemsOf(body).reduce((n, item) => n + days(item) * (1 + signals(item)), 0),
    hint: "Ask for shorter date ranges, fewer signals or fewer items per request (several requests are fine)",
    doc: `at most ${amount(MAX_DAY_SERIES)} day-series per request (the days of each item's date range × (1 + its number of signals), summed over the items)`,
  };
}
