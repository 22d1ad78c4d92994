import {
  type CurrencyCode, Decimal, failure, type FxRate, type IsoDate, type IsoDateRange, ok, type Outcome, PluginError,
  toDecimalString,
} from "../../sdk/index.ts";

// Pure readers of the ECB Data Portal's SDMX-JSON answer (`/service/data/EXR/D.USD+JPY.EUR.SP00.A?format=jsondata`):
// `dataSets[0].series` maps a key such as `"0:1:0:0:0"` (one index per series dimension, in the order of
// `structure.dimensions.series`) to `observations`, which map an index into the `TIME_PERIOD` values to
// `[value, ...attribute indices]`. Values are units of the currency per 1 EUR.

/**
 * Target currencies of the `ecb` provider: the ECB's euro foreign exchange reference rates, in the
 * order of its daily table. BGN stays listed for its history (published until the end of 2025).
 */
export const ECB_TARGETS: readonly CurrencyCode[] = Object.freeze(
  [
    "USD", "JPY", "BGN", "CZK", "DKK", "GBP", "HUF", "PLN", "RON", "SEK", "CHF", "ISK", "NOK", "TRY", "AUD",
    "BRL", "CAD", "CNY", "HKD", "IDR", "ILS", "INR", "KRW", "MXN", "MYR", "NZD", "PHP", "SGD", "THB", "ZAR",
  ] as CurrencyCode[],
);

const PLAIN_POSITIVE = /^\d+(?:\.\d+)?(?:e[+-]?\d+)?$/i;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

interface Dimension {
  id: string;
  values: Array<{ id: string }>;
}

interface SdmxAnswer {
  dataSets: Array<{ series?: Record<string, { observations?: Record<string, unknown> }> }>;
  structure: { dimensions: { observation: Dimension[]; series: Dimension[] } };
}

function bad(message: string): PluginError {
  return new PluginError("bad-response", `the ECB Data Portal ${message}`);
}

function isDimensionList(value: unknown): value is Dimension[] {
  return Array.isArray(value) && value.every((d) => typeof d?.id === "string" && Array.isArray(d?.values) && d.values.every((v: unknown) => typeof (v as { id?: unknown })?.id === "string"));
}

function readAnswer(text: string): SdmxAnswer {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw bad("did not answer JSON (a maintenance page?)");
  }
  const answer = body as Partial<SdmxAnswer> | null;
  const dimensions = answer?.structure?.dimensions;
  if (!Array.isArray(answer?.dataSets) || !isDimensionList(dimensions?.series) || !isDimensionList(dimensions?.observation)) {
    throw bad("answered JSON without SDMX dataSets and structure.dimensions");
  }
  return answer as SdmxAnswer;
}

/**
 * The text of an observation value: the JSON number's shortest round-trip string (`1.0956`), so no
 * binary float artefact reaches the Decimal. Undefined for a missing (null) value.
 */
function valueText(observation: unknown): string | undefined {
  const value = Array.isArray(observation) ? observation[0] : undefined;
  if (value === null || value === undefined || value === "NaN") return undefined;
  return String(value);
}

/** The rates of one series, inside `range`, days ascending; throws `bad-response` on an unreadable value. */
function seriesRates(observations: Record<string, unknown>, times: Dimension["values"], range: IsoDateRange, currency: string): FxRate[] {
  const rates: FxRate[] = [];
  for (const [index, observation] of Object.entries(observations)) {
    const date = times[Number(index)]?.id;
    if (!date || !DAY.test(date)) throw bad(`answered an observation index ${index} without a day`);
    if (date < range.from || date > range.to) continue;
    const text = valueText(observation);
    if (text === undefined) continue;
    if (!PLAIN_POSITIVE.test(text) || new Decimal(text).isZero()) throw bad(`answered EUR/${currency} "${text}" on ${date}`);
    rates.push({ date: date as IsoDate, rate: toDecimalString(new Decimal(text)) });
  }
  return rates.sort((a, b) => (a.date < b.date ? -1 : 1));
}

/**
 * Reads an SDMX-JSON answer into one outcome per currency it holds a series for: rates of 1 EUR in
 * that currency inside `range`, days ascending, missing (null) observations left out. A series with
 * an unreadable value fails its currency alone (`bad-response`). Throws `bad-response` when the body
 * is not SDMX-JSON or has no `CURRENCY` and `TIME_PERIOD` dimensions.
 */
export function parseEcbJson(text: string, range: IsoDateRange): Map<string, Outcome<readonly FxRate[]>> {
  const answer = readAnswer(text);
  const { observation, series } = answer.structure.dimensions;
  const position = series.findIndex((d) => d.id === "CURRENCY");
  const times = observation.find((d) => d.id === "TIME_PERIOD")?.values;
  if (position < 0 || !times) throw bad("answered SDMX-JSON without CURRENCY and TIME_PERIOD dimensions");
  const result = new Map<string, Outcome<readonly FxRate[]>>();
  for (const [key, entry] of Object.entries(answer.dataSets[0]?.series ?? {})) {
    const currency = series[position]!.values[Number(key.split(":")[position])]?.id;
    if (!currency) throw bad(`answered a series key "${key}" outside its CURRENCY values`);
    try {
      result.set(currency, ok(seriesRates(entry?.observations ?? {}, times, range, currency)));
    } catch (error) {
      result.set(currency, failure(error));
    }
  }
  return result;
}

/** The series key of the daily EUR reference rates of `currencies`: `D.USD+JPY.EUR.SP00.A`. */
export function ecbSeriesKey(currencies: readonly string[]): string {
  return `D.${currencies.join("+")}.EUR.SP00.A`;
}
