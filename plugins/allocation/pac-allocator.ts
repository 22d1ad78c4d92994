import { Decimal, DecimalStringSchema, definePlugin, toDecimalString, z } from "../../sdk/index.ts";
import { allocate } from "./allocate.calc.ts";
import { checkPositions, MoneySchema, nonNegativeAmount, OrderWeightSchema, PositionSchema } from "./schemas.ts";

const Input = z.object({
  budget: MoneySchema.describe("Money to invest now"),
  positions: z.array(PositionSchema).min(1).max(200),
  whole_units: z.boolean().describe("Buy whole units (true) or amounts (false, to the cent)"),
  min_order_amount: nonNegativeAmount("min_order_amount").optional()
    .describe("No order below this amount"),
}).strict().superRefine((input, ctx) => checkPositions(input.positions, ctx, true));

const Output = z.object({
  orders: z.array(z.object({ key: z.string(), quantity: DecimalStringSchema, amount: DecimalStringSchema })),
  cash_left: DecimalStringSchema,
  weights_after: z.array(OrderWeightSchema),
});

export type PacInput = z.output<typeof Input>;
export type PacOutput = z.output<typeof Output>;

/** Weights are written with this many decimals (half to even). */
export const WEIGHT_DECIMALS = 10;

/**
 * The plan (docs/tools.md "PAC allocator"): orders that bring the holdings plus the budget closest
 * to the target weights (least squares on values, unspent cash counting against a plan), never
 * spending more than the budget.
 */
export function planPac(input: PacInput): PacOutput {
  const budget = new Decimal(input.budget.amount);
  const prices = input.positions.map((p) => new Decimal(p.price));
  const current = input.positions.map((p, i) => new Decimal(p.quantity).times(prices[i]!));
  const total = current.reduce((s, c) => s.plus(c), budget);
  const goals = input.positions.map((p) => new Decimal(p.target_weight).times(total));
  const { amounts, quantities } = allocate({
    budget, current, goals, minOrder: new Decimal(input.min_order_amount ?? 0), prices, wholeUnits: input.whole_units,
  });
  const after = current.map((c, i) => c.plus(amounts[i]!));
  const invested = after.reduce((s, v) => s.plus(v), new Decimal(0));
  const spent = amounts.reduce((s, a) => s.plus(a), new Decimal(0));
  return {
    orders: input.positions.flatMap((p, i) => (amounts[i]!.isZero() ? [] : [{
      key: p.key, quantity: toDecimalString(quantities[i]!), amount: toDecimalString(amounts[i]!),
    }])),
    cash_left: toDecimalString(budget.minus(spent)),
    weights_after: input.positions.map((p, i) => ({
      key: p.key,
      weight: toDecimalString(invested.isZero() ? new Decimal(0) : after[i]!.div(invested).toDecimalPlaces(WEIGHT_DECIMALS)),
    })),
  } as PacOutput;
}

export const pacAllocatorPlugin = definePlugin({
  create: () => ({
    catalog: { category: "allocation", contractVersion: "1.0.0", iconKey: "pac", operation: "plan" },
    compute: planPac,
    inputSchema: Input,
    outputSchema: Output,
  }),
  description: "Plans the purchases of a new investment (whole units or amounts) that bring the portfolio closest to its target weights without exceeding the budget. No orders are placed.",
  id: "pac_allocator",
  kind: "calculation-tool",
  name: "PAC allocator",
  version: "1.0.0",
});
