import { CostPool } from "../money/cost-pool.ts";
import type { Decimal } from "../money/decimal.ts";

/** The lots analysis' pool is the one weighted-average-cost pool (core/money/cost-pool.ts). */
export { CostPool as WacPool };

/** One pool per broker and one for the whole scope; internal transfers carry the sender's average. */
export class WacBook {
  readonly brokers = new Map<number, CostPool>();
  readonly total = new CostPool();
  private readonly inTransit = new Map<number, { average: Decimal | null }>();

  pool(brokerId: number): CostPool {
    let p = this.brokers.get(brokerId);
    if (!p) this.brokers.set(brokerId, (p = new CostPool()));
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
