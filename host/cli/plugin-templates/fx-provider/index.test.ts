import { currency, isoDate } from "@portfolio-tracker/sdk";
import { runFxProviderContract } from "@portfolio-tracker/sdk/testing";
import plugin from "./index.ts";

const EUR = currency("EUR");

runFxProviderContract(plugin, {
  sample: {
    pairs: [{ base: EUR, quote: currency("DKK") }, { base: EUR, quote: currency("USD") }],
    from: isoDate("2024-01-02"),
    to: isoDate("2024-01-05"),
  },
});
