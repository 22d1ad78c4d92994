import {
  type AssetMetadata, describeZodError, failure, type IsoDateRange, mapBounded, ok, type Outcome,
  type PluginContext, PluginError, type PricePoint, type Quote, type QuoteSearchResult, type TextAnswer, z,
} from "../../sdk/index.ts";
import { HistorySchema, ISIN, metadataOf, periodFor, pointsOf, quoteOf, SearchSchema, searchHitsOf, tokenOf } from "./parse.ts";

/** The real hosts: the site, and the chart API it loads prices from. */
export const BORSA_URL = "https://www.borsaitaliana.it";
export const CHARTS_URL = "https://grafici.borsaitaliana.it";

/** The site's firewall turns away clients that don't look like a browser, so one is sent unless configured. */
export const DEFAULT_USER_AGENT =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36";

const HttpUrl = z.url({ protocol: /^https?$/ });

/**
 * Plugin configuration: `baseUrl` (the site; search and instrument pages), `chartsBaseUrl` (the chart
 * API; prices), both defaulting to the real hosts, `timeoutMs` per request (default 10 s) and
 * `userAgent` (default {@link DEFAULT_USER_AGENT}).
 */
export const ConfigSchema = z.object({
  baseUrl: HttpUrl.default(BORSA_URL),
  chartsBaseUrl: HttpUrl.default(CHARTS_URL),
  timeoutMs: z.number().int().positive().default(10_000),
  userAgent: z.string().min(1).optional(),
});
export type BorsaItalianaConfig = z.output<typeof ConfigSchema>;

/** Per-assignment parameters: the language of the site's pages. */
export const ParamsSchema = z.object({ language: z.enum(["en", "it"]).default("en") });
export type BorsaItalianaParams = z.output<typeof ParamsSchema>;

// The token is the same for every instrument, so one well-known chart page serves (as the site's library does).
const TOKEN_PAGE = "/interactive-chart/IT0003128367-XMIL?lang=it";
/** Requests of one `getQuotes` batch in flight at once (5, the same cap as the host's current-price calls). */
export const MAX_PARALLEL = 5;

interface Session {
  readonly cookie: string;
  readonly token: string;
}

export function isinOf(identifier: string): string {
  const isin = identifier.trim().toUpperCase();
  if (!ISIN.test(isin)) throw new PluginError("invalid-input", `"${identifier}" is not an ISIN`);
  return isin;
}

export function paramsOf(raw: unknown): BorsaItalianaParams {
  const parsed = ParamsSchema.safeParse(raw ?? {});
  if (!parsed.success) throw new PluginError("invalid-input", `invalid provider params: ${describeZodError(parsed.error)}`);
  return parsed.data;
}

// Messages name origin and path only, as the SDK's client does: query strings may carry tokens.
function where(url: string): string {
  const parsed = new URL(url);
  return `${parsed.origin}${parsed.pathname}`;
}

function jsonOf<T>(answer: TextAnswer, schema: z.ZodType<T>): T {
  let data: unknown;
  try {
    data = JSON.parse(answer.text);
  } catch (cause) {
    throw new PluginError("bad-response", `${where(answer.url)} did not answer JSON`, { cause });
  }
  const parsed = schema.safeParse(data);
  if (!parsed.success) throw new PluginError("bad-response", `${where(answer.url)} answered an unexpected shape: ${describeZodError(parsed.error)}`);
  return parsed.data;
}


