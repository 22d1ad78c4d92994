import {
  failure, type GetHistoryParams, type IsoDate, isPluginError, mapBounded, ok, type Outcome,
  type PluginContext, PluginError, type Quote, type QuoteProvider, z,
} from "../../sdk/index.ts";
import {
  type ChartResult,
  chartEvents,
  chartMetadata,
  chartPricePoints,
  chartQuote,
  parseChartResponse,
  parseSearchResponse,
} from "./parse.ts";

/** Yahoo's chart API host; the default `baseUrl`. */
export const YAHOO_CHART_URL = "https://query1.finance.yahoo.com";
/** Yahoo's search API host; the default `searchBaseUrl`. */
export const YAHOO_SEARCH_URL = "https://query2.finance.yahoo.com";
/** Yahoo answers 429 to clients that don't look like a browser, so one is sent unless configured. */
export const DEFAULT_USER_AGENT =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36";
/** Chart requests of one `getQuotes` batch in flight at once (5, the same cap as the host's current-price calls). */
export const MAX_CONCURRENT_QUOTES = 5;
const SEARCH_HITS = 10;
const DAY_SECONDS = 86_400;

const HttpUrl = z.url({ protocol: /^https?$/ });

/** Configuration of the `yfinance` plugin; the real Yahoo hosts are the defaults, tests point both at a fake. */
export const YfinanceConfigSchema = z.object({
  baseUrl: HttpUrl.default(YAHOO_CHART_URL),
  searchBaseUrl: HttpUrl.default(YAHOO_SEARCH_URL),
  timeoutMs: z.number().int().positive().default(10_000),
  userAgent: z.string().min(1).optional(),
});

export type YfinanceConfig = z.output<typeof YfinanceConfigSchema>;


function unixDay(day: IsoDate): number {
  return Date.parse(`${day}T00:00:00Z`) / 1000;
}

function tickerOf(identifier: string): string {
  const ticker = identifier.trim();
  if (!ticker) throw new PluginError("invalid-input", "a Yahoo Finance ticker must not be empty");
  return ticker;
}

function joinUrl(base: string, path: string, query: Record<string, string>): string {
  return `${base.replace(/\/+$/, "")}${path}?${new URLSearchParams(query)}`;
}

/**
 * The `yfinance` quote provider over Yahoo's public JSON APIs: quotes and metadata from the chart
 * meta (`range=1d`), daily history, dividends and splits from the chart over a period, search from
 * `/v1/finance/search`. Every call honours `timeoutMs`, the user agent and the caller's signal.
 */
export function createYahooQuoteProvider(ctx: PluginContext<unknown>): QuoteProvider {
  const config = YfinanceConfigSchema.parse(ctx.config ?? {});
  const headers = { accept: "application/json", "user-agent": config.userAgent ?? DEFAULT_USER_AGENT };

  async function chart(ticker: string, query: Record<string, string>, signal?: AbortSignal): Promise<ChartResult> {
    const url = joinUrl(config.baseUrl, `/v8/finance/chart/${encodeURIComponent(ticker)}`, query);
    let body: unknown;
    try {
      body = await ctx.http.getJson(url, { headers, signal, timeoutMs: config.timeoutMs });
    } catch (error) {
      if (!isPluginError(error) || error.reason !== "not-found") throw error;
      throw new PluginError("not-found", `Yahoo Finance has no data for "${ticker}" (symbol may be delisted)`, { cause: error });
    }
    return parseChartResponse(body, ticker);
  }

  // The window is widened by a day before and two after: bars are stamped at the session open, which
  // is the previous UTC day east of UTC; the parser keeps only market days inside the range.
  const history = async ({ identifier, range, signal }: GetHistoryParams) =>
    chart(
      tickerOf(identifier),
      {
        events: "div,splits",
        interval: "1d",
        period1: String(unixDay(range.from) - DAY_SECONDS),
        period2: String(unixDay(range.to) + 2 * DAY_SECONDS),
      },
      signal,
    );

  const latest = async (identifier: string, signal?: AbortSignal) => chart(tickerOf(identifier), { interval: "1d", range: "1d" }, signal);

  return {
    async getEvents(params) {
      return chartEvents(await history(params), params.range);
    },
    async getHistory(params) {
      return chartPricePoints(await history(params), params.range);
    },
    async getMetadata({ identifier, signal }) {
      return chartMetadata(await latest(identifier, signal));
    },
    async getQuotes({ identifiers, signal }) {
      const unique = [...new Set(identifiers)];
      const answers = await mapBounded(unique, MAX_CONCURRENT_QUOTES, (identifier) =>
        latest(identifier, signal).then((result): Outcome<Quote> => ok(chartQuote(result))).catch(failure),
      );
      signal?.throwIfAborted();
      const byIdentifier = new Map(unique.map((identifier, i) => [identifier, answers[i]!]));
      return identifiers.map((identifier) => byIdentifier.get(identifier)!);
    },
    identifierType: "TICKER",
    pageUrl: (identifier) => `https://finance.yahoo.com/quote/${encodeURIComponent(identifier.trim())}`,
    async search({ query, signal }) {
      const text = query.trim();
      if (!text) return [];
      const url = joinUrl(config.searchBaseUrl, "/v1/finance/search", {
        enableFuzzyQuery: "false",
        listsCount: "0",
        newsCount: "0",
        q: text,
        quotesCount: String(SEARCH_HITS),
      });
      return parseSearchResponse(await ctx.http.getJson(url, { headers, signal, timeoutMs: config.timeoutMs }));
    },
  };
}
