import {
  CurrencyCodeSchema, DecimalStringSchema, definePlugin, failure, IsoDateSchema, mapBounded, ok,
  type IsoDateRange, type PricePoint, z,
} from "@portfolio-tracker/sdk";

// A JSON quote API at the configured baseUrl (self-hosters and tests point it elsewhere by config):
// GET /quote/{symbol}, GET /history/{symbol}?from=&to=, GET /search?q=. Prices are decimal strings.
const Config = z.object({ baseUrl: z.url().default("https://quotes.example.com/api/v1") });

const QuoteAnswer = z.object({ currency: CurrencyCodeSchema, date: IsoDateSchema, price: DecimalStringSchema });
const HistoryAnswer = z.object({ prices: z.array(z.object({ close: DecimalStringSchema, date: IsoDateSchema })) });
const SearchAnswer = z.object({
  results: z.array(z.object({ currency: CurrencyCodeSchema.optional(), name: z.string(), symbol: z.string() })),
});

/** The upstream's history as the contract wants it: days inside the range, oldest first. */
export function parseHistory(answer: z.output<typeof HistoryAnswer>, range: IsoDateRange): PricePoint[] {
  return answer.prices
    .filter((p) => p.date >= range.from && p.date <= range.to)
    .sort((a, b) => a.date.localeCompare(b.date))
    .map((p) => ({ close: p.close, date: p.date }));
}

const path = (symbol: string) => encodeURIComponent(symbol.trim().toUpperCase());

export default definePlugin({
  configSchema: Config,
  description: "Latest prices, daily history and search from a JSON quote API.",
  id: "json-quotes",
  kind: "quote-provider",
  name: "Json Quotes",
  version: "0.1.0",
  create: (ctx) => ({
    identifierType: "TICKER",
    // One outcome per symbol, in request order, at most 4 requests at once: one bad symbol never sinks the batch.
    getQuotes: ({ identifiers, signal }) => mapBounded(identifiers, 4, (symbol) =>
      ctx.http.getJson(`/quote/${path(symbol)}`, { schema: QuoteAnswer, signal }).then(ok, failure)),
    async getHistory({ identifier, range, signal }) {
      const query = new URLSearchParams({ from: range.from, to: range.to });
      return parseHistory(await ctx.http.getJson(`/history/${path(identifier)}?${query}`, { schema: HistoryAnswer, signal }), range);
    },
    async search({ query, signal }) {
      const answer = await ctx.http.getJson(`/search?${new URLSearchParams({ q: query })}`, { schema: SearchAnswer, signal });
      return answer.results.map((r) => ({ identifier: r.symbol, name: r.name, ...(r.currency ? { currency: r.currency } : {}) }));
    },
  }),
});
