import { daysBetween } from "../dates/calendar.ts";
import { Decimal, toDecimalString } from "../money/decimal.ts";
import { custodyOf, type Lot, openQuantity } from "./lots-model.ts";
import type { LotRow } from "./lots-types.ts";

const ZERO = new Decimal(0);
export const str = (d: Decimal | null): string | null => (d === null ? null : toDecimalString(d));
/** Returns are fractions written with 10 decimals at most (docs/portfolio.md "Decimals"). */
export const ret = (d: Decimal | null): string | null => (d === null ? null : toDecimalString(d.toDecimalPlaces(10)));

const plus = (a: Decimal | null, b: Decimal | null) => (a === null || b === null ? null : a.plus(b));
const minus = (a: Decimal | null, b: Decimal | null) => (a === null || b === null ? null : a.minus(b));
export const ratio = (a: Decimal | null, b: Decimal | null) => (a === null || b === null || b.lte(0) ? null : a.div(b));

/** Σ of nullable decimals: null as soon as one is unknown. */
export function sumKnown(values: (Decimal | null)[]): Decimal | null {
  let total = ZERO;
  for (const v of values) {
    if (v === null) return null;
    total = total.plus(v);
  }
  return total;
}

/** A lot's realised P&L so far: Σ (proceeds − cost) of its closures; null when one is unknown. */
export function realizedOf(lot: Lot): Decimal | null {
  return sumKnown(lot.closures.map((c) => minus(c.proceeds, c.cost)));
}

/** Cost (LONG) or opening proceeds (SHORT) of the lot's open units. */
export function openBasisOf(lot: Lot): Decimal | null {
  return lot.unitCost === null ? null : lot.unitCost.times(openQuantity(lot));
}

/** The open units' value: + for LONG, − (a liability) for SHORT; at cost without a price. */
export function openValueOf(lot: Lot, price: Decimal | null): { source: "MARKET_PRICE" | "ESTIMATED_AT_COST"; value: Decimal | null } {
  const q = openQuantity(lot);
  const sign = lot.direction === "LONG" ? 1 : -1;
  if (price !== null) return { source: "MARKET_PRICE", value: price.times(q).times(sign) };
  const basis = openBasisOf(lot);
  return { source: "ESTIMATED_AT_COST", value: basis === null ? null : basis.times(sign) };
}

export interface ReferencePrice {
  price: Decimal | null;
  source: "exact" | "fallback" | "unavailable";
}

