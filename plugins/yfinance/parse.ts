import {
  type AssetEvent,
  type AssetMetadata,
  type CurrencyCode,
  CurrencyCodeSchema,
  Decimal,
  type DecimalString,
  describeZodError,
  type IsoDate,
  type IsoDateRange,
  PluginError,
  type PricePoint,
  type Quote,
  type QuoteSearchResult,
  toDecimalString,
  toIsoDate,
  z,
} from "../../sdk/index.ts";

// Pure readers of Yahoo Finance's chart (/v8/finance/chart) and search (/v1/finance/search) JSON.
// Unknown fields are ignored; a shape we cannot read is a `bad-response`.

const Series = z.array(z.number().nullable()).optional();

const ChartMetaSchema = z.object({
  currency: z.string().nullish(),
  exchangeTimezoneName: z.string().nullish(),
  gmtoffset: z.number().int().nullish(),
  instrumentType: z.string().nullish(),
  longName: z.string().nullish(),
  regularMarketPrice: z.number().nullish(),
  regularMarketTime: z.number().int().nullish(),
  shortName: z.string().nullish(),
  symbol: z.string(),
});

const ChartResultSchema = z.object({
  events: z
    .object({
      dividends: z.record(z.string(), z.object({ amount: z.number(), date: z.number().int() })).optional(),
      splits: z
        .record(z.string(), z.object({ date: z.number().int(), denominator: z.number().positive(), numerator: z.number().positive() }))
        .optional(),
    })
    .optional(),
  indicators: z.object({
    quote: z.array(z.object({ close: Series, high: Series, low: Series, open: Series, volume: Series })).optional(),
  }),
  meta: ChartMetaSchema,
  timestamp: z.array(z.number().int()).optional(),
});

const ChartResponseSchema = z.object({
  chart: z.object({
    error: z.object({ code: z.string(), description: z.string().nullish() }).nullish(),
    result: z.array(ChartResultSchema).nullish(),
  }),
});

const SearchResponseSchema = z.object({
  quotes: z.array(
    z.object({
      isYahooFinance: z.boolean().optional(),
      longname: z.string().nullish(),
      shortname: z.string().nullish(),
      symbol: z.string().optional(),
    }),
  ),
});

/** One instrument's chart as Yahoo sends it (`chart.result[0]`). */
export type ChartResult = z.output<typeof ChartResultSchema>;

function readShape<T>(schema: z.ZodType<T>, json: unknown, what: string): T {
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new PluginError("bad-response", `Yahoo Finance ${what} has an unexpected shape: ${describeZodError(parsed.error)}`);
  return parsed.data;
}

/**
 * Reads a chart response. Throws `not-found` when Yahoo reports "Not Found" or no result (an unknown
 * or delisted symbol), `bad-response` for any other error body or shape.
 */
export function parseChartResponse(json: unknown, symbol: string): ChartResult {
  const { chart } = readShape(ChartResponseSchema, json, `chart of "${symbol}"`);
  if (chart.error) {
    const reason = chart.error.code === "Not Found" ? "not-found" : "bad-response";
    throw new PluginError(reason, `Yahoo Finance chart of "${symbol}": ${chart.error.description ?? chart.error.code}`);
  }
  const result = chart.result?.[0];
  if (!result) throw new PluginError("not-found", `Yahoo Finance has no chart for "${symbol}"`);
  return result;
}

/** Search hits with a symbol, in Yahoo's order; entries outside Yahoo Finance (no quote page) are skipped. */
export function parseSearchResponse(json: unknown): QuoteSearchResult[] {
  return readShape(SearchResponseSchema, json, "search")
    .quotes.filter((hit) => hit.symbol && hit.isYahooFinance !== false)
    .map((hit) => ({ identifier: hit.symbol!, name: hit.longname || hit.shortname || hit.symbol! }));
}

function shortestSinglePrecision(value: number): string | undefined {
  if (Math.fround(value) !== value) return undefined;
  for (let digits = 1; digits <= 9; digits++) {
    const text = value.toPrecision(digits);
    if (Math.fround(Number(text)) === value) return text;
  }
  return undefined;
}

