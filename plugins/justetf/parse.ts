import {
  type AssetMetadata,
  type CurrencyCode,
  Decimal,
  type DecimalString,
  type IsoDateRange,
  IsoDateSchema,
  PluginError,
  type PricePoint,
  type Quote,
  type QuoteSearchResult,
  toDecimalString,
  z,
} from "../../sdk/index.ts";

/*
 * Shapes of justETF's public JSON endpoints, as the site's own pages use them (recorded samples in
 * test/fixtures/justetf/). Only the fields read here are checked; the rest is ignored.
 *
 * GET /api/etfs/{isin}/performance-chart?locale=en&currency=EUR&valuesType=MARKET_VALUE
 *     &reduceData=false&includeDividends=false&dateFrom=YYYY-MM-DD&dateTo=YYYY-MM-DD
 *   {"latestQuote": {"raw": 98.59, "localized": "98.59"}, "latestQuoteDate": "2024-01-02",
 *    "price": {"raw": ..., "localized": ...},
 *    "series": [{"date": "2023-12-27", "value": {"raw": 85.12, "localized": "85.12"}}, ...]}
 *   Values are in the requested `currency`, one point per trading day.
 *
 * GET /api/etfs/cards?locale=en&currency=EUR&isin={isin}
 *   {"etfs": [{"isin": "IE00B4L5Y983", "name": "iShares Core MSCI World UCITS ETF USD (Acc)", ...}]}
 *
 * POST /servlet/etfs-table (form: draw, start, length, lang, country, universeType, etfsParams=query=...)
 *   The screener's DataTables answer: {"draw": 1, "recordsTotal": n, "recordsFiltered": n,
 *   "data": [{"isin": "...", "name": "...", "ticker": "...", "fundCurrency": "USD", ...}]}
 */

const Localized = z.object({ localized: z.string().optional(), raw: z.number() });

/** The performance-chart answer. */
export const ChartSchema = z.object({
  latestQuote: Localized.nullish(),
  latestQuoteDate: z.string().nullish(),
  series: z.array(z.object({ date: z.string(), value: Localized })),
});
export type Chart = z.output<typeof ChartSchema>;

/** The cards answer. */
export const CardsSchema = z.object({
  etfs: z.array(z.object({ isin: z.string(), name: z.string().optional() })),
});
export type Cards = z.output<typeof CardsSchema>;

/** The screener table answer. */
export const SearchTableSchema = z.object({
  data: z.array(z.object({ isin: z.string(), name: z.string() })),
});
export type SearchTable = z.output<typeof SearchTableSchema>;

/** A JSON number as an exact decimal string, through its shortest round-trip form ("98.59", never 98.5899999). */
export function decimalOf(raw: number): DecimalString {
  if (!Number.isFinite(raw)) throw new PluginError("bad-response", `justETF answered a non-finite price ${raw}`);
  return toDecimalString(new Decimal(String(raw)));
}

function isoDateOf(text: string): PricePoint["date"] {
  const parsed = IsoDateSchema.safeParse(text);
  if (!parsed.success) throw new PluginError("bad-response", `justETF answered an invalid date "${text}"`);
  return parsed.data;
}

/** The latest quote of a chart answer; not-found when justETF has none for the instrument. */
export function quoteOf(chart: Chart, isin: string, currency: CurrencyCode): Quote {
  if (!chart.latestQuote || !chart.latestQuoteDate) throw new PluginError("not-found", `justETF has no latest quote for ${isin}`);
  return { currency, date: isoDateOf(chart.latestQuoteDate), price: decimalOf(chart.latestQuote.raw) };
}

/** The chart's daily values inside `range` as closes, oldest first, one per day. */
export function historyOf(chart: Chart, range: IsoDateRange): PricePoint[] {
  const byDate = new Map<string, PricePoint>();
  for (const point of chart.series) {
    const date = isoDateOf(point.date);
    if (date >= range.from && date <= range.to) byDate.set(date, { close: decimalOf(point.value.raw), date });
  }
  return [...byDate.values()].sort((a, b) => (a.date < b.date ? -1 : 1));
}

/** Screener rows as search hits, deduplicated by ISIN. The quote currency depends on the assignment, so none is claimed. */
export function searchHitsOf(table: SearchTable): QuoteSearchResult[] {
  const seen = new Set<string>();
  return table.data.flatMap((row) => {
    const identifier = row.isin.trim().toUpperCase();
    if (!identifier || seen.has(identifier)) return [];
    seen.add(identifier);
    return [{ identifier, name: row.name.trim() }];
  });
}

/** What the cards answer tells about one ISIN: its name, and the currency its prices come in. */
export function metadataOf(cards: Cards, isin: string, currency: CurrencyCode): AssetMetadata {
  const card = cards.etfs.find((etf) => etf.isin.toUpperCase() === isin);
  if (!card) throw new PluginError("not-found", `justETF has no ETF with ISIN ${isin}`);
  return card.name ? { currency, name: card.name.trim() } : { currency };
}
