import { boundedDecimal, CurrencyCodeSchema, Decimal, DecimalStringSchema, z } from "../../sdk/index.ts";

const nonNegative = (what: string) => DecimalStringSchema.refine((s) => new Decimal(s).gte(0), `${what} must not be negative`);
const positive = (what: string) => DecimalStringSchema.refine((s) => new Decimal(s).gt(0), `${what} must be greater than 0`);
const whenClean = { when: (payload: { issues: readonly unknown[] }) => payload.issues.length === 0 };

/**
 * A money amount the user types (budget, cash, min_order_amount): within the supported range of
 * decimals (docs/errors.md), so the plan is never computed from a silently rounded amount. Prices
 * and quantities stay unbounded: with `positions_from` the host fills them from the holdings,
 * where an FX-converted price carries up to 34 digits.
 */
export const nonNegativeAmount = (what: string) =>
  boundedDecimal("amount").refine((s) => new Decimal(s).gte(0), { message: `${what} must not be negative`, ...whenClean });

export const MoneySchema = z.object({ code: CurrencyCodeSchema, amount: nonNegativeAmount("amount") }).strict();

export const PositionSchema = z.object({
  key: z.string().min(1).max(64).describe("Your name for the position (a ticker, an asset id)"),
  price: positive("price").describe("Price of one unit, in the budget's currency"),
  quantity: nonNegative("quantity").describe("Units held now"),
  target_weight: nonNegative("target_weight").describe("Target share of the total as a fraction: 0.25 is 25 %"),
}).strict();

/** Tolerance on the sum of target weights (thirds written as 0.3333333333 must pass). */
export const WEIGHT_SUM_TOLERANCE = new Decimal("0.000001");

/** Keys unique; weights at most 1 in total (1 within the tolerance when `exact`). */
export function checkPositions(
  positions: readonly { key: string; target_weight: string }[],
  ctx: z.RefinementCtx,
  exact: boolean,
): void {
  const seen = new Set<string>();
  positions.forEach((p, i) => {
    if (seen.has(p.key)) ctx.addIssue({ code: "custom", message: "key must be unique", path: ["positions", i, "key"] });
    seen.add(p.key);
  });
  const sum = positions.reduce((s, p) => s.plus(p.target_weight), new Decimal(0));
  if (exact ? sum.minus(1).abs().gt(WEIGHT_SUM_TOLERANCE) : sum.gt(new Decimal(1).plus(WEIGHT_SUM_TOLERANCE))) {
    ctx.addIssue({ code: "custom", message: exact ? "target weights must sum to 1" : "target weights must not sum to more than 1", path: ["positions"] });
  }
}

export const OrderWeightSchema = z.object({ key: z.string(), weight: DecimalStringSchema });
