import type { IsoDate } from "../dates.ts";

/** Order of day, month and year in a numeric date: `DMY` (31/12/2024), `MDY` (12/31/2024), `YMD`, or `auto`. */
export type DateOrder = "DMY" | "MDY" | "YMD" | "auto";

const MONTHS: Record<string, number> = {
  jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, sept: 9, oct: 10, nov: 11, dec: 12,
  // it, de, fr, es, nl
  gen: 1, mag: 5, giu: 6, lug: 7, ago: 8, set: 9, ott: 10, dic: 12,
  jän: 1, mär: 3, mai: 5, okt: 10, dez: 12,
  janv: 1, févr: 2, fev: 2, mars: 3, avr: 4, juin: 6, juil: 7, août: 8, aout: 8, déc: 12,
  ene: 1, abr: 4, mei: 5, maa: 3, mrt: 3,
};

function iso(y: number, m: number, d: number): IsoDate | null {
  if (y < 100) y += y < 70 ? 2000 : 1900;
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return null;
  return `${String(y).padStart(4, "0")}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}` as IsoDate;
}

/**
 * Parses a report's date (a time part, if any, is dropped: brokers write local trade times, and the
 * ledger keeps days). Numeric forms with `-` `/` `.` or space, year first or last, in `order`
 * (year-first is always YMD; auto reads DMY unless the second number is over 12); ISO datetimes
 * (`2024-01-02T10:00:00Z`: the written day, not converted); compact `20240102`; month names in
 * English, Italian, German, French, Spanish and Dutch (`2 Jan 2024`, `Jan 2, 2024`, `02-gen-2024`).
 * Returns `null` for anything else or an impossible day.
 * Example: `parseDate("03/04/2024", "MDY")` is `"2024-03-04"`; with `"DMY"` it is `"2024-04-03"`.
 */
export function parseDate(input: string | null | undefined, order: DateOrder = "auto"): IsoDate | null {
  if (!input) return null;
  const text = input.trim().replace(/^"|"$/g, "");
  let m = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?:$|[T\s,])/.exec(text);
  if (m) return iso(+m[1]!, +m[2]!, +m[3]!);
  m = /^(\d{4})(\d{2})(\d{2})(?:$|[T\s;])/.exec(text);
  if (m) return iso(+m[1]!, +m[2]!, +m[3]!);
  m = /^(\d{1,2})[-/. ](\d{1,2})[-/. ](\d{4}|\d{2})(?:$|[T\s,])/.exec(text);
  if (m) {
    const a = +m[1]!;
    const b = +m[2]!;
    const y = +m[3]!;
    const dmy = order === "MDY" ? false : order === "DMY" ? true : b <= 12;
    return dmy ? iso(y, b, a) : iso(y, a, b);
  }
  m = /^(\d{1,2})[-/. ]+([A-Za-zÀ-ÿ]{3,5})\.?[-/. ,]+(\d{4}|\d{2})(?:$|[T\s,])/.exec(text);
  if (m) {
    const month = MONTHS[m[2]!.toLowerCase()] ?? MONTHS[m[2]!.toLowerCase().slice(0, 3)];
    return month ? iso(+m[3]!, month, +m[1]!) : null;
  }
  m = /^([A-Za-zÀ-ÿ]{3,9})\.?\s+(\d{1,2}),?\s+(\d{4})(?:$|[T\s,])/.exec(text);
  if (m) {
    const month = MONTHS[m[1]!.toLowerCase()] ?? MONTHS[m[1]!.toLowerCase().slice(0, 3)];
    return month ? iso(+m[3]!, month, +m[2]!) : null;
  }
  return null;
}

/**
 * The order of numeric dates that all `samples` can be read in: `MDY` when some middle number is
 * over 12, `DMY` when some first number is, else `fallback`.
 * Example: `detectDateOrder(["01/02/2024", "13/02/2024"])` is `"DMY"`.
 */
export function detectDateOrder(samples: Iterable<string>, fallback: "DMY" | "MDY" = "DMY"): "DMY" | "MDY" {
  for (const s of samples) {
    const m = /^(\d{1,2})[-/. ](\d{1,2})[-/. ]\d{2,4}/.exec(s.trim());
    if (!m) continue;
    if (+m[1]! > 12) return "DMY";
    if (+m[2]! > 12) return "MDY";
  }
  return fallback;
}
