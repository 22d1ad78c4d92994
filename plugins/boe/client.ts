import {
  failure, type FxPair, type FxProvider, type IsoDate, type PluginContext, PluginError, ratesPerPair, z,
} from "../../sdk/index.ts";
import { BOE_SERIES, BOE_TARGETS, boeQueryDate, parseBoeCsv } from "./parse.ts";

/** The Bank of England's site; the default `baseUrl`. */
export const BOE_URL = "https://www.bankofengland.co.uk";
/** The database's CSV export of chosen series over a day range. */
export const BOE_CSV_PATH = "/boeapps/database/_iadb-fromshowcolumns.asp";
/** The one base currency of the BoE series. */
export const BOE_BASE = "GBP";

/** Configuration of the `boe` plugin; the real site is the default, tests point it at a fake. */
export const BoeConfigSchema = z.object({
  baseUrl: z.url({ protocol: /^https?$/ }).default(BOE_URL),
  timeoutMs: z.number().int().positive().default(10_000),
});

export type BoeConfig = z.output<typeof BoeConfigSchema>;

/** The series code of a supported pair, else the `invalid-input` error its outcome carries. */
function seriesOf(pair: FxPair): string | PluginError {
  const code = pair.base === BOE_BASE ? BOE_SERIES[pair.quote] : undefined;
  if (code) return code;
  // Pairs are answered only as published (GBP base); reversing a pair is the route search's job.
  return new PluginError("invalid-input", `the Bank of England publishes GBP/${BOE_TARGETS.join(",")}, not ${pair.base}/${pair.quote}`);
}

function csvUrl(baseUrl: string, codes: readonly string[], from: IsoDate, to: IsoDate): string {
  // Written out rather than through URLSearchParams: the site's own links keep `/` and `,` unescaped.
  const query = [
    "csv.x=yes",
    `Datefrom=${boeQueryDate(from)}`,
    `Dateto=${boeQueryDate(to)}`,
    `SeriesCodes=${codes.join(",")}`,
    "CSVF=TN",
    "UsingCodes=Y",
    "VPD=Y",
    "VFD=N",
  ].join("&");
  return `${baseUrl.replace(/\/+$/, "")}${BOE_CSV_PATH}?${query}`;
}

/**
 * The `boe` FX provider: GBP against 15 currencies from the BoE's daily spot series (XUDL…, units per
 * 1 GBP, published on London business days). One CSV request per `getRates` carries every series
 * asked for; a request that fails fails the supported pairs with its reason, unsupported pairs fail
 * alone with `invalid-input`, and a series missing from the answer fails alone with `bad-response`.
 */
export function createBoeFxProvider(ctx: PluginContext<unknown>): FxProvider {
  const config = BoeConfigSchema.parse(ctx.config ?? {});

  async function fetchSeries(codes: readonly string[], from: IsoDate, to: IsoDate, signal?: AbortSignal) {
    const answer = await ctx.http.getText(csvUrl(config.baseUrl, codes, from, to), {
      headers: { accept: "text/csv,text/plain;q=0.9,*/*;q=0.1" },
      signal,
      timeoutMs: config.timeoutMs,
    });
    return parseBoeCsv(answer.text, { from, to });
  }

  return {
    baseCurrencies: Object.freeze([BOE_BASE]) as FxProvider["baseCurrencies"],
    getRates: (params) => ratesPerPair(params, {
      keyOf: seriesOf,
      fetch: (codes) => fetchSeries(codes, params.from, params.to, params.signal),
      missing: (code) => failure(new PluginError("bad-response", `the Bank of England answer has no series ${code}`)),
    }),
    targetCurrencies: BOE_TARGETS,
  };
}
