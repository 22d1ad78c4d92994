import { parse as parseHtml } from "node-html-parser";
import {
  type AssetMetadata,
  type CurrencyCode,
  CurrencyCodeSchema,
  Decimal,
  type DecimalString,
  type IsoDate,
  IsoDateSchema,
  PluginError,
  type PricePoint,
  type Quote,
  type QuoteSearchResult,
  toDecimalString,
  z,
} from "../../sdk/index.ts";

/*
 * Shapes of Borsa Italiana's public endpoints, as the site's own pages use them (recorded samples in
 * test/fixtures/borsa-italiana/). Only the fields read here are checked.
 *
 * GET https://grafici.borsaitaliana.it/interactive-chart/{ISIN}-XMIL?lang=it (HTML)
 *   The chart page embeds an anonymous, long-lived JWT as the `token` attribute of its chart element;
 *   the chart API wants it as `Authorization: Bearer <token>` (the same token serves every ISIN).
 *
 * GET https://grafici.borsaitaliana.it/api/instruments/{ISIN},XMIL,ISIN/history/period
 *     ?period=1M|3M|6M|1Y|3Y|5Y|MAX&adjustment=true&add-last-price=true
 *   {"transco": {"code": "IT0003128367", "codification": "ISIN", "exchCode": "XMIL"},
 *    "history": {"currency": "EUR"?, "historyDt": [{"dt": "20231229", "openPx": 6.717, "closePx": 6.73,
 *      "highPx": 6.744, "lowPx": 6.69, "lastPx": 6.73, "qty": 16358210.0, "volNbTrade": 9651.0, ...}]}}
 *   An unknown ISIN still answers 200, without `transco`. The point `add-last-price` appends (today's
 *   price so far) may lack the volume fields.
 *
 * GET https://www.borsaitaliana.it/borsa/searchengine/all/json/search.html?lang=en|it&q=...
 *   {"exactSymbolMatch": [...]?, "quotes": [{"symbol": "IT0003128367", "mic": "MTAA", "title": "Enel",
 *    "typeLabel": "Azioni", "link": "..."}], "news": [...], "pages": [...], "documents": [...], "terms": [...]}
 *   `symbol` is the ISIN, except for funds (an internal code), which this plugin skips.
 *
 * GET https://www.borsaitaliana.it/borsa/search/scheda.html?code={ISIN}&lang=en|it (HTML)
 *   Redirects to the instrument's page (/borsa/azioni/scheda/..., /borsa/obbligazioni/..., /borsa/etf/...),
 *   whose <h1> is the instrument's name; an unknown code lands on the site search (/borsa/searchengine/...).
 */

const Price = z.number().nullish();

/** The chart API's history answer. */
export const HistorySchema = z.object({
  history: z
    .object({
      currency: z.string().nullish(),
      historyDt: z
        .array(z.object({ closePx: Price, dt: z.string(), highPx: Price, lastPx: Price, lowPx: Price, openPx: Price, qty: Price }))
        .nullish(),
    })
    .nullish(),
  transco: z.object({ code: z.string().nullish() }).nullish(),
});
export type History = z.output<typeof HistorySchema>;

const SearchQuote = z.object({ symbol: z.string().nullish(), title: z.string().nullish() });

/** The site search's JSON answer. */
export const SearchSchema = z.object({ exactSymbolMatch: z.array(SearchQuote).nullish(), quotes: z.array(SearchQuote).nullish() });
export type Search = z.output<typeof SearchSchema>;

/** Periods the chart API offers, shortest first, with the months each reaches back. */
const PERIODS = [["1M", 1], ["3M", 3], ["6M", 6], ["1Y", 12], ["3Y", 36], ["5Y", 60]] as const;

export const ISIN = /^[A-Z]{2}[A-Z0-9]{9}\d$/;

/** The shortest chart period that reaches back from `today` to `from`. */
export function periodFor(from: IsoDate, today: IsoDate): string {
  for (const [period, months] of PERIODS) {
    const start = new Date(`${today}T00:00:00Z`);
    start.setUTCMonth(start.getUTCMonth() - months);
    if (from >= start.toISOString().slice(0, 10)) return period;
  }
  return "MAX";
}

function decimalOf(raw: number): DecimalString {
  return toDecimalString(new Decimal(String(raw)));
}

const positive = (raw: number | null | undefined): raw is number => typeof raw === "number" && Number.isFinite(raw) && raw > 0;

