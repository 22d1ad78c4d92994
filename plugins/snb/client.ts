import {
  type FxPair, type FxProvider, type IsoDate, type PluginContext, PluginError, ratesPerPair, z,
} from "../../sdk/index.ts";
import { parseSnbCsv, SNB_TARGETS, snbQueryMonth } from "./parse.ts";

/** The SNB data portal; the default `baseUrl`. */
export const SNB_URL = "https://data.snb.ch";
/** The CSV export of the `devkum` cube (monthly foreign exchange rates), in English. */
export const SNB_CSV_PATH = "/api/cube/devkum/data/csv/en";
/** The one base currency of the cube. */
export const SNB_BASE = "CHF";

/** Configuration of the `snb` plugin; the real portal is the default, tests point it at a fake. */
export const SnbConfigSchema = z.object({
  baseUrl: z.url({ protocol: /^https?$/ }).default(SNB_URL),
  timeoutMs: z.number().int().positive().default(10_000),
});

export type SnbConfig = z.output<typeof SnbConfigSchema>;

function checkPair(pair: FxPair): PluginError | undefined {
  if (pair.base === SNB_BASE && SNB_TARGETS.includes(pair.quote)) return undefined;
  // Pairs are answered only with the CHF base; reversing a pair is the route search's job.
  return new PluginError("invalid-input", `the SNB provider answers CHF/${SNB_TARGETS.join(",")}, not ${pair.base}/${pair.quote}`);
}

/**
 * The `snb` FX provider: CHF against 10 currencies from the SNB's monthly `devkum` cube. One CSV
 * request covers the months of the range for every pair; each rate is dated on the last day of its
 * month and only days inside the range are returned, so a range without a month end (or a month the
 * cube has not published yet) is an empty list. A failed request fails the supported pairs with its
 * reason; unsupported pairs fail alone with `invalid-input`.
 */
export function createSnbFxProvider(ctx: PluginContext<unknown>): FxProvider {
  const config = SnbConfigSchema.parse(ctx.config ?? {});

  async function fetchCube(from: IsoDate, to: IsoDate, signal?: AbortSignal) {
    const query = new URLSearchParams({ fromDate: snbQueryMonth(from), toDate: snbQueryMonth(to) });
    const url = `${config.baseUrl.replace(/\/+$/, "")}${SNB_CSV_PATH}?${query}`;
    const answer = await ctx.http.getText(url, { headers: { accept: "text/csv,*/*;q=0.1" }, signal, timeoutMs: config.timeoutMs });
    return parseSnbCsv(answer.text, { from, to });
  }

  return {
    baseCurrencies: Object.freeze([SNB_BASE]) as FxProvider["baseCurrencies"],
    getRates: (params) => ratesPerPair(params, {
      keyOf: (pair) => checkPair(pair) ?? pair.quote,
      fetch: () => fetchCube(params.from, params.to, params.signal),
    }),
    targetCurrencies: SNB_TARGETS,
  };
}
