/**
 * Starting points of `npm run cli -- plugin new <kind> <id>`: a small plugin that works and the
 * contract test that proves it. Each template passes its kind's contract suite as written.
 */
export interface PluginTemplate {
  readonly index: (id: string, name: string) => string;
  readonly test: string;
}

const calculationTool: PluginTemplate = {
  index: (id, name) => `import { Decimal, DecimalStringSchema, definePlugin, toDecimalString, z } from "@portfolio-tracker/sdk";

const Input = z.object({
  principal: DecimalStringSchema.describe("Amount invested at the start"),
  rate: DecimalStringSchema.describe("Yearly interest rate as a fraction: 0.05 is 5 %"),
  years: DecimalStringSchema.describe("Number of whole years"),
});

const Output = z.object({
  amount: DecimalStringSchema.describe("Value at the end, rounded to 2 decimals (half to even)"),
});

export default definePlugin({
  description: "Value of a principal after compounding a yearly rate.",
  id: "${id}",
  kind: "calculation-tool",
  name: "${name}",
  version: "0.1.0",
  create: () => ({
    catalog: { category: "savings", contractVersion: "1.0.0" },
    compute(input: z.output<typeof Input>) {
      const growth = new Decimal(1).plus(input.rate).pow(input.years);
      return { amount: toDecimalString(new Decimal(input.principal).times(growth).toDecimalPlaces(2)) };
    },
    inputSchema: Input,
    outputSchema: Output,
  }),
});
`,
  test: `import { runCalculationToolContract } from "@portfolio-tracker/sdk/testing";
import plugin from "./index.ts";

runCalculationToolContract(plugin, {
  expectedOutput: { amount: "1628.89" },
  sampleInput: { principal: "1000", rate: "0.05", years: "10" },
});
`,
};

const riskTool: PluginTemplate = {
  index: (id, name) => `import { Decimal, DecimalStringSchema, definePlugin, toDecimalString, z } from "@portfolio-tracker/sdk";

const Input = z.object({
  returns: z.array(DecimalStringSchema).min(1).describe("Daily simple returns as fractions, oldest first"),
});

const Output = z.object({
  worst: DecimalStringSchema.describe("The lowest daily return"),
  mean: DecimalStringSchema.describe("The mean daily return, 10 decimals"),
});

export default definePlugin({
  description: "Worst and mean daily return of a series.",
  id: "${id}",
  kind: "risk-tool",
  name: "${name}",
  version: "0.1.0",
  create: () => ({
    catalog: {
      algorithmVersion: "1.0.0", minObservations: 1, outputKind: "summary",
      supportedModes: ["historical"], supportedScopes: ["asset", "portfolio"],
    },
    compute(input: z.output<typeof Input>) {
      const values = input.returns.map((r) => new Decimal(r));
      const sum = values.reduce((a, b) => a.plus(b), new Decimal(0));
      return {
        worst: toDecimalString(Decimal.min(...values)),
        mean: toDecimalString(sum.dividedBy(values.length).toDecimalPlaces(10)),
      };
    },
    inputSchema: Input,
    outputSchema: Output,
  }),
});
`,
  test: `import { runRiskToolContract } from "@portfolio-tracker/sdk/testing";
import plugin from "./index.ts";

runRiskToolContract(plugin, {
  expectedOutput: { worst: "-0.02", mean: "0.0033333333" },
  sampleInput: { returns: ["0.01", "-0.02", "0.02"] },
});
`,
};

const fxProvider: PluginTemplate = {
  index: (id, name) => `import { currency, decimal, definePlugin, failure, ok, PluginError, toIsoDate, z, type FxRate } from "@portfolio-tracker/sdk";

/** A pegged rate (for example DKK per EUR), published every day at the configured value. */
const Config = z.object({
  base: z.string().default("EUR"),
  quote: z.string().default("DKK"),
  rate: z.string().default("7.46038"),
});

export default definePlugin({
  configSchema: Config,
  description: "A fixed (pegged) exchange rate, the same every day.",
  id: "${id}",
  kind: "fx-provider",
  name: "${name}",
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
          : failure(new PluginError("invalid-input", \`only \${base}-\${quote} is published\`)));
      },
    };
  },
});
`,
  test: `import { runFxProviderContract } from "@portfolio-tracker/sdk/testing";
import plugin from "./index.ts";

runFxProviderContract(plugin, {
  sample: { pairs: [{ base: "EUR", quote: "DKK" }, { base: "EUR", quote: "USD" }], from: "2024-01-02", to: "2024-01-05" } as never,
});
`,
};

/** Kinds with a template; the others are listed with the way to start them by hand. */
export const TEMPLATES: Partial<Record<string, PluginTemplate>> = {
  "calculation-tool": calculationTool,
  "fx-provider": fxProvider,
  "risk-tool": riskTool,
};
