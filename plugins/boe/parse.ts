import {
  type CurrencyCode, Decimal, failure, type FxRate, type IsoDate, type IsoDateRange, ok, type Outcome, PluginError,
  toDecimalString,
} from "../../sdk/index.ts";

// Pure readers of the Bank of England database CSV (`_iadb-fromshowcolumns.asp?csv.x=yes&CSVF=TN`):
// a header `DATE,<series>,...` then one row per published day, `02 Jan 2024,1.2652,1.1535`.

/**
 * The BoE daily spot series per target currency, each in units of the currency per 1 GBP (so the
 * value is the rate of the pair GBP/<currency> as it stands). The one table of series codes.
 */
export const BOE_SERIES: Readonly<Record<string, string>> = Object.freeze({
  AUD: "XUDLADS",
  CAD: "XUDLCDS",
  CHF: "XUDLSFS",
  CNY: "XUDLBK89",
  DKK: "XUDLDKS",
  EUR: "XUDLERS",
  HKD: "XUDLHDS",
  INR: "XUDLBK64",
  JPY: "XUDLJYS",
  NOK: "XUDLNKS",
  NZD: "XUDLNDS",
  SEK: "XUDLSKS",
  SGD: "XUDLSGS",
  USD: "XUDLUSS",
  ZAR: "XUDLZRS",
});

/** Target currencies of the `boe` provider, in the order of the reference list. */
export const BOE_TARGETS: readonly CurrencyCode[] = Object.freeze(
  ["USD", "EUR", "JPY", "CHF", "CAD", "AUD", "NZD", "SEK", "NOK", "DKK", "CNY", "HKD", "SGD", "ZAR", "INR"] as CurrencyCode[],
);

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const PLAIN_POSITIVE = /^\d+(?:\.\d+)?$/;

/** A day as the BoE query wants it: `2024-01-02` is `02/Jan/2024`. */
export function boeQueryDate(day: IsoDate): string {
  const [year, month, date] = day.split("-");
  return `${date}/${MONTHS[Number(month) - 1]}/${year}`;
}

/** A day as the BoE CSV writes it: `02 Jan 2024` is `2024-01-02`; anything else is undefined. */
export function boeCsvDay(text: string): IsoDate | undefined {
  const match = /^(\d{1,2}) ([A-Za-z]{3}) (\d{4})$/.exec(text.trim());
  if (!match) return undefined;
  const month = MONTHS.findIndex((name) => name.toLowerCase() === match[2]!.toLowerCase());
  if (month < 0) return undefined;
  const day = `${match[3]}-${String(month + 1).padStart(2, "0")}-${match[1]!.padStart(2, "0")}`;
  const check = new Date(`${day}T00:00:00Z`);
  return Number.isNaN(check.getTime()) || check.toISOString().slice(0, 10) !== day ? undefined : (day as IsoDate);
}

function csvLines(text: string): string[][] {
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/).filter((line) => line.trim() !== "");
  const header = lines[0]?.split(",").map((cell) => cell.trim()) ?? [];
  // The site answers bad requests with an HTML page and status 200: only a DATE header is CSV.
  if (header[0]?.toUpperCase() !== "DATE") {
    throw new PluginError("bad-response", "the Bank of England did not answer its CSV (an HTML error page?)");
  }
  return lines.map((line) => line.split(",").map((cell) => cell.trim()));
}

/**
 * Reads a BoE CSV answer into one outcome per series code of its header: the rates inside `range`,
 * days ascending, blank cells (days the series was not published) left out. A value that is not a
 * plain positive decimal fails its series alone (`bad-response`). Throws `bad-response` when the body
 * is not the CSV (an HTML page), a row has the wrong number of cells, or a day is unreadable.
 */
export function parseBoeCsv(text: string, range: IsoDateRange): Map<string, Outcome<readonly FxRate[]>> {
  const [header, ...rows] = csvLines(text);
  const codes = header!.slice(1);
  const rates = codes.map((): FxRate[] => []);
  const broken = new Map<number, PluginError>();
  for (const row of rows) {
    if (row.length !== header!.length) throw new PluginError("bad-response", `a BoE CSV row has ${row.length} cells, expected ${header!.length}`);
    const date = boeCsvDay(row[0]!);
    if (!date) throw new PluginError("bad-response", `the BoE CSV has an unreadable day "${row[0]}"`);
    if (date < range.from || date > range.to) continue;
    row.slice(1).forEach((cell, i) => {
      if (cell === "") return;
      if (!PLAIN_POSITIVE.test(cell) || new Decimal(cell).isZero()) {
        broken.set(i, new PluginError("bad-response", `BoE series ${codes[i]} has a value "${cell}" on ${date}`));
      } else {
        rates[i]!.push({ date, rate: toDecimalString(new Decimal(cell)) });
      }
    });
  }
  return new Map(
    codes.map((code, i) => {
      const error = broken.get(i);
      return [code, error ? failure(error) : ok(rates[i]!.sort((a, b) => (a.date < b.date ? -1 : 1)))];
    }),
  );
}
