import { Decimal, DecimalStringSchema, definePlugin, toDecimalString, z } from "@portfolio-tracker/sdk";

const Input = z.object({
  returns: z.array(DecimalStringSchema).min(1).describe("Daily simple returns as fractions, oldest first"),
});

const Output = z.object({
  worst: DecimalStringSchema.describe("The lowest daily return"),
  mean: DecimalStringSchema.describe("The mean daily return, 10 decimals"),
});

export default definePlugin({
  description: "Worst and mean daily return of a series.",
  id: "worst-and-mean",
  kind: "risk-tool",
  name: "Worst And Mean",
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
