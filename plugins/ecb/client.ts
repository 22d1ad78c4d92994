import {
  type FxPair, type FxProvider, type FxRate, type IsoDate, type Outcome, type PluginContext, PluginError,
  ratesPerPair, z,
} from "../../sdk/index.ts";
import { ECB_TARGETS, ecbSeriesKey, parseEcbJson } from "./parse.ts";

/** The ECB Data Portal's API host; the default `baseUrl`. */
export const ECB_URL = "https://data-api.ecb.europa.eu";
/** The SDMX data path of the exchange rates dataflow; the series key follows it. */
export const ECB_DATA_PATH = "/service/data/EXR/";
/** The one base currency of the reference rates. */
export const ECB_BASE = "EUR";

/** Configuration of the `ecb` plugin; the real portal is the default, tests point it at a fake. */
export const EcbConfigSchema = z.object({
  baseUrl: z.url({ protocol: /^https?$/ }).default(ECB_URL),
  timeoutMs: z.number().int().positive().default(10_000),
});

export type EcbConfig = z.output<typeof EcbConfigSchema>;

function checkPair(pair: FxPair): PluginError | undefined {
  if (pair.base === ECB_BASE && ECB_TARGETS.includes(pair.quote)) return undefined;
  // Pairs are answered only as published (EUR base); reversing a pair is the route search's job.
  return new PluginError("invalid-input", `the ECB publishes EUR/${ECB_TARGETS.join(",")}, not ${pair.base}/${pair.quote}`);
}

/**
 * The `ecb` FX provider: EUR against the ~30 currencies of the ECB's daily reference rates (TARGET
 * business days only). One SDMX-JSON request per `getRates` carries every currency asked for. The
 * portal answers a range without observations with HTTP 404 "No results found", which is an empty
 * list; a currency the answer has no series for is an empty list too. A failed request fails the
 * supported pairs with its reason; unsupported pairs fail alone with `invalid-input`.
 */
export function createEcbFxProvider(ctx: PluginContext<unknown>): FxProvider {
  const config = EcbConfigSchema.parse(ctx.config ?? {});

  async function fetchRates(currencies: readonly string[], from: IsoDate, to: IsoDate, signal?: AbortSignal) {
    const query = new URLSearchParams({ endPeriod: to, format: "jsondata", startPeriod: from });
    const url = `${config.baseUrl.replace(/\/+$/, "")}${ECB_DATA_PATH}${ecbSeriesKey(currencies)}?${query}`;
    const answer = await ctx.http.getText(url, {
      headers: { accept: "application/json" },
      passStatuses: [404],
      signal,
      timeoutMs: config.timeoutMs,
    });
    if (answer.status === 404) {
      if (/no results found/i.test(answer.text)) return new Map<string, Outcome<readonly FxRate[]>>();
      throw new PluginError("not-found", `the ECB Data Portal answered HTTP 404 for ${ECB_DATA_PATH}${ecbSeriesKey(currencies)}`);
    }
    return parseEcbJson(answer.text, { from, to });
  }

  return {
    baseCurrencies: Object.freeze([ECB_BASE]) as FxProvider["baseCurrencies"],
    getRates: (params) => ratesPerPair(params, {
      keyOf: (pair) => checkPair(pair) ?? pair.quote,
      fetch: (currencies) => fetchRates(currencies, params.from, params.to, params.signal),
    }),
    targetCurrencies: ECB_TARGETS,
  };
}
