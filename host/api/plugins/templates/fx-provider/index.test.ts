import { currency, isoDate } from "@portfolio-tracker/sdk";
import { createFakeContext, expect, runFxProviderContract, test } from "@portfolio-tracker/sdk/testing";
import plugin from "./index.ts";

const EUR = currency("EUR");

runFxProviderContract(plugin, {
  sample: {
    pairs: [{ base: EUR, quote: currency("DKK") }, { base: EUR, quote: currency("USD") }],
    from: isoDate("2024-01-02"),
    to: isoDate("2024-01-05"),
  },
});

test("the configured rate is published; the keys left out keep their defaults", async () => {
  // Given the plugin, createFakeContext parses the config with its schema, as the host does.
  const provider = await plugin.create(createFakeContext(plugin, { config: { rate: "7.45" } }));
  const [rates] = await provider.getRates({ pairs: [{ base: EUR, quote: currency("DKK") }], from: isoDate("2024-01-02"), to: isoDate("2024-01-02") });
  expect(rates).toEqual({ ok: true, value: [{ date: "2024-01-02", rate: "7.45" }] });
});
