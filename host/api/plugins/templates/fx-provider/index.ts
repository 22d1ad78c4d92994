import { currency, decimal, definePlugin, failure, ok, PluginError, toIsoDate, z, type FxRate } from "@portfolio-tracker/sdk";

/** A pegged rate (for example DKK per EUR), published every day at the configured value. */
const Config = z.object({
  base: z.string().default("EUR"),
  quote: z.string().default("DKK"),
  rate: z.string().default("7.46038"),
});

export default definePlugin({
  configSchema: Config,
  description: "A fixed (pegged) exchange rate, the same every day.",
  id: "fx-peg",
  kind: "fx-provider",
  name: "Fx Peg",
  version: "0.1.0",
  create: (ctx) => {
    const config = Config.parse(ctx.config ?? {});
    const base = currency(config.base);
    const quote = currency(config.quote);
    const rate = decimal(config.rate);
    return {
      baseCurrencies: [base],
      targetCurrencies: [quote],
      async getRates({ pairs, from, to }) {
        const days: FxRate[] = [];
        for (let d = new Date(from + "T00:00:00Z"); toIsoDate(d) <= to; d.setUTCDate(d.getUTCDate() + 1)) {
          days.push({ date: toIsoDate(d), rate });
        }
        return pairs.map((pair) => pair.base === base && pair.quote === quote
          ? ok(days)
          : failure(new PluginError("invalid-input", `only ${base}-${quote} is published`)));
      },
    };
  },
});