/** The Borsa Italiana client behind the plugin; it keeps the chart API session (token and cookies). */
export function createBorsaItalianaClient(ctx: PluginContext<unknown>, config: BorsaItalianaConfig) {
  const site = config.baseUrl.replace(/\/+$/, "");
  const charts = config.chartsBaseUrl.replace(/\/+$/, "");
  const { timeoutMs } = config;
  const userAgent = { "user-agent": config.userAgent ?? DEFAULT_USER_AGENT };
  let session: Promise<Session> | undefined;

  // Shared by concurrent calls, so it never takes one caller's signal; a failed attempt is forgotten.
  function openSession(): Promise<Session> {
    session ??= ctx.http.getText(`${charts}${TOKEN_PAGE}`, { headers: userAgent, timeoutMs })
      .then((page) => ({ cookie: page.headers.getSetCookie().map((c) => c.split(";")[0]).join("; "), token: tokenOf(page.text) }))
      .catch((error: unknown) => {
        session = undefined;
        throw error;
      });
    return session;
  }

  async function history(isin: string, period: string, signal?: AbortSignal, renewed = false): Promise<z.output<typeof HistorySchema>> {
    const current = openSession();
    const { cookie, token } = await current;
    const query = new URLSearchParams({ "add-last-price": "true", adjustment: "true", period });
    const url = `${charts}/api/instruments/${isin},XMIL,ISIN/history/period?${query}`;
    const headers = { accept: "application/json", authorization: `Bearer ${token}`, ...userAgent, ...(cookie && { cookie }) };
    const answer = await ctx.http.getText(url, { headers, passStatuses: [401, 403], signal, timeoutMs });
    if (answer.status === 401 && !renewed) {
      if (session === current) session = undefined; // the token expired or was revoked: fetch a new one once
      return history(isin, period, signal, true);
    }
    if (answer.status === 401) throw new PluginError("bad-response", `${where(url)} refused a fresh token (HTTP 401)`);
    // The site's firewall answers 403 to clients it throttles.
    if (answer.status === 403) throw new PluginError("rate-limited", `${where(url)} refused access (HTTP 403)`);
    return jsonOf(answer, HistorySchema);
  }

  async function quote(identifier: string, rawParams: unknown, signal?: AbortSignal): Promise<Quote> {
    const isin = isinOf(identifier);
    paramsOf(rawParams);
    return quoteOf(await history(isin, "1M", signal), isin);
  }

  const searchIn = (language: string, text: string, signal?: AbortSignal) =>
    ctx.http.getJson(`${site}/borsa/searchengine/all/json/search.html?${new URLSearchParams({ lang: language, q: text })}`, {
      headers: { accept: "application/json", ...userAgent },
      schema: SearchSchema,
      signal,
      timeoutMs,
    });

  return {
    async getHistory(identifier: string, rawParams: unknown, range: IsoDateRange, signal?: AbortSignal): Promise<PricePoint[]> {
      const isin = isinOf(identifier);
      paramsOf(rawParams);
      const points = pointsOf(await history(isin, periodFor(range.from, ctx.clock.today()), signal), isin);
      return points.filter((point) => point.date >= range.from && point.date <= range.to);
    },

    async getMetadata(identifier: string, rawParams: unknown, signal?: AbortSignal): Promise<AssetMetadata> {
      const isin = isinOf(identifier);
      const { language } = paramsOf(rawParams);
      const url = `${site}/borsa/search/scheda.html?${new URLSearchParams({ code: isin, lang: language })}`;
      const page = await ctx.http.getText(url, { headers: userAgent, signal, timeoutMs });
      return metadataOf(page.text, page.url, isin);
    },

    getQuotes(identifiers: readonly string[], params: Readonly<Record<string, unknown>> | undefined, signal?: AbortSignal) {
      return mapBounded(identifiers, MAX_PARALLEL, (id): Promise<Outcome<Quote>> => quote(id, params?.[id], signal).then(ok, failure));
    },

    // Both languages, as the reference does: names and matches differ between the English and Italian site.
    async search(text: string, signal?: AbortSignal): Promise<QuoteSearchResult[]> {
      const query = text.trim();
      if (!query) return [];
      const answers = await Promise.allSettled([searchIn("en", query, signal), searchIn("it", query, signal)]);
      const found = answers.flatMap((answer) => (answer.status === "fulfilled" ? [answer.value] : []));
      if (!found.length) throw (answers[0] as PromiseRejectedResult).reason;
      return searchHitsOf(found);
    },
  };
}
