import { failure, ok, type Outcome, PluginError } from "./errors.ts";
import type { FxPair, FxRate, GetRatesParams } from "./kinds/fx-provider.ts";

/** One pair's answer of {@link FxProvider.getRates}. */
export type RatesOutcome = Outcome<readonly FxRate[]>;

/**
 * How {@link ratesPerPair} reaches a source: `keyOf` names what to request for a published pair
 * (its quote currency, a series code) or returns the `invalid-input` error of an unpublished one;
 * `fetch` gets the distinct keys and resolves to an outcome per key it answered (a rejection fails
 * every published pair with its reason); `missing` answers a key the source left out (default: an
 * empty list).
 */
export interface RatesPerPairSource {
  fetch(keys: readonly string[]): Promise<ReadonlyMap<string, RatesOutcome>>;
  keyOf(pair: FxPair): string | PluginError;
  missing?(key: string): RatesOutcome;
}

/**
 * The common body of `getRates`: `from` after `to` fails every pair with `invalid-input`,
 * unpublished pairs fail alone, published ones are fetched once per distinct key and answered in
 * request order. A caller's abort rejects with the caller's reason instead of failing the pairs.
 * Example: `ratesPerPair(params, { keyOf: (p) => p.quote, fetch: (keys) => fetchAll(keys) })`.
 */
export async function ratesPerPair(params: GetRatesParams, source: RatesPerPairSource): Promise<RatesOutcome[]> {
  const { from, pairs, signal, to } = params;
  if (from > to) return pairs.map(() => failure(new PluginError("invalid-input", `from ${from} is after to ${to}`)));
  const keys = pairs.map((pair) => source.keyOf(pair));
  const wanted = [...new Set(keys.filter((key): key is string => typeof key === "string"))];
  let answer: ReadonlyMap<string, RatesOutcome> = new Map();
  let requestError: { error: unknown } | undefined;
  if (wanted.length) {
    try {
      answer = await source.fetch(wanted);
    } catch (error) {
      signal?.throwIfAborted();
      requestError = { error };
    }
  }
  return keys.map((key) => {
    if (typeof key !== "string") return failure(key);
    if (requestError) return failure(requestError.error);
    return answer.get(key) ?? source.missing?.(key) ?? ok([]);
  });
}
