import {
  failure, type FxPair, type FxProvider, type FxRate, type IsoDate, mapBounded, ok, type PluginContext,
  PluginError, type RatesOutcome, ratesPerPair, z,
} from "../../sdk/index.ts";
import { FED_SERIES, FED_TARGETS, parseFredCsv } from "./parse.ts";

/** FRED (Federal Reserve Bank of St. Louis); the default `baseUrl`. */
export const FRED_URL = "https://fred.stlouisfed.org";
/** FRED's CSV download of one series over a day range. */
export const FRED_CSV_PATH = "/graph/fredgraph.csv";
/** The one base currency of the H.10 series as this provider answers them. */
export const FED_BASE = "USD";
/** Series requests of one `getRates` batch in flight at once (5, the same cap as the host's current-price calls). */
export const MAX_CONCURRENT_SERIES = 5;

/** Configuration of the `fed` plugin; the real FRED site is the default, tests point it at a fake. */
export const FedConfigSchema = z.object({
  baseUrl: z.url({ protocol: /^https?$/ }).default(FRED_URL),
  timeoutMs: z.number().int().positive().default(10_000),
});

export type FedConfig = z.output<typeof FedConfigSchema>;

function checkPair(pair: FxPair): PluginError | undefined {
  if (pair.base === FED_BASE && FED_TARGETS.includes(pair.quote)) return undefined;
  // Pairs are answered only with the USD base; reversing a pair is the route search's job.
  return new PluginError("invalid-input", `the Fed's H.10 provider answers USD/${FED_TARGETS.join(",")}, not ${pair.base}/${pair.quote}`);
}

/**
 * The `fed` FX provider: USD against 20 currencies from the Federal Reserve's H.10 daily series, read
 * as FRED CSV downloads, one request per currency (FRED serves one series per CSV). Each currency's
 * outcome stands alone: a failing series fails only its own pairs; unsupported pairs fail with
 * `invalid-input`. USD-per-unit series (EUR, GBP, AUD, NZD) are inverted to 1 USD in the currency.
 */
export function createFedFxProvider(ctx: PluginContext<unknown>): FxProvider {
  const config = FedConfigSchema.parse(ctx.config ?? {});

  async function fetchSeries(currency: string, from: IsoDate, to: IsoDate, signal?: AbortSignal): Promise<readonly FxRate[]> {
    const { direction, id } = FED_SERIES[currency]!;
    const query = new URLSearchParams({ coed: to, cosd: from, id });
    const url = `${config.baseUrl.replace(/\/+$/, "")}${FRED_CSV_PATH}?${query}`;
    const answer = await ctx.http.getText(url, { headers: { accept: "text/csv,*/*;q=0.1" }, signal, timeoutMs: config.timeoutMs });
    return parseFredCsv(answer.text, id, direction, { from, to });
  }

  return {
    baseCurrencies: Object.freeze([FED_BASE]) as FxProvider["baseCurrencies"],
    getRates: (params) => ratesPerPair(params, {
      keyOf: (pair) => checkPair(pair) ?? pair.quote,
      // One CSV per currency; each series' outcome stands alone.
      fetch: async (currencies) => {
        const answers = await mapBounded(currencies, MAX_CONCURRENT_SERIES, (currency) =>
          fetchSeries(currency, params.from, params.to, params.signal).then((rates): RatesOutcome => ok(rates)).catch(failure),
        );
        params.signal?.throwIfAborted();
        return new Map(currencies.map((currency, i) => [currency, answers[i]!]));
      },
    }),
    targetCurrencies: FED_TARGETS,
  };
}
