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
  /** Cost per unit, set by each inflow and left untouched by outflows; null when nothing is held. */
  average: Decimal | null;
  /** True when an inflow still in the pool was priced in another currency than `costCurrency`. */
  mixedCurrencies: boolean;
  quantity: Decimal;
  totalCost: Decimal;
}

/**
 * The running weighted-average-cost pool of one asset in one broker over rows sorted by
 * (date, id). BUY adds the cash paid; an inbound TRANSFER or ADJUSTMENT adds its per-unit
 * `cost_basis_override` times the quantity (nothing without one, as for a split); any outflow
 * removes cost at the current average, so the average itself is unchanged (it is kept, not
 * recomputed, so a sale adds no rounding). An emptied pool starts again from zero. Costs in
 * another currency than `costCurrency` are not converted (there is no FX here) and mark the
 * pool as mixed.
 */
export function wacPool(rows: WacRow[], costCurrency: string): WacPool {
  let pool: WacPool = { quantity: new Decimal(0), totalCost: new Decimal(0), average: null, mixedCurrencies: false };
  for (const r of rows) {
    const q = new Decimal(r.quantity);
    if (q.gt(0)) pool = addInflow(pool, r, q, costCurrency);
    else if (q.lt(0)) pool = removeOutflow(pool, q);
  }
  return pool;
}

function addInflow(pool: WacPool, r: WacRow, q: Decimal, costCurrency: string): WacPool {
  const added = inflowCost(r, q);
  const foreign = added !== null && added.currency !== costCurrency;
  const cost = added && !foreign ? added.cost : new Decimal(0);
  const quantity = pool.quantity.plus(q);
  if (quantity.lte(0)) return { quantity, totalCost: new Decimal(0), average: null, mixedCurrencies: false };
  if (pool.quantity.lte(0)) {
    const average = cost.dividedBy(q);
    return { quantity, totalCost: average.times(quantity), average, mixedCurrencies: foreign };
  }
  const totalCost = pool.totalCost.plus(cost);
  return { quantity, totalCost, average: totalCost.dividedBy(quantity), mixedCurrencies: pool.mixedCurrencies || foreign };
}

function removeOutflow(pool: WacPool, q: Decimal): WacPool {
  const quantity = pool.quantity.plus(q);
  if (quantity.lte(0) || pool.average === null) return { quantity, totalCost: new Decimal(0), average: null, mixedCurrencies: false };
  return { ...pool, quantity, totalCost: pool.average.times(quantity) };
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
  return pool.quantity.gt(0) ? pool.average : null;
}