/** The LOT_SUMMARY row of a lot on the end date (docs/portfolio-lots.md "LOT_SUMMARY"). */
export function lotRow(lot: Lot, assetId: number, currency: string, ref: ReferencePrice, end: string): LotRow {
  const openQ = openQuantity(lot);
  const originalCost = lot.unitCost === null ? null : lot.unitCost.times(lot.originalQuantity);
  const realized = realizedOf(lot);
  const proceeds = sumKnown(lot.closures.map((c) => c.proceeds));
  const valued = openQ.isZero() ? { source: null, value: ZERO } : openValueOf(lot, ref.price);
  const basis = openBasisOf(lot);
  const signedBasis = basis === null ? null : lot.direction === "LONG" ? basis : basis.neg();
  const unrealized = minus(valued.value, signedBasis);
  const marketPnl = plus(realized, unrealized);
  const totalPnl = plus(marketPnl, lot.income);
  const totalReturn = ratio(totalPnl, originalCost);
  const netTotalPnl = minus(minus(totalPnl, lot.fees), lot.taxes);
  const days = daysBetween(lot.openingDate, lot.closingDate ?? end);
  const annualized = totalReturn !== null && days >= 30 && totalReturn.plus(1).gt(0)
    ? totalReturn.plus(1).pow(new Decimal(365).div(days)).minus(1) : null;
  const lifecycle: LotRow["states"][number] = openQ.isZero() ? "CLOSED" : lot.realizedQuantity.gt(0) ? "PARTIALLY_CLOSED" : "OPEN";
  const states: LotRow["states"] = [lifecycle];
  if (lot.fragments.some((f) => f.brokerId === null && f.quantity.gt(0))) states.push("IN_TRANSIT");
  if (lot.transferred) states.push("TRANSFERRED");
  return {
    lot_id: lot.id, opening_transaction_id: lot.id, asset_id: assetId, direction: lot.direction, opening_broker_id: lot.openingBrokerId,
    opening_date: lot.openingDate, closing_date: lot.closingDate, opening_unit_price: str(lot.unitCost),
    original_quantity: toDecimalString(lot.originalQuantity), original_cost: str(originalCost), currency,
    open_quantity: toDecimalString(openQ), realized_quantity: toDecimalString(lot.realizedQuantity), realized_pnl: str(realized),
    cumulative_proceeds: str(proceeds), reference_unit_price: str(ref.price), reference_price_source: ref.source, states,
    current_custody: custodyOf(lot), open_value: str(valued.value),
    total_value: lot.direction === "LONG" ? str(plus(valued.value, proceeds)) : null,
    pnl: str(marketPnl), relative_return: ret(ratio(marketPnl, originalCost)), asset_income: toDecimalString(lot.income),
    market_pnl: str(marketPnl), total_pnl: str(totalPnl), cash_yield: ret(ratio(lot.income, originalCost)),
    total_return: ret(totalReturn), annualized_return: ret(annualized), value_source: valued.source,
    allocated_fees: toDecimalString(lot.fees), allocated_taxes: toDecimalString(lot.taxes), net_total_pnl: str(netTotalPnl),
    net_total_return: ret(ratio(netTotalPnl, originalCost)),
    net_metrics_status: netTotalPnl !== null && originalCost !== null && originalCost.gt(0) ? "AVAILABLE" : "UNAVAILABLE",
  };
}

/** The aggregate of the included lots at the end of one day (VALUE_, RETURN_ and PERFORMANCE_HISTORY). */
export interface DaySnapshot {
  costBasis: Decimal | null;
  feesTaxes: Decimal;
  income: Decimal;
  inTransit: Decimal;
  invested: Decimal | null;
  marketValue: Decimal | null;
  quantity: Decimal;
  realized: Decimal | null;
  source: "MARKET_PRICE" | "ESTIMATED_AT_COST" | "MISSING";
}

export function snapshot(lots: readonly Lot[], price: Decimal | null): DaySnapshot {
  let quantity = ZERO;
  let inTransit = ZERO;
  const values: (Decimal | null)[] = [];
  const bases: (Decimal | null)[] = [];
  const invested: (Decimal | null)[] = [];
  const realized: (Decimal | null)[] = [];
  let income = ZERO;
  let feesTaxes = ZERO;
  for (const lot of lots) {
    const q = openQuantity(lot);
    const sign = lot.direction === "LONG" ? 1 : -1;
    quantity = quantity.plus(q.times(sign));
    for (const f of lot.fragments) if (f.brokerId === null) inTransit = inTransit.plus(f.quantity.times(sign));
    if (!q.isZero()) {
      values.push(openValueOf(lot, price).value);
      const basis = openBasisOf(lot);
      bases.push(basis === null ? null : basis.times(sign));
    }
    if (lot.direction === "LONG") invested.push(lot.unitCost === null ? null : lot.unitCost.times(lot.originalQuantity));
    realized.push(realizedOf(lot));
    income = income.plus(lot.income);
    feesTaxes = feesTaxes.plus(lot.fees).plus(lot.taxes);
  }
  const marketValue = sumKnown(values);
  const source = values.length === 0 || price !== null ? "MARKET_PRICE" : marketValue === null ? "MISSING" : "ESTIMATED_AT_COST";
  return {
    costBasis: sumKnown(bases), feesTaxes, income, inTransit, invested: sumKnown(invested), marketValue, quantity,
    realized: sumKnown(realized), source,
  };
}
