import { z } from "zod";

function isCalendarDate(text: string): boolean {
  const [year, month, day] = text.split("-").map((part) => Number.parseInt(part, 10));
  const date = new Date(0);
  date.setUTCFullYear(year!, month! - 1, day!); // Date.UTC would map years 0-99 to 1900-1999
  // No year 0000: the Gregorian calendar (and PostgreSQL's `date`) goes from 1 BC to AD 1.
  return year! >= 1 && date.getUTCFullYear() === year && date.getUTCMonth() === month! - 1 && date.getUTCDate() === day;
}

/**
 * Parses and brands an {@link IsoDate}: `YYYY-MM-DD` naming a real calendar
 * day (leap years included). `"2024-02-29"` passes; `"2023-02-29"`, `"0000-01-01"`,
 * `"2024-2-1"` and `"2024-01-01T00:00:00Z"` fail.
 */
export const IsoDateSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date in YYYY-MM-DD form")
  .refine(isCalendarDate, "must be a real calendar date")
  .brand<"IsoDate">();

/**
 * A calendar day without time zone, `YYYY-MM-DD`. Used for every price,
 * rate and transaction day instead of a JS `Date`.
 */
export type IsoDate = z.output<typeof IsoDateSchema>;

/**
 * The UTC calendar day of an instant. Throws a `RangeError` for an invalid
 * `Date`. Example: `toIsoDate(new Date("2024-03-05T23:30:00Z"))` is `"2024-03-05"`.
 */
export function toIsoDate(instant: Date): IsoDate {
  if (Number.isNaN(instant.getTime())) throw new RangeError("cannot take the day of an invalid Date");
  return instant.toISOString().slice(0, 10) as IsoDate;
}

/**
 * An inclusive range of days: `from` and `to` both belong to it, `from <= to`.
 * Example: `{ from: "2024-01-01", to: "2024-01-31" }` is January 2024.
 */
export interface IsoDateRange {
  readonly from: IsoDate;
  readonly to: IsoDate;
}

/**
 * Parses an {@link IsoDateRange} and checks `from <= to` (string order equals
 * day order for this format). Fails with "from must not be after to".
 */
export const IsoDateRangeSchema = z
  .object({ from: IsoDateSchema, to: IsoDateSchema })
  .refine((range) => range.from <= range.to, { message: "from must not be after to", path: ["from"] });
