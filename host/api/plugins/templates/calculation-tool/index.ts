import { boundedDecimal, Decimal, DecimalStringSchema, definePlugin, toDecimalString, z } from "@portfolio-tracker/sdk";

const Input = z.object({
  principal: boundedDecimal("amount").describe("Amount invested at the start"),
  rate: boundedDecimal("rate").describe("Yearly interest rate as a fraction: 0.05 is 5 %"),
  years: DecimalStringSchema.describe("Number of whole years"),
});

const Output = z.object({
  amount: DecimalStringSchema.describe("Value at the end, rounded to 2 decimals (half to even)"),
});

export default definePlugin({
  description: "Value of a principal after compounding a yearly rate.",
  id: "compound-interest-calc",
  kind: "calculation-tool",
  name: "Compound Interest Calc",
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
