import { Decimal } from "../money/decimal.ts";

const ZERO = new Decimal(0);

/**
 * A weighted-average-cost pool (docs/portfolio.md "Weighted average cost"): inflows add their
 * cost (unknown cost marks the pool), outflows remove cost at the current average, a split adds
 * quantity at no cost, an emptied pool starts again.
 */
export class WacPool {
  cost = ZERO;
  quantity = ZERO;
  unknown = false;

  add(q: Decimal, cost: Decimal | null): void {
    const quantity = this.quantity.plus(q);
    if (quantity.lte(0)) return this.reset(quantity);
    if (this.quantity.lte(0)) {
      // Out of a short or empty pool: only the part above zero is held, at this inflow's unit cost.
      this.cost = cost === null ? ZERO : cost.times(quantity).div(q);
      this.unknown = cost === null;
    } else {
      this.cost = this.cost.plus(cost ?? ZERO);
      this.unknown ||= cost === null;
    }
    this.quantity = quantity;
  }

  /** Average cost per unit; null when nothing is held or an unknown cost is in the pool. */
  average(): Decimal | null {
    return this.quantity.gt(0) && !this.unknown ? this.cost.div(this.quantity) : null;
  }

  remove(n: Decimal): void {
    const quantity = this.quantity.minus(n);
    if (quantity.lte(0) || this.quantity.lte(0)) return this.reset(quantity);
    this.cost = this.cost.times(quantity).div(this.quantity);
    this.quantity = quantity;
  }

  split(q: Decimal): void {
    const quantity = this.quantity.plus(q);
    if (quantity.lte(0)) return this.reset(quantity);
    this.quantity = quantity;
  }

  private reset(quantity: Decimal): void {
    this.quantity = quantity;
    this.cost = ZERO;
    this.unknown = false;
  }
}

/** One pool per broker and one for the whole scope; internal transfers carry the sender's average. */
export class WacBook {
  readonly brokers = new Map<number, WacPool>();
  readonly total = new WacPool();
  private readonly inTransit = new Map<number, { average: Decimal | null }>();

  pool(brokerId: number): WacPool {
    let p = this.brokers.get(brokerId);
    if (!p) this.brokers.set(brokerId, (p = new WacPool()));
    return p;
  }

  inflow(brokerId: number, q: Decimal, cost: Decimal | null): void {
    this.pool(brokerId).add(q, cost);
    this.total.add(q, cost);
  }

  outflow(brokerId: number, n: Decimal): void {
    this.pool(brokerId).remove(n);
    this.total.remove(n);
  }

  split(brokerId: number, q: Decimal): void {
    this.pool(brokerId).split(q);
    this.total.split(q);
  }

  /** Departure of an in-scope transfer: the sender's average leaves with the units (the scope total is untouched). */
  depart(outTxId: number, brokerId: number, n: Decimal): void {
    const pool = this.pool(brokerId);
    this.inTransit.set(outTxId, { average: pool.average() });
    pool.remove(n);
  }

  /** Arrival: the override when the incoming leg has one, else the sender's average at departure. */
  arrive(outTxId: number, brokerId: number, q: Decimal, override: Decimal | null): void {
    const sent = this.inTransit.get(outTxId);
    const cost = override ?? (sent?.average ? sent.average.times(q) : null);
    this.pool(brokerId).add(q, cost);
  }
}
