import {
  type CurrencyCode, Decimal, type FxRate, type IsoDate, type IsoDateRange, PluginError, toDecimalString,
} from "../../sdk/index.ts";

// Pure readers of FRED's graph CSV (`/graph/fredgraph.csv?id=DEXUSEU&cosd=&coed=`): a header
// `observation_date,DEXUSEU` (`DATE,DEXUSEU` in older answers), then one row per weekday,
// `2024-01-02,1.0956`, with `.` or an empty value on days the Fed published no rate (holidays).

/** How an H.10 series quotes its currency against the US dollar. */
export type FedDirection = "foreign-per-usd" | "usd-per-foreign";

/**
 * The H.10 daily noon buying rates per target currency, with their direction: `usd-per-foreign`
 * series (USD per 1 EUR, GBP, AUD, NZD) are inverted to 1 USD in the currency, `foreign-per-usd`
 * series are the rate as it stands. The one table of series codes.
 */
export const FED_SERIES: Readonly<Record<string, { direction: FedDirection; id: string }>> = Object.freeze({
  AUD: { direction: "usd-per-foreign", id: "DEXUSAL" },
  BRL: { direction: "foreign-per-usd", id: "DEXBZUS" },
  CAD: { direction: "foreign-per-usd", id: "DEXCAUS" },
  CHF: { direction: "foreign-per-usd", id: "DEXSZUS" },
  CNY: { direction: "foreign-per-usd", id: "DEXCHUS" },
  DKK: { direction: "foreign-per-usd", id: "DEXDNUS" },
  EUR: { direction: "usd-per-foreign", id: "DEXUSEU" },
  GBP: { direction: "usd-per-foreign", id: "DEXUSUK" },
  HKD: { direction: "foreign-per-usd", id: "DEXHKUS" },
  INR: { direction: "foreign-per-usd", id: "DEXINUS" },
  JPY: { direction: "foreign-per-usd", id: "DEXJPUS" },
  KRW: { direction: "foreign-per-usd", id: "DEXKOUS" },
  MXN: { direction: "foreign-per-usd", id: "DEXMXUS" },
  NOK: { direction: "foreign-per-usd", id: "DEXNOUS" },
  NZD: { direction: "usd-per-foreign", id: "DEXUSNZ" },
  SEK: { direction: "foreign-per-usd", id: "DEXSDUS" },
  SGD: { direction: "foreign-per-usd", id: "DEXSIUS" },
  THB: { direction: "foreign-per-usd", id: "DEXTHUS" },
  TWD: { direction: "foreign-per-usd", id: "DEXTAUS" },
  ZAR: { direction: "foreign-per-usd", id: "DEXSFUS" },
});

/** Target currencies of the `fed` provider, in the order of the reference list. */
export const FED_TARGETS: readonly CurrencyCode[] = Object.freeze(
  ["EUR", "GBP", "JPY", "CAD", "CHF", "AUD", "SEK", "DKK", "NOK", "CNY", "INR", "BRL", "MXN", "ZAR", "SGD", "HKD", "KRW", "TWD", "NZD", "THB"] as CurrencyCode[],
);

const PLAIN_POSITIVE = /^\d+(?:\.\d+)?$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * 1 USD in the currency from a series value: `usd-per-foreign` values are inverted (`1 / value`, to
 * the SDK Decimal's 34 significant digits), `foreign-per-usd` values are kept as written.
 * `fedRate("1.0956", "usd-per-foreign")` is `"0.912741876597298284045271997079226"`.
 */
export function fedRate(value: string, direction: FedDirection): string {
  const decimal = new Decimal(value);
  return toDecimalString(direction === "usd-per-foreign" ? new Decimal(1).div(decimal) : decimal);
}

/**
 * Reads a fredgraph CSV answer for `seriesId` into rates of 1 USD in the currency, inside `range`,
 * days ascending; `.` and empty values (no rate that day) are left out. Throws `bad-response` when
 * the body is not the series' CSV (an HTML page, another series), a row is unreadable, or a value is
 * not a plain positive decimal.
 */
export function parseFredCsv(text: string, seriesId: string, direction: FedDirection, range: IsoDateRange): FxRate[] {
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/).filter((line) => line.trim() !== "");
  const header = lines[0]?.split(",").map((cell) => cell.trim()) ?? [];
  if (header.length !== 2 || !["DATE", "OBSERVATION_DATE"].includes(header[0]!.toUpperCase()) || header[1] !== seriesId) {
    throw new PluginError("bad-response", `FRED did not answer the ${seriesId} CSV (got "${(lines[0] ?? "").slice(0, 60)}")`);
  }
  const rates: FxRate[] = [];
  for (const line of lines.slice(1)) {
    const cells = line.split(",").map((cell) => cell.trim());
    const [date, value] = cells;
    if (cells.length !== 2 || !DAY.test(date!)) throw new PluginError("bad-response", `the FRED ${seriesId} CSV has an unreadable row "${line}"`);
    if (date! < range.from || date! > range.to || value === "" || value === ".") continue;
    if (!PLAIN_POSITIVE.test(value!) || new Decimal(value!).isZero()) {
      throw new PluginError("bad-response", `FRED series ${seriesId} has a value "${value}" on ${date}`);
    }
    rates.push({ date: date as IsoDate, rate: fedRate(value!, direction) as FxRate["rate"] });
  }
  return rates.sort((a, b) => (a.date < b.date ? -1 : 1));
}
