import { CostPool } from "../money/cost-pool.ts";
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
 * (date, id), on the one {@link CostPool} (core/money/cost-pool.ts): BUY adds the cash paid; an
 * inbound TRANSFER or ADJUSTMENT adds its per-unit `cost_basis_override` times the quantity
 * (nothing without one, as for a split); any outflow removes cost at the current average, which
 * is kept exactly. Units bought back after a short cover it first. Costs in another currency than
 * `costCurrency` are not converted (there is no FX here) and mark the pool as mixed.
 */
export function wacPool(rows: WacRow[], costCurrency: string): WacPool {
  const pool = new CostPool("carry");
  let mixedCurrencies = false;
  for (const r of rows) {
    const q = new Decimal(r.quantity);
    if (q.gt(0)) {
      const added = inflowCost(r, q);
      const foreign = added !== null && added.currency !== costCurrency;
      if (pool.quantity.lte(0)) mixedCurrencies = false;
      pool.add(q, added && !foreign ? added.cost : new Decimal(0));
      mixedCurrencies ||= foreign;
    } else if (q.lt(0)) {
      pool.remove(q.neg(), r.amount !== null && r.type === "SELL" ? new Decimal(r.amount) : null);
    }
    if (pool.quantity.lte(0)) mixedCurrencies = false;
  }
  const held = pool.quantity.gt(0);
  return { quantity: pool.quantity, totalCost: held ? pool.cost : new Decimal(0), average: pool.average(), mixedCurrencies: held && mixedCurrencies };
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
