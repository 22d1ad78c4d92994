import { Decimal, DecimalStringSchema, definePlugin, PluginError, toDecimalString, z } from "../../sdk/index.ts";
import { allocate, AMOUNT_DECIMALS, QUANTITY_DECIMALS } from "./allocate.calc.ts";
import { checkPositions, MoneySchema, nonNegativeAmount, OrderWeightSchema, PositionSchema, WEIGHT_SUM_TOLERANCE } from "./schemas.ts";
import { WEIGHT_DECIMALS } from "./pac-allocator.ts";

const Weight = DecimalStringSchema.refine((s) => new Decimal(s).gte(0) && new Decimal(s).lte(1), "must be between 0 and 1");

const Input = z.object({
  cash: MoneySchema.describe("Cash available now, in the currency of the prices"),
  positions: z.array(PositionSchema).min(1).max(200),
  mode: z.enum(["buy_and_sell", "buy_only"]).describe("Sell overweight positions too, or only buy with the cash"),
  whole_units: z.boolean(),
  min_order_amount: nonNegativeAmount("min_order_amount").optional(),
  cash_band: z.object({ min_weight: Weight, max_weight: Weight }).strict().optional()
    .describe("Where the cash's share of the total may end: at least min_weight, at most max_weight (default 0..1)"),
}).strict().superRefine((input, ctx) => {
  checkPositions(input.positions, ctx, false);
  const cashTarget = new Decimal(1).minus(input.positions.reduce((s, p) => s.plus(p.target_weight), new Decimal(0)));
  const band = input.cash_band;
  if (band && new Decimal(band.min_weight).gt(band.max_weight)) {
    ctx.addIssue({ code: "custom", message: "min_weight must not exceed max_weight", path: ["cash_band"] });
  } else if (band && (cashTarget.lt(new Decimal(band.min_weight).minus(WEIGHT_SUM_TOLERANCE)) || cashTarget.gt(new Decimal(band.max_weight).plus(WEIGHT_SUM_TOLERANCE)))) {
    ctx.addIssue({ code: "custom", message: "the cash target (1 − the sum of target weights) must lie inside cash_band", path: ["cash_band"] });
  }
});

const Output = z.object({
  orders: z.array(z.object({ key: z.string(), side: z.enum(["buy", "sell"]), quantity: DecimalStringSchema, amount: DecimalStringSchema })),
  cash_after: DecimalStringSchema,
  cash_weight_after: DecimalStringSchema,
  weights_after: z.array(OrderWeightSchema),
  warnings: z.array(z.enum(["cash_above_band", "cash_below_band"])),
});

export type RebalanceInput = z.output<typeof Input>;
export type RebalanceOutput = z.output<typeof Output>;

const ZERO = new Decimal(0);

/**
 * Rebalancing (docs/tools.md "Portfolio rebalancer"): with T the holdings plus the cash and gᵢ = wᵢ·T,
 * (1) in `buy_and_sell` mode each position worth more than its goal sells the excess, rounded down to
 * whole units (or cents), skipping orders under the minimum; (2) the cash above the cash target
 * (1 − Σwᵢ)·T, never below the band's minimum, buys with the PAC allocation (exact least squares on
 * the goals). Warnings say when the cash ends outside its band (whole units or minimum orders).
 */
export function rebalance(input: RebalanceInput): RebalanceOutput {
  const prices = input.positions.map((p) => new Decimal(p.price));
  const current = input.positions.map((p, i) => new Decimal(p.quantity).times(prices[i]!));
  const cash = new Decimal(input.cash.amount);
  const total = current.reduce((s, c) => s.plus(c), cash);
  if (total.isZero()) throw new PluginError("invalid-input", "nothing to rebalance: no holdings and no cash");
  const goals = input.positions.map((p) => new Decimal(p.target_weight).times(total));
  const min = new Decimal(input.min_order_amount ?? 0);
  const sells = input.positions.map((p, i) => {
    if (input.mode !== "buy_and_sell" || current[i]!.lte(goals[i]!)) return { amount: ZERO, quantity: ZERO };
    const excess = current[i]!.minus(goals[i]!);
    const quantity = input.whole_units
      ? excess.div(prices[i]!).floor()
      : excess.toDecimalPlaces(AMOUNT_DECIMALS, Decimal.ROUND_DOWN).div(prices[i]!).toDecimalPlaces(QUANTITY_DECIMALS, Decimal.ROUND_DOWN);
    const amount = input.whole_units ? quantity.times(prices[i]!) : excess.toDecimalPlaces(AMOUNT_DECIMALS, Decimal.ROUND_DOWN);
    if (amount.isZero() || amount.lt(min) || quantity.gt(p.quantity)) return { amount: ZERO, quantity: ZERO };
    return { amount, quantity };
  });
  const afterSells = current.map((c, i) => c.minus(sells[i]!.amount));
  const cashAfterSells = sells.reduce((s, x) => s.plus(x.amount), cash);
  const cashTargetWeight = new Decimal(1).minus(input.positions.reduce((s, p) => s.plus(p.target_weight), ZERO));
  const band = { min: new Decimal(input.cash_band?.min_weight ?? 0), max: new Decimal(input.cash_band?.max_weight ?? 1) };
  const keep = Decimal.max(cashTargetWeight, band.min).times(total);
  const budget = Decimal.max(ZERO, cashAfterSells.minus(keep)).toDecimalPlaces(AMOUNT_DECIMALS, Decimal.ROUND_DOWN);
  const buys = allocate({ budget, current: afterSells, goals, minOrder: min, prices, wholeUnits: input.whole_units });
  const after = afterSells.map((v, i) => v.plus(buys.amounts[i]!));
  const cashAfter = cashAfterSells.minus(buys.amounts.reduce((s, a) => s.plus(a), ZERO));
  const cashWeight = cashAfter.div(total);
  const warnings: RebalanceOutput["warnings"] = [];
  if (cashWeight.gt(band.max)) warnings.push("cash_above_band");
  if (cashWeight.lt(band.min)) warnings.push("cash_below_band");
  const orders: RebalanceOutput["orders"] = [];
  input.positions.forEach((p, i) => {
    if (!sells[i]!.amount.isZero()) orders.push({ key: p.key, side: "sell", quantity: toDecimalString(sells[i]!.quantity), amount: toDecimalString(sells[i]!.amount) });
    if (!buys.amounts[i]!.isZero()) orders.push({ key: p.key, side: "buy", quantity: toDecimalString(buys.quantities[i]!), amount: toDecimalString(buys.amounts[i]!) });
  });
  return {
    orders,
    cash_after: toDecimalString(cashAfter),
    cash_weight_after: toDecimalString(cashWeight.toDecimalPlaces(WEIGHT_DECIMALS)),
    weights_after: input.positions.map((p, i) => ({ key: p.key, weight: toDecimalString(after[i]!.div(total).toDecimalPlaces(WEIGHT_DECIMALS)) })),
    warnings,
  } as RebalanceOutput;
}

export const portfolioRebalancerPlugin = definePlugin({
  create: () => ({
    catalog: { category: "allocation", contractVersion: "1.0.0", iconKey: "rebalance", operation: "plan" },
    compute: rebalance,
    inputSchema: Input,
    outputSchema: Output,
  }),
  description: "Plans the sells and buys (or buys only) that bring the portfolio to its target weights, keeping the cash inside a band and skipping orders under a minimum. No orders are placed.",
  id: "portfolio_rebalancer",
  kind: "calculation-tool",
  name: "Portfolio rebalancer",
  version: "1.0.0",
});
