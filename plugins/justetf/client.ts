import {
  type AssetMetadata, CurrencyCodeSchema, describeZodError, failure, type IsoDate, type IsoDateRange,
  mapBounded, ok, type Outcome, type PluginContext, PluginError, type PricePoint, type Quote,
  type QuoteSearchResult, z,
} from "../../sdk/index.ts";
import { CardsSchema, ChartSchema, historyOf, metadataOf, quoteOf, SearchTableSchema, searchHitsOf } from "./parse.ts";

/** The real host; tests and self-hosters point `baseUrl` elsewhere. */
export const JUSTETF_URL = "https://www.justetf.com";

/** justETF turns away clients that don't look like a browser, so one is sent unless configured. */
export const DEFAULT_USER_AGENT =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36";

/**
 * Plugin configuration: `baseUrl` (default the real host), `timeoutMs` per request (default 10 s),
 * `userAgent` (default {@link DEFAULT_USER_AGENT}).
 */
export const ConfigSchema = z.object({
  baseUrl: z.url({ protocol: /^https?$/ }).default(JUSTETF_URL),
  timeoutMs: z.number().int().positive().default(10_000),
  userAgent: z.string().min(1).optional(),
});
export type JustEtfConfig = z.output<typeof ConfigSchema>;

/** Per-assignment parameters: the currency justETF converts prices to. */
export const ParamsSchema = z.object({
  currency: z.enum(["CHF", "EUR", "GBP", "USD"]).default("EUR"),
});
export type JustEtfParams = z.output<typeof ParamsSchema>;

const ISIN = /^[A-Z]{2}[A-Z0-9]{9}\d$/;
// The quote comes with the chart; a short window keeps the answer small and still holds the last trading days.
const QUOTE_WINDOW_DAYS = 10;
/** Requests of one `getQuotes` batch in flight at once (5, the same cap as the host's current-price calls). */
export const MAX_PARALLEL = 5;
const SEARCH_LIMIT = 25;

export function isinOf(identifier: string): string {
  const isin = identifier.trim().toUpperCase();
  if (!ISIN.test(isin)) throw new PluginError("invalid-input", `"${identifier}" is not an ISIN`);
  return isin;
}

export function paramsOf(raw: unknown): JustEtfParams {
  const parsed = ParamsSchema.safeParse(raw ?? {});
  if (!parsed.success) throw new PluginError("invalid-input", `invalid provider params: ${describeZodError(parsed.error)}`);
  return parsed.data;
}

function daysBefore(day: IsoDate, days: number): IsoDate {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() - days);
  return date.toISOString().slice(0, 10) as IsoDate;
}


/** The justETF client behind the plugin: one method per contract call, all over `ctx.http`. */
export function createJustEtfClient(ctx: PluginContext<unknown>, config: JustEtfConfig) {
  const base = config.baseUrl.replace(/\/+$/, "");
  const timeoutMs = config.timeoutMs;
  const headers = { accept: "application/json", "user-agent": config.userAgent ?? DEFAULT_USER_AGENT };

  const chart = (isin: string, currency: string, range: IsoDateRange, signal?: AbortSignal) => {
    const query = new URLSearchParams({
      currency,
      dateFrom: range.from,
      dateTo: range.to,
      includeDividends: "false",
      locale: "en",
      reduceData: "false",
      valuesType: "MARKET_VALUE",
    });
    return ctx.http.getJson(`${base}/api/etfs/${isin}/performance-chart?${query}`, { headers, schema: ChartSchema, signal, timeoutMs });
  };

  async function quote(identifier: string, rawParams: unknown, signal?: AbortSignal): Promise<Quote> {
    const isin = isinOf(identifier);
    const { currency } = paramsOf(rawParams);
    const today = ctx.clock.today();
    const answer = await chart(isin, currency, { from: daysBefore(today, QUOTE_WINDOW_DAYS), to: today }, signal);
    return quoteOf(answer, isin, CurrencyCodeSchema.parse(currency));
  }

  return {
    async getHistory(identifier: string, rawParams: unknown, range: IsoDateRange, signal?: AbortSignal): Promise<PricePoint[]> {
      const isin = isinOf(identifier);
      const { currency } = paramsOf(rawParams);
      return historyOf(await chart(isin, currency, range, signal), range);
    },

    async getMetadata(identifier: string, rawParams: unknown, signal?: AbortSignal): Promise<AssetMetadata> {
      const isin = isinOf(identifier);
      const { currency } = paramsOf(rawParams);
      const query = new URLSearchParams({ currency, isin, locale: "en" });
      const cards = await ctx.http.getJson(`${base}/api/etfs/cards?${query}`, { headers, schema: CardsSchema, signal, timeoutMs });
      return metadataOf(cards, isin, CurrencyCodeSchema.parse(currency));
    },

    getQuotes(identifiers: readonly string[], params: Readonly<Record<string, unknown>> | undefined, signal?: AbortSignal) {
      return mapBounded(identifiers, MAX_PARALLEL, (id): Promise<Outcome<Quote>> => quote(id, params?.[id], signal).then(ok, failure));
    },

    async search(text: string, signal?: AbortSignal): Promise<QuoteSearchResult[]> {
      const query = text.trim();
      if (!query) return [];
      const form = new URLSearchParams({
        country: "DE",
        draw: "1",
        etfsParams: new URLSearchParams({ query }).toString(),
        lang: "en",
        length: String(SEARCH_LIMIT),
        start: "0",
        universeType: "private",
      });
      const table = await ctx.http.getJson(`${base}/servlet/etfs-table`, {
        body: form,
        headers,
        method: "POST",
        schema: SearchTableSchema,
        signal,
        timeoutMs,
      });
      return searchHitsOf(table);
    },
  };
}
