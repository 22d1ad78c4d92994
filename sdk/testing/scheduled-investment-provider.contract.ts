import { expect, test } from "./runner.ts";
import type { IsoDateRange } from "../dates.ts";
import type { Plugin } from "../define-plugin.ts";
import { type ContractOptions, describeContract, expectValid } from "./contract-common.ts";
import { AssetEventSchema, datesInOrderWithin, ScheduledPriceSchema } from "./shapes.ts";

/** The sample a scheduled-investment contract runs with: raw parameters and a range to generate. */
export interface ScheduledInvestmentSample {
  params: unknown;
  range: IsoDateRange;
}

/**
 * Registers test blocks (with the runner of sdk/testing/runner.ts) checking a scheduled-investment-provider:
 * valid branded manifest, a complete instance, the sample parameters accepted
 * by `paramsSchema`, prices and events as decimal strings on ascending days
 * inside the range, and deterministic generation. Example:
 * `runScheduledInvestmentProviderContract(plugin, { sample: { params: { rate: "0.03" }, range } })`.
 */
export function runScheduledInvestmentProviderContract(
  plugin: Plugin<"scheduled-investment-provider", any>,
  options: ContractOptions & { sample: ScheduledInvestmentSample },
): void {
  const { sample } = options;
  describeContract("scheduled-investment-provider", plugin, options, (instance) => {
    const input = async () => {
      const provider = await instance();
      return { input: { params: provider.paramsSchema.parse(sample.params), range: sample.range }, provider };
    };

    test("paramsSchema accepts the sample parameters", async () => {
      expectValid((await instance()).paramsSchema, sample.params);
    });

    test("generatePrices returns decimal-string values on ascending days inside the range", async () => {
      const { input: params, provider } = await input();
      const prices = provider.generatePrices(params);
      for (const price of prices) expectValid(ScheduledPriceSchema, price);
      expect(datesInOrderWithin(prices.map((p) => p.date), sample.range)).toBe(true);
    });

    test("generateEvents returns well-formed events inside the range", async () => {
      const { input: params, provider } = await input();
      for (const event of provider.generateEvents(params)) {
        expectValid(AssetEventSchema, event);
        expect(event.date >= sample.range.from && event.date <= sample.range.to).toBe(true);
      }
    });

    test("generation is deterministic: the same parameters give the same series", async () => {
      const { input: params, provider } = await input();
      expect(provider.generatePrices(params)).toEqual(provider.generatePrices(params));
      expect(provider.generateEvents(params)).toEqual(provider.generateEvents(params));
    });
  });
}
