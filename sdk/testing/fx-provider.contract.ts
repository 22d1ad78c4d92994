import { expect, test } from "./runner.ts";
import type { Plugin } from "../define-plugin.ts";
import type { GetRatesParams } from "../kinds/fx-provider.ts";
import { CurrencyCodeSchema, Decimal } from "../money.ts";
import { type ContractOptions, describeContract, expectOutcomes, expectValid } from "./contract-common.ts";
import { datesInOrderWithin, FxRateSchema } from "./shapes.ts";

/**
 * Registers test blocks (with the runner of sdk/testing/runner.ts) checking an fx-provider plugin: valid branded
 * manifest, a complete instance, currency lists of valid codes, and for the
 * `sample` request one outcome per pair whose rates are positive decimal
 * strings on ascending days inside the range, with at least one pair answered.
 * Point `context` at a fake upstream. Example:
 * `runFxProviderContract(plugin, { context, sample: { pairs: [{ base: "EUR", quote: "USD" }], from: "2024-01-02", to: "2024-01-05" } })`.
 */
export function runFxProviderContract(
  plugin: Plugin<"fx-provider", any>,
  options: ContractOptions & { sample: Omit<GetRatesParams, "signal"> },
): void {
  describeContract("fx-provider", plugin, options, (instance) => {
    test("baseCurrencies and targetCurrencies are non-empty lists of currency codes", async () => {
      const provider = await instance();
      for (const list of [provider.baseCurrencies, provider.targetCurrencies]) {
        expect(list.length).toBeGreaterThan(0);
        for (const code of list) expectValid(CurrencyCodeSchema, code);
      }
    });

    test("getRates answers one outcome per pair with positive decimal-string rates inside the range", async () => {
      const { sample } = options;
      const values = expectOutcomes(await (await instance()).getRates(sample), sample.pairs.length);
      expect(values.length).toBeGreaterThan(0);
      for (const rates of values) {
        for (const rate of rates) {
          expectValid(FxRateSchema, rate);
          expect(new Decimal(rate.rate).gt(0)).toBe(true);
        }
        expect(datesInOrderWithin(rates.map((r) => r.date), sample)).toBe(true);
      }
    });
  });
}
