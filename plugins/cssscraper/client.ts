import {
  CurrencyCodeSchema, describeZodError, failure, mapBounded, ok, type Outcome, type PluginContext,
  PluginError, type Quote, z,
} from "../../sdk/index.ts";
import { isUsableSelector, priceOnPage } from "./parse.ts";

/** Sent unless the assignment names its own `user_agent`: many sites turn away clients that don't look like a browser. */
export const DEFAULT_USER_AGENT =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36";

/** Plugin configuration: `timeoutMs` per page (default 10 s), unless an assignment sets `timeout`. No base URL: the identifier is the URL. */
export const ConfigSchema = z.object({ timeoutMs: z.number().int().positive().default(10_000) });
export type CssScraperConfig = z.output<typeof ConfigSchema>;

/**
 * Per-assignment parameters (names as the API spells them): `current_css_selector`
 * (required; picks the element whose text is the price), `currency` (required, ISO code),
 * `decimal_format` (`us` 1,234.56 or `eu` 1.234,56; default `us`), `timeout` (seconds) and `user_agent`.
 */
export const ParamsSchema = z.object({
  current_css_selector: z.string().trim().min(1).refine(isUsableSelector, "must be a CSS selector the parser understands"),
  currency: CurrencyCodeSchema,
  decimal_format: z.enum(["us", "eu"]).default("us"),
  timeout: z.number().positive().max(120).optional(),
  user_agent: z.string().trim().min(1).max(512).optional(),
});
export type CssScraperParams = z.output<typeof ParamsSchema>;

/** Pages of one `getQuotes` batch fetched at once (5, the same cap as the host's current-price calls). */
export const MAX_PARALLEL = 5;

export function urlOf(identifier: string): string {
  const url = URL.canParse(identifier.trim()) ? new URL(identifier.trim()) : undefined;
  if (!url || !/^https?:$/.test(url.protocol)) throw new PluginError("invalid-input", `"${identifier}" is not an http(s) URL`);
  return url.href;
}

export function paramsOf(raw: unknown): CssScraperParams {
  if (raw === undefined) throw new PluginError("invalid-input", "the assignment has no parameters (current_css_selector, currency)");
  const parsed = ParamsSchema.safeParse(raw);
  if (!parsed.success) throw new PluginError("invalid-input", `invalid provider params: ${describeZodError(parsed.error)}`);
  return parsed.data;
}


/** The scraper behind the plugin: one GET of the identifier URL per quote, dated the day of the fetch. */
export function createCssScraper(ctx: PluginContext<unknown>, config: CssScraperConfig) {
  async function quote(identifier: string, rawParams: unknown, signal?: AbortSignal): Promise<Quote> {
    const url = urlOf(identifier);
    const params = paramsOf(rawParams);
    const page = await ctx.http.getText(url, {
      headers: { accept: "text/html,application/xhtml+xml;q=0.9,*/*;q=0.8", "user-agent": params.user_agent ?? DEFAULT_USER_AGENT },
      signal,
      timeoutMs: params.timeout === undefined ? config.timeoutMs : Math.ceil(params.timeout * 1000),
    });
    const price = priceOnPage(page.text, params.current_css_selector, params.decimal_format);
    return { currency: params.currency, date: ctx.clock.today(), price };
  }

  return {
    getQuotes(identifiers: readonly string[], params: Readonly<Record<string, unknown>> | undefined, signal?: AbortSignal) {
      return mapBounded(identifiers, MAX_PARALLEL, (id): Promise<Outcome<Quote>> => quote(id, params?.[id], signal).then(ok, failure));
    },
  };
}
