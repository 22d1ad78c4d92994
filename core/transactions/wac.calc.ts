import { CostPool, type CostPoolState } from "../money/cost-pool.ts";
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

/** Where a {@link WacReplay} stands, as exact text (a balance checkpoint keeps one per asset). */
export interface WacState {
  /** The cost currency the replay ran in (the asset's): a state is only continued in the same one. */
  currency: string;
  mixed: boolean;
  pool: CostPoolState;
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
  const replay = new WacReplay(costCurrency);
  for (const r of rows) replay.apply(r);
  return replay.result();
}

/** {@link wacPool} one row at a time, from an empty pool or a kept {@link WacState}. */
export class WacReplay {
  private readonly pool: CostPool;
  private mixedCurrencies: boolean;

  constructor(private readonly costCurrency: string, start?: WacState) {
    if (start && start.currency !== costCurrency) throw new Error(`a WAC state in ${start.currency} continued in ${costCurrency}`);
    this.pool = start ? CostPool.fromState(start.pool, "carry") : new CostPool("carry");
    this.mixedCurrencies = start?.mixed ?? false;
  }

  apply(r: WacRow): void {
    const pool = this.pool;
    const q = new Decimal(r.quantity);
    if (q.gt(0)) {
      const added = inflowCost(r, q);
      const foreign = added !== null && added.currency !== this.costCurrency;
      if (pool.quantity.lte(0)) this.mixedCurrencies = false;
      pool.add(q, added && !foreign ? added.cost : new Decimal(0));
      this.mixedCurrencies ||= foreign;
    } else if (q.lt(0)) {
      pool.remove(q.neg(), r.amount !== null && r.type === "SELL" ? new Decimal(r.amount) : null);
    }
    if (pool.quantity.lte(0)) this.mixedCurrencies = false;
  }

  result(): WacPool {
    const pool = this.pool;
    const held = pool.quantity.gt(0);
    return { quantity: pool.quantity, totalCost: held ? pool.cost : new Decimal(0), average: pool.average(), mixedCurrencies: held && this.mixedCurrencies };
  }

  state(): WacState {
    return { currency: this.costCurrency, mixed: this.mixedCurrencies, pool: this.pool.toState() };
  }
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
