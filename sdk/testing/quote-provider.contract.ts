import { expect, test } from "./runner.ts";
import type { IsoDateRange } from "../dates.ts";
import type { Plugin } from "../define-plugin.ts";
import { type ContractOptions, describeContract, expectOutcomes, expectValid } from "./contract-common.ts";
import { AssetEventSchema, datesInOrderWithin, PricePointSchema, QuoteSchema, QuoteSearchResultSchema } from "./shapes.ts";

/** The sample a quote-provider contract runs with: identifiers to price, a search text, a history range. */
export interface QuoteProviderSample {
  identifiers: readonly string[];
  /** Per-identifier assignment parameters, for providers with a `paramsSchema` (since 1.1). */
  providerParams?: Readonly<Record<string, unknown>>;
  query: string;
  range: IsoDateRange;
}

/**
 * Registers test blocks (with the runner of sdk/testing/runner.ts) checking a quote-provider plugin: valid branded
 * manifest, a complete instance, well-formed search hits, one quote outcome
 * per identifier with decimal-string prices (at least one answered), and
 * history (and events, when offered) on ascending days inside the range for
 * the first identifier. Point `context` at a fake upstream. Example:
 * `runQuoteProviderContract(plugin, { context, sample: { identifiers: ["AAPL"], query: "apple", range } })`.
 */
export function runQuoteProviderContract(
  plugin: Plugin<"quote-provider", any>,
  options: ContractOptions & { sample: QuoteProviderSample },
): void {
  const { sample } = options;
  describeContract("quote-provider", plugin, options, (instance) => {
    test("search returns well-formed hits", async () => {
      const hits = await (await instance()).search({ query: sample.query });
      for (const hit of hits) expectValid(QuoteSearchResultSchema, hit);
    });

    test("getQuotes answers one outcome per identifier with decimal-string prices", async () => {
      const outcomes = await (await instance()).getQuotes({ identifiers: sample.identifiers, providerParams: sample.providerParams });
      const quotes = expectOutcomes(outcomes, sample.identifiers.length);
      expect(quotes.length).toBeGreaterThan(0);
      for (const quote of quotes) expectValid(QuoteSchema, quote);
    });

    test("getHistory returns price points on ascending days inside the range", async () => {
      const first = sample.identifiers[0]!;
      const points = await (await instance()).getHistory({ identifier: first, providerParams: sample.providerParams?.[first], range: sample.range });
      for (const point of points) expectValid(PricePointSchema, point);
      expect(datesInOrderWithin(points.map((p) => p.date), sample.range)).toBe(true);
    });

    test("getEvents, when offered, returns events inside the range", async () => {
      const provider = await instance();
      if (!provider.getEvents) return;
      const events = await provider.getEvents({ identifier: sample.identifiers[0]!, range: sample.range });
      for (const event of events) {
        expectValid(AssetEventSchema, event);
        expect(event.date >= sample.range.from && event.date <= sample.range.to).toBe(true);
      }
    });
  });
}
