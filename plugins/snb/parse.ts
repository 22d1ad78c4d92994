import {
  type CurrencyCode, Decimal, failure, type FxRate, type IsoDate, type IsoDateRange, ok, type Outcome, PluginError,
  toDecimalString,
} from "../../sdk/index.ts";

// Pure readers of the SNB data portal's `devkum` cube CSV (`/api/cube/devkum/data/csv/en`): a few
// `"Key";"value"` lines, a blank line, then `"Date";"D0";"D1";"Value"` rows such as
// `"2024-01";"M1";"JPY100";"0.5842"`: CHF per 1 (or per 100) units of the currency, one value per month.

/** Target currencies of the `snb` provider, in the order of the reference list. */
export const SNB_TARGETS: readonly CurrencyCode[] = Object.freeze(
  ["USD", "EUR", "GBP", "JPY", "CAD", "AUD", "SEK", "NOK", "DKK", "CNY"] as CurrencyCode[],
);

/**
 * The `D0` measures of the cube, most preferred first: `M1` is the month-end rate, `M0` the monthly
 * average. Values are dated on the last day of their month, which is the day the month-end rate
 * belongs to, so it wins; the average stands in for a month the cube has no month-end value for.
 */
export const SNB_MEASURES = ["M1", "M0"] as const;

const HEADER = ["Date", "D0", "D1", "Value"];
const PLAIN_POSITIVE = /^\d+(?:\.\d+)?$/;

/** The last day of a `YYYY-MM` month: `2024-02` is `2024-02-29`. */
export function monthEnd(month: string): IsoDate {
  const [year, number] = month.split("-").map(Number);
  return new Date(Date.UTC(year!, number!, 0)).toISOString().slice(0, 10) as IsoDate;
}

/** The month of a day as the SNB query wants it: `2024-01-15` is `2024-01`. */
export function snbQueryMonth(day: IsoDate): string {
  return day.slice(0, 7);
}

/**
 * 1 CHF in units of the currency, from the cube's CHF per `units` of it: `units / value`, to the SDK
 * Decimal's 34 significant digits. `"0.5842"` CHF per 100 JPY is 171.17425539198904484765491270113 JPY.
 */
export function invertQuote(value: string, units: string): string {
  return toDecimalString(new Decimal(units).div(new Decimal(value)));
}

function fieldsOf(line: string): string[] {
  return line.split(";").map((field) => field.trim().replace(/^"(.*)"$/, "$1"));
}

function dataRows(text: string): string[][] {
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/).filter((line) => line.trim() !== "");
  const start = lines.findIndex((line) => fieldsOf(line).join(";") === HEADER.join(";"));
  if (start < 0) throw new PluginError("bad-response", "the SNB data portal did not answer the devkum CSV (no Date;D0;D1;Value header)");
  return lines.slice(start + 1).map(fieldsOf);
}

type Picked = Map<string, Map<string, { measure: number; value: string; units: string }>>;

function pickValues(rows: readonly string[][], range: IsoDateRange, broken: Map<string, PluginError>): Picked {
  const picked: Picked = new Map();
  for (const row of rows) {
    if (row.length !== HEADER.length || !/^\d{4}-(0[1-9]|1[0-2])$/.test(row[0]!)) {
      throw new PluginError("bad-response", `the SNB CSV has an unreadable row "${row.join(";")}"`);
    }
    const [month, measureCode, series, value] = row as [string, string, string, string];
    const measure = SNB_MEASURES.indexOf(measureCode as (typeof SNB_MEASURES)[number]);
    const unit = /^([A-Z]{3})(1|10|100|1000)$/.exec(series);
    const date = monthEnd(month);
    if (measure < 0 || !unit || value === "" || date < range.from || date > range.to) continue;
    const currency = unit[1]!;
    if (!PLAIN_POSITIVE.test(value) || new Decimal(value).isZero()) {
      broken.set(currency, new PluginError("bad-response", `SNB series ${series} has a value "${value}" for ${month}`));
      continue;
    }
    const months = picked.get(currency) ?? new Map();
    const held = months.get(month);
    if (!held || measure < held.measure) months.set(month, { measure, units: unit[2]!, value });
    picked.set(currency, months);
  }
  return picked;
}

/**
 * Reads a devkum CSV answer into one outcome per currency it quotes: rates of 1 CHF in that currency
 * (inverted, per-100 quotes brought to one unit), each dated on the last day of its month and kept
 * only inside `range`, days ascending. A value that is not a plain positive decimal fails its currency
 * alone (`bad-response`). Throws `bad-response` when the body is not the cube's CSV or a row is unreadable.
 */
export function parseSnbCsv(text: string, range: IsoDateRange): Map<string, Outcome<readonly FxRate[]>> {
  const broken = new Map<string, PluginError>();
  const picked = pickValues(dataRows(text), range, broken);
  const result = new Map<string, Outcome<readonly FxRate[]>>();
  for (const [currency, months] of picked) {
    const rates = [...months]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([month, { units, value }]): FxRate => ({ date: monthEnd(month), rate: invertQuote(value, units) as FxRate["rate"] }));
    result.set(currency, ok(rates));
  }
  for (const [currency, error] of broken) result.set(currency, failure(error));
  return result;
}
