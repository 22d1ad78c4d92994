import { Decimal, isAboveZero, isBelowZero } from "./decimal.ts";

const ZERO = new Decimal(0);

/**
 * What a pool does with units sold beyond what it holds: `carry` keeps a short position (negative
 * quantity whose cost is the opening proceeds, so a later inflow covers it first), `clamp` drops
 * them (the pool empties; the WAC series describes the long pool only, docs/portfolio.md).
 */
export type ShortPolicy = "carry" | "clamp";

/** What an outflow took out of the pool. */
export interface Removal {
  /** Cost taken out of the long units (0 when none were held). */
  cost: Decimal;
  /** Proceeds share of the long units minus their cost; 0 without proceeds or long units. */
  realized: Decimal;
}

/** A {@link CostPool}'s fields as exact text; `unit` absent: the average is not computed yet. */
export interface CostPoolState {
  cost: string;
  quantity: string;
  unit?: string | null;
  unknown: boolean;
}

/**
 * The one weighted-average-cost pool (docs/portfolio.md "Weighted average cost"), used by the
 * report's replay, the lots analysis, the WAC series and the broker summary / auto cost basis.
 *
 * - An inflow adds its cost (null: unknown, which marks the pool until it empties); the average
 *   is recomputed. An emptied pool starts again.
 * - An outflow removes cost at the current average and keeps the average exactly (the cost is
 *   rebuilt as average × units left, so a sale adds no rounding).
 * - A short (policy `carry`): units sold beyond the long ones open a short whose cost is their
 *   share of the proceeds (negative). A later inflow covers it first: realised = the covered
 *   units' share of the short's proceeds − their share of the inflow's cost; only the rest is
 *   held, at the inflow's unit cost (so "short 5 at 100, buy 10 at 100" holds 5 at 100).
 * - A split adds (or removes) units and keeps the cost.
 */
export class CostPool {
  cost = ZERO;
  quantity = ZERO;
  unknown = false;
  /** cost / quantity while long, kept exactly through outflows; undefined: not computed since the last inflow. */
  private unitCache: Decimal | null | undefined = null;

  constructor(readonly shorts: ShortPolicy = "carry") {}

  /** An independent copy in the same state (the cached average included, so later outflows round alike). */
  clone(): CostPool {
    const c = new CostPool(this.shorts);
    c.cost = this.cost;
    c.quantity = this.quantity;
    c.unknown = this.unknown;
    c.unitCache = this.unitCache;
    return c;
  }

  /**
   * The pool's state as exact decimal text (the cached average included), to be kept and continued
   * later by {@link CostPool.fromState} exactly as this pool would continue.
   */
  toState(): CostPoolState {
    return {
      cost: this.cost.toFixed(), quantity: this.quantity.toFixed(), unknown: this.unknown,
      ...(this.unitCache === undefined ? {} : { unit: this.unitCache === null ? null : this.unitCache.toFixed() }),
    };
  }

  static fromState(state: CostPoolState, shorts: ShortPolicy = "carry"): CostPool {
    const pool = new CostPool(shorts);
    pool.cost = new Decimal(state.cost);
    pool.quantity = new Decimal(state.quantity);
    pool.unknown = state.unknown;
    pool.unitCache = state.unit === undefined ? undefined : state.unit === null ? null : new Decimal(state.unit);
    return pool;
  }

  /** Cost per unit of the long units; null when none are held or an unknown cost is in the pool. */
  average(): Decimal | null {
    return isAboveZero(this.quantity) && !this.unknown ? this.unit() : null;
  }

  /** Cost per unit of the long units, known or not (null when none are held). */
  knownAverage(): Decimal | null {
    return isAboveZero(this.quantity) ? this.unit() : null;
  }

  /** `q` (> 0) units in, costing `cost` in all (null: unknown). Returns the P&L realised by covering a short. */
  add(q: Decimal, cost: Decimal | null): Decimal {
    let realized = ZERO;
    let rest = q;
    let restCost = cost;
    if (isBelowZero(this.quantity)) {
      const short = this.quantity.neg();
      if (q.gte(short)) {
        // The whole short is covered: its proceeds (−cost) against the cover's share of the inflow.
        const coverCost = cost === null ? ZERO : q.eq(short) ? cost : cost.times(short).div(q);
        realized = this.cost.neg().minus(coverCost);
        rest = q.minus(short);
        restCost = cost === null ? null : q.eq(short) ? ZERO : cost.minus(coverCost);
        this.reset(ZERO);
      } else {
        const proceeds = this.cost.neg().times(q).div(short);
        realized = proceeds.minus(cost ?? ZERO);
        this.cost = this.cost.plus(proceeds);
        this.quantity = this.quantity.plus(q);
        return realized;
      }
    }
    if (rest.isZero()) return realized;
    if (this.quantity.isZero()) {
      this.quantity = rest;
      this.cost = restCost ?? ZERO;
      this.unknown = restCost === null;
    } else {
      this.quantity = this.quantity.plus(rest);
      this.cost = this.cost.plus(restCost ?? ZERO);
      this.unknown ||= restCost === null;
    }
    this.unitCache = undefined;
    return realized;
  }

  /** `n` (> 0) units out; `proceeds` (the whole outflow's, or null) prices the realised P&L and a short. */
  remove(n: Decimal, proceeds: Decimal | null = null): Removal {
    if (this.quantity.lte(0)) {
      this.openShort(n, proceeds ?? ZERO);
      return { cost: ZERO, realized: ZERO };
    }
    const held = this.quantity;
    if (n.lt(held)) {
      const before = this.cost;
      const unit = this.unit()!;
      this.quantity = held.minus(n);
      this.cost = unit.times(this.quantity);
      const cost = before.minus(this.cost);
      return { cost, realized: proceeds === null ? ZERO : proceeds.minus(cost) };
    }
    const cost = this.cost;
    const longProceeds = proceeds === null ? ZERO : n.eq(held) ? proceeds : proceeds.times(held).div(n);
    this.reset(ZERO);
    if (n.gt(held)) this.openShort(n.minus(held), proceeds === null ? ZERO : proceeds.minus(longProceeds));
    return { cost, realized: proceeds === null ? ZERO : longProceeds.minus(cost) };
  }

  /** Units added (q > 0) or removed (q < 0) by a split: the cost is kept. */
  split(q: Decimal): void {
    const quantity = this.quantity.plus(q);
    if (isAboveZero(this.quantity) && quantity.lte(0)) return this.reset(this.shorts === "carry" ? quantity : ZERO);
    this.quantity = quantity;
    this.unitCache = undefined;
  }

  private openShort(n: Decimal, proceeds: Decimal): void {
    if (this.shorts === "clamp") return this.reset(ZERO);
    this.quantity = this.quantity.minus(n);
    this.cost = this.cost.minus(proceeds);
    this.unknown = false;
    this.unitCache = null;
  }

  private reset(quantity: Decimal): void {
    this.quantity = quantity;
    this.cost = ZERO;
    this.unknown = false;
    this.unitCache = null;
  }

  /** The long units' cost per unit (computed on first use after an inflow or split). */
  private unit(): Decimal | null {
    if (this.unitCache === undefined) this.unitCache = isAboveZero(this.quantity) ? this.cost.div(this.quantity) : null;
    return this.unitCache;
  }
}
