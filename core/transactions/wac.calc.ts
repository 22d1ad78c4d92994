import { Decimal } from "../money/decimal.ts";

/** What the weighted average cost reads of one transaction of one asset in one broker. */
export interface WacRow {
  amount: string | null;
  cost_basis_currency: string | null;
  cost_basis_override: string | null;
  currency: string | null;
  quantity: string;
  type: string;
}

export interface WacPool {
  /** True when an inflow still in the pool was priced in another currency than `costCurrency`. */
  mixedCurrencies: boolean;
  quantity: Decimal;
  totalCost: Decimal;
}

/**
 * The running weighted-average-cost pool of one asset in one broker over rows sorted by
 * (date, id). BUY adds the cash paid; an inbound TRANSFER or ADJUSTMENT adds its per-unit
 * `cost_basis_override` times the quantity (nothing without one, as for a split); any outflow
 * removes cost at the current average, so the average itself is unchanged. An emptied pool
 * starts again from zero. Costs in another currency than `costCurrency` are not converted
 * (there is no FX here) and mark the pool as mixed.
 */
export function wacPool(rows: WacRow[], costCurrency: string): WacPool {
  let quantity = new Decimal(0);
  let totalCost = new Decimal(0);
  let mixed = false;
  for (const r of rows) {
    const q = new Decimal(r.quantity);
    if (q.isZero()) continue;
    if (q.gt(0)) {
      if (quantity.lte(0)) { totalCost = new Decimal(0); mixed = false; }
      const added = inflowCost(r, q);
      if (added && added.currency !== costCurrency) mixed = true;
      else if (added) totalCost = totalCost.plus(added.cost);
      quantity = quantity.plus(q);
    } else {
      const before = quantity;
      quantity = quantity.plus(q);
      if (quantity.lte(0)) { totalCost = new Decimal(0); mixed = false; }
      else totalCost = totalCost.minus(totalCost.times(q.neg()).dividedBy(before));
    }
  }
  return { quantity, totalCost, mixedCurrencies: mixed };
}

function inflowCost(r: WacRow, q: Decimal): { cost: Decimal; currency: string } | null {
  if (r.type === "BUY" && r.amount !== null && r.currency !== null) return { cost: new Decimal(r.amount).neg(), currency: r.currency };
  if (r.cost_basis_override !== null && r.cost_basis_currency !== null) {
    return { cost: new Decimal(r.cost_basis_override).times(q), currency: r.cost_basis_currency };
  }
  return null;
}

/** Cost per unit of a pool, or null when it holds no units. */
export function wacPerUnit(pool: WacPool): Decimal | null {
  return pool.quantity.gt(0) ? pool.totalCost.dividedBy(pool.quantity) : null;
}