function dayOf(dt: string): IsoDate {
  const parsed = IsoDateSchema.safeParse(`${dt.slice(0, 4)}-${dt.slice(4, 6)}-${dt.slice(6, 8)}`);
  if (dt.length !== 8 || !parsed.success) throw new PluginError("bad-response", `Borsa Italiana answered an invalid day "${dt}"`);
  return parsed.data;
}

/** The currency of a history answer: its `currency` when it is a code, else EUR (the market's currency). */
export function currencyOf(answer: History): CurrencyCode {
  const parsed = CurrencyCodeSchema.safeParse(answer.history?.currency);
  return parsed.success ? parsed.data : CurrencyCodeSchema.parse("EUR");
}

function assertKnown(answer: History, isin: string): void {
  if (!answer.transco?.code) throw new PluginError("not-found", `Borsa Italiana does not know ${isin}`);
}

/**
 * Daily points of a history answer, oldest first, one per day. Prices of 0 or less mean "no price":
 * such opens, highs and lows are left out, and a day without a close is skipped. Throws not-found for
 * an answer without `transco` (the API's way of saying it does not know the ISIN).
 */
export function pointsOf(answer: History, isin: string): PricePoint[] {
  assertKnown(answer, isin);
  const byDay = new Map<string, PricePoint>();
  for (const raw of answer.history?.historyDt ?? []) {
    const close = positive(raw.closePx) ? raw.closePx : raw.lastPx;
    if (!positive(close)) continue;
    const date = dayOf(raw.dt);
    byDay.set(date, {
      close: decimalOf(close),
      date,
      ...(positive(raw.highPx) && { high: decimalOf(raw.highPx) }),
      ...(positive(raw.lowPx) && { low: decimalOf(raw.lowPx) }),
      ...(positive(raw.openPx) && { open: decimalOf(raw.openPx) }),
      ...(typeof raw.qty === "number" && raw.qty >= 0 && { volume: decimalOf(raw.qty) }),
    });
  }
  return [...byDay.values()].sort((a, b) => (a.date < b.date ? -1 : 1));
}

/** The latest price of a history answer: the last traded price (else the close) of its latest day with one. */
export function quoteOf(answer: History, isin: string): Quote {
  assertKnown(answer, isin);
  const priced = (answer.history?.historyDt ?? []).filter((raw) => positive(raw.lastPx) || positive(raw.closePx));
  const last = priced.sort((a, b) => (a.dt < b.dt ? -1 : 1)).at(-1);
  if (!last) throw new PluginError("not-found", `Borsa Italiana has no price for ${isin}`);
  const price = positive(last.lastPx) ? last.lastPx : (last.closePx as number);
  return { currency: currencyOf(answer), date: dayOf(last.dt), price: decimalOf(price) };
}

/** The chart API token embedded in the interactive-chart page. */
export function tokenOf(html: string): string {
  const token = parseHtml(html).querySelector("[token]")?.getAttribute("token")?.trim();
  if (!token) throw new PluginError("bad-response", "the Borsa Italiana chart page carries no API token");
  return token;
}

/** Search answers (one per language) as hits: exact symbol matches first, ISINs only, deduplicated. */
export function searchHitsOf(answers: readonly Search[]): QuoteSearchResult[] {
  const seen = new Set<string>();
  return answers.flatMap((answer) =>
    [...(answer.exactSymbolMatch ?? []), ...(answer.quotes ?? [])].flatMap((quote) => {
      const identifier = quote.symbol?.trim().toUpperCase() ?? "";
      if (!ISIN.test(identifier) || seen.has(identifier)) return [];
      seen.add(identifier);
      return [{ identifier, name: quote.title?.trim() || identifier }];
    }),
  );
}

const ASSET_TYPES: ReadonlyArray<readonly [string, string]> = [
  ["/azioni/", "STOCK"],
  ["/obbligazioni/", "BOND"],
  ["/etf/", "ETF"],
  ["/etc-etn/", "OTHER"],
  ["/fondi/", "FUND"],
];

/**
 * What the instrument page tells: its name (the <h1>) and, from the page's path, its asset type.
 * `pageUrl` is where the scheda redirect landed; the site search means the code is unknown (not-found).
 */
export function metadataOf(html: string, pageUrl: string, isin: string): AssetMetadata {
  const path = new URL(pageUrl).pathname;
  const name = parseHtml(html).querySelector("h1")?.text.replace(/\s+/g, " ").trim();
  if (path.includes("/searchengine/") || !name) throw new PluginError("not-found", `Borsa Italiana has no page for ${isin}`);
  const assetType = ASSET_TYPES.find(([segment]) => path.includes(segment))?.[1];
  return assetType ? { assetType, name } : { name };
}