/**
 * A JSON number as an exact decimal string without binary artefacts. Yahoo stores prices as 32-bit
 * floats (185.64 arrives as 185.63999938964844), so a value that is exactly single-precision is read
 * as the shortest decimal of that single; any other value is read at the 15 significant digits a
 * double carries faithfully (0.1 + 0.2 becomes "0.3"). Integers are kept whole.
 */
export function decimalFromNumber(value: number): DecimalString {
  if (!Number.isFinite(value)) throw new PluginError("bad-response", `Yahoo Finance sent a non-finite number: ${value}`);
  if (Number.isInteger(value)) return toDecimalString(new Decimal(value.toString()));
  return toDecimalString(new Decimal(shortestSinglePrecision(value) ?? value.toPrecision(15)));
}

// Yahoo quotes some exchanges in minor units: London in pence (GBp), Johannesburg in cents (ZAc),
// Tel Aviv in agorot (ILA). Prices and dividends are reported in the major currency instead.
const MINOR_UNITS: Readonly<Record<string, CurrencyCode>> = {
  GBX: "GBP" as CurrencyCode,
  GBp: "GBP" as CurrencyCode,
  ILA: "ILS" as CurrencyCode,
  ZAc: "ZAR" as CurrencyCode,
};

interface Unit {
  readonly currency?: CurrencyCode;
  readonly divisor: number;
}

function unitOf(currency: string | null | undefined): Unit {
  if (!currency) return { divisor: 1 };
  const major = MINOR_UNITS[currency];
  if (major) return { currency: major, divisor: 100 };
  const parsed = CurrencyCodeSchema.safeParse(currency.toUpperCase());
  return parsed.success ? { currency: parsed.data, divisor: 1 } : { divisor: 1 };
}

function amount(value: number, unit: Unit): DecimalString {
  const exact = decimalFromNumber(value);
  return unit.divisor === 1 ? exact : toDecimalString(new Decimal(exact).div(unit.divisor));
}

const dayFormatters = new Map<string, Intl.DateTimeFormat | null>();

function dayFormatter(timeZone: string): Intl.DateTimeFormat | null {
  if (!dayFormatters.has(timeZone)) {
    try {
      dayFormatters.set(timeZone, new Intl.DateTimeFormat("en-CA", { day: "2-digit", month: "2-digit", timeZone, year: "numeric" }));
    } catch {
      dayFormatters.set(timeZone, null); // a zone this runtime doesn't know: fall back to gmtoffset
    }
  }
  return dayFormatters.get(timeZone)!;
}

/**
 * The exchange's calendar day of a Unix timestamp (seconds). Daily bars are stamped at the session
 * open, which is the previous UTC day east of UTC (Sydney opens at 23:00 UTC). The named exchange time
 * zone is used when known because it follows daylight saving through history; `gmtoffset` (the
 * offset at the time of the request) is the fallback.
 */
export function marketDayOf(meta: ChartResult["meta"]): (unixSeconds: number) => IsoDate {
  const formatter = meta.exchangeTimezoneName ? dayFormatter(meta.exchangeTimezoneName) : null;
  if (formatter) {
    return (unixSeconds) => {
      const parts = Object.fromEntries(formatter.formatToParts(unixSeconds * 1000).map((p) => [p.type, p.value]));
      return `${parts.year}-${parts.month}-${parts.day}` as IsoDate;
    };
  }
  const offset = meta.gmtoffset ?? 0;
  return (unixSeconds) => toIsoDate(new Date((unixSeconds + offset) * 1000));
}

function within(range: IsoDateRange, day: IsoDate): boolean {
  return day >= range.from && day <= range.to;
}

/**
 * Daily points of a chart inside `range`, oldest first. A day whose close is null is absent; null
 * open, high, low or volume are left out of the point. When Yahoo sends two bars for one day (the
 * live bar beside the daily one), the later wins.
 */
export function chartPricePoints(result: ChartResult, range: IsoDateRange): PricePoint[] {
  const unit = unitOf(result.meta.currency);
  const dayOf = marketDayOf(result.meta);
  const quote = result.indicators.quote?.[0] ?? {};
  const byDay = new Map<IsoDate, PricePoint>();
  (result.timestamp ?? []).forEach((stamp, i) => {
    const close = quote.close?.[i];
    const date = dayOf(stamp);
    if (close == null || !within(range, date)) return;
    const point: { -readonly [K in keyof PricePoint]: PricePoint[K] } = { close: amount(close, unit), date };
    for (const key of ["high", "low", "open"] as const) {
      const value = quote[key]?.[i];
      if (value != null) point[key] = amount(value, unit);
    }
    const volume = quote.volume?.[i];
    if (volume != null) point.volume = decimalFromNumber(volume);
    byDay.set(date, point);
  });
  return [...byDay.values()].sort((a, b) => (a.date < b.date ? -1 : 1));
}

/**
 * Dividends (per-share amount in the quote currency) and splits (new shares per old share: a 4:1
 * split is "4", a 1:10 reverse split "0.1") inside `range`, oldest first.
 */
export function chartEvents(result: ChartResult, range: IsoDateRange): AssetEvent[] {
  const unit = unitOf(result.meta.currency);
  const dayOf = marketDayOf(result.meta);
  const events: AssetEvent[] = [];
  for (const dividend of Object.values(result.events?.dividends ?? {})) {
    const value = amount(dividend.amount, unit);
    events.push({ ...(unit.currency ? { currency: unit.currency } : {}), date: dayOf(dividend.date), type: "DIVIDEND", value });
  }
  for (const split of Object.values(result.events?.splits ?? {})) {
    const ratio = new Decimal(decimalFromNumber(split.numerator)).div(decimalFromNumber(split.denominator));
    events.push({ date: dayOf(split.date), type: "SPLIT", value: toDecimalString(ratio) });
  }
  return events
    .filter((event) => within(range, event.date))
    .sort((a, b) => (a.date === b.date ? a.type.localeCompare(b.type) : a.date < b.date ? -1 : 1));
}

/**
 * The latest price: `regularMarketPrice` on the market day of `regularMarketTime`, else the last
 * non-null daily close. Throws `not-found` when there is neither, `bad-response` without a currency.
 */
export function chartQuote(result: ChartResult): Quote {
  const { meta } = result;
  const unit = unitOf(meta.currency);
  if (!unit.currency) throw new PluginError("bad-response", `Yahoo Finance sent no usable currency for "${meta.symbol}"`);
  const dayOf = marketDayOf(meta);
  if (meta.regularMarketPrice != null && meta.regularMarketTime != null) {
    return { currency: unit.currency, date: dayOf(meta.regularMarketTime), price: amount(meta.regularMarketPrice, unit) };
  }
  const closes = result.indicators.quote?.[0]?.close ?? [];
  const stamps = result.timestamp ?? [];
  for (let i = Math.min(stamps.length, closes.length) - 1; i >= 0; i--) {
    const close = closes[i];
    if (close != null) return { currency: unit.currency, date: dayOf(stamps[i]!), price: amount(close, unit) };
  }
  throw new PluginError("not-found", `Yahoo Finance has no price for "${meta.symbol}"`);
}

const ASSET_TYPES: Readonly<Record<string, string>> = {
  CRYPTOCURRENCY: "CRYPTO",
  EQUITY: "STOCK",
  ETF: "ETF",
  INDEX: "INDEX",
  MUTUALFUND: "FUND",
};

/** Asset type from Yahoo's quote type (EQUITY → STOCK, MUTUALFUND → FUND, ...; anything else OTHER). */
export function assetTypeOf(quoteType: string | null | undefined): string {
  return (quoteType && ASSET_TYPES[quoteType.toUpperCase()]) || "OTHER";
}

/** Name, currency and asset type from a chart's meta. */
export function chartMetadata(result: ChartResult): AssetMetadata {
  const { meta } = result;
  const { currency } = unitOf(meta.currency);
  const name = meta.longName || meta.shortName || undefined;
  return { assetType: assetTypeOf(meta.instrumentType), ...(currency ? { currency } : {}), ...(name ? { name } : {}) };
}
