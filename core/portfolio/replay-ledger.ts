/**
 * The state of the daily replay (docs/portfolio.md "Daily replay") as a ledger: `apply(tx)`
 * dispatches to one small method per transaction type, `value(date)` values the end of a day, and
 * the state lives in fields. Pure: Decimal (and exact BigInt sums) over a `ReportInput`.
 */
import { CostPool } from "../money/cost-pool.ts";
import { Decimal, isAboveZero, isBelowZero } from "../money/decimal.ts";
import type { FxTable } from "./fx-table.calc.ts";
import type { PriceBook } from "./price-book.calc.ts";
import { AssetValues } from "./asset-values.ts";
import { decimalParts } from "./allocation-percent.ts";
import { type Estimated, estimated } from "./double-double.ts";
import { partsOf } from "./exact-decimal.ts";
import type { ReplayTx, ReportInput } from "./report-input.ts";
import { ScaledValuation } from "./scaled-valuation.ts";

const ZERO = new Decimal(0);
const ONE = new Decimal(1);

/** One (asset, broker) pool: share-weighted units and their cost in the target currency. */
export class Position {
  /** The one weighted-average-cost pool (core/money/cost-pool.ts). */
  readonly pool: CostPool = new CostPool("carry");
  /** First day of the current pool (since it was last empty). */
  openedOn: string | null = null;
  realized = ZERO;
  periodRealized = ZERO;
  periodIncome = ZERO;
  periodFeesTaxes = ZERO;
  /** Quantity and cost at the end of the start day. */
  startQuantity = ZERO;
  startCost = ZERO;
  everHeldInPeriod = false;

  constructor(readonly assetId: number, readonly brokerId: number, pool?: CostPool) {
    if (pool) this.pool = pool;
  }

  /** An independent copy (the pool copied too): checkpoints keep positions as they were. */
  clone(): Position {
    const p = new Position(this.assetId, this.brokerId, this.pool.clone());
    p.openedOn = this.openedOn;
    p.realized = this.realized;
    p.periodRealized = this.periodRealized;
    p.periodIncome = this.periodIncome;
    p.periodFeesTaxes = this.periodFeesTaxes;
    p.startQuantity = this.startQuantity;
    p.startCost = this.startCost;
    p.everHeldInPeriod = this.everHeldInPeriod;
    return p;
  }

  get quantity(): Decimal { return this.pool.quantity; }
  get cost(): Decimal { return this.pool.cost; }
  /** Units of unknown cost are in the pool (MISSING_COST_BASIS): WAC and gains are unknown until it empties. */
  get unknownCost(): boolean { return this.pool.unknown; }
}

export interface TransitItem {
  kind: "asset" | "cash";
  assetId: number | null;
  currency: string | null;
  /** Units (asset) or amount (cash), share-weighted by the sending broker. */
  quantity: Decimal;
  /** Cost carried (asset: target currency; cash: 0, its book value is its value). */
  cost: Decimal;
  fromBroker: number;
  toBroker: number;
  departed: string;
  arrives: string;
}

export interface DayState {
  date: string;
  cash: Decimal;
  marketValue: Decimal;
  inTransitMarketValue: Decimal;
  nav: Decimal;
  openCost: Decimal;
  inTransitBook: Decimal;
  unrealized: Decimal;
  capitalBaseline: Decimal;
  /** Net external flow of the day in the target currency (positive = money in). */
  flow: Decimal;
  /** Some held asset had no price this day. */
  incomplete: boolean;
  /**
   * Per-asset value of the day in the target currency (only when allocation history was asked
   * for): estimates first, the Decimal chain's exact values when asked (asset-values.ts).
   */
  assetValues?: AssetValues;
}

export interface Totals {
  deposited: Decimal;
  withdrawn: Decimal;
  income: Decimal;
  fees: Decimal;
  taxes: Decimal;
  realized: Decimal;
}

export function emptyTotals(): Totals {
  return { deposited: ZERO, withdrawn: ZERO, income: ZERO, fees: ZERO, taxes: ZERO, realized: ZERO };
}

/**
 * The ledger's state between two days (docs/decisions.md, "Incremental report": replay checkpoints). Decimals
 * are immutable, so maps of them are copied shallowly; positions and per-broker buckets are cloned.
 * `incompleteDates` and `incomePayments` are the lengths of those lists at that point (entries are
 * only ever appended, never changed): a copy of the payments so far in each checkpoint was ~4.6 MB
 * of a kept dense-100k scope.
 */
export interface LedgerSnapshot {
  positions: Position[];
  cash: [number, [string, Decimal][]][];
  cashByCurrency: [string, Decimal][];
  assetQty: [number, Decimal][];
  transit: [number, TransitItem][];
  brokerBaseline: [number, Decimal][];
  missingCostBasis: [number, number][];
  unallocated: [number, { income: Decimal; feesTaxes: Decimal }][];
  firstTrade: [number, string][];
  total: Totals;
  period: Totals;
  incompleteDates: number;
  openCost: Decimal;
  baseline: Decimal;
  incomePayments: number;
}

/** One DIVIDEND or INTEREST as the report counts it: in the target currency, at the broker's scale. */
export interface IncomePayment {
  date: string;
  type: string;
  brokerId: number;
  assetId: number | null;
  /** Null when it could not be converted (it counts as 0 in the totals, like every unconverted amount). */
  amount: Decimal | null;
}

/** Facts of one transaction shared by the per-type methods. */
interface TxContext {
  t: ReplayTx;
  /** Broker scale. */
  s: Decimal;
  /** The row's signed units as stored (not share-weighted). */
  units: Decimal;
  /** Share-weighted signed units. */
  q: Decimal;
  /** The row's cash amount as stored (not share-weighted); null when it has none. */
  amount: Decimal | null;
  /** Share-weighted cash converted to the target on the row's date; null without cash or rate. */
  cashTarget: Decimal | null;
  inPeriod: boolean;
  partnerInScope: boolean;
  partnerScale: Decimal;
}

export class ReplayLedger {
  readonly positions = new Map<number, Map<number, Position>>();
  private readonly ordered: Position[] = [];
  readonly cash = new Map<number, Map<string, Decimal>>();
  readonly cashByCurrency = new Map<string, Decimal>();
  readonly assetQty = new Map<number, Decimal>();
  readonly transit = new Map<number, TransitItem>();
  readonly brokerBaseline = new Map<number, Decimal>();
  readonly missingCostBasis = new Map<number, number>();
  readonly unallocated = new Map<number, { income: Decimal; feesTaxes: Decimal }>();
  /** Every income payment up to the day replayed, the start day and earlier ones included (the summary's `total_income`). */
  incomePayments: IncomePayment[] = [];
  readonly firstTrade = new Map<number, string>();
  readonly total = emptyTotals();
  readonly period = emptyTotals();
  incompleteDates: string[] = [];
  openCost = ZERO;
  baseline = ZERO;
  /** Net external flow of the day being replayed. */
  flow = ZERO;

  private readonly scale: Map<number, Decimal>;
  private readonly assetCurrency: Map<number, string>;
  private readonly valuation: ScaledValuation | null;

  constructor(private readonly input: ReportInput, readonly start: string, readonly prices: PriceBook, readonly fx: FxTable) {
    // A scale of 1 is the shared ONE: `s === ONE` then skips the multiplication without a comparison.
    this.scale = new Map(input.brokers.map((b) => { const s = new Decimal(b.scale); return [b.id, s.eq(1) ? ONE : s]; }));
    this.assetCurrency = new Map(input.assets.map((a) => [a.id, a.currency]));
    this.valuation = ScaledValuation.create(input, prices);
  }

  inScope(brokerId: number): boolean {
    return this.scale.has(brokerId);
  }

  /** Starts a day: its flow restarts from zero. */
  beginDay(): void {
    this.flow = ZERO;
  }

  /** Applies one transaction (`units` and `amount` are its parsed quantity and cash amount). */
  apply(t: ReplayTx, units: Decimal, amount: Decimal | null): void {
    const s = this.scale.get(t.brokerId)!;
    const partnerInScope = t.partnerBrokerId !== null && this.scale.has(t.partnerBrokerId);
    const c: TxContext = {
      t, s, units, q: s === ONE ? units : units.times(s), amount, cashTarget: this.moveCash(t, amount, s), inPeriod: t.date > this.start,
      partnerInScope, partnerScale: partnerInScope ? this.scale.get(t.partnerBrokerId!)! : ZERO,
    };
    if ((t.type === "BUY" || t.type === "SELL") && t.assetId !== null && !this.firstTrade.has(t.assetId)) this.firstTrade.set(t.assetId, t.date);
    switch (t.type) {
      case "DEPOSIT": case "WITHDRAWAL": return this.depositOrWithdrawal(c);
      case "DIVIDEND": case "INTEREST": return this.income(c);
      case "FEE": case "TAX": return this.feeOrTax(c);
      case "BUY": return this.buy(c);
      case "SELL": return this.sell(c);
      case "ADJUSTMENT": return this.adjustment(c);
      case "TRANSFER": return this.transfer(c);
      case "CASH_TRANSFER": case "FX_CONVERSION": return this.cashPair(c);
    }
  }

  /** Freezes the start day's quantities and costs (positions contribution). */
  markStart(): void {
    for (const p of this.ordered) {
      p.startQuantity = p.quantity;
      p.startCost = p.cost;
      if (!p.quantity.isZero()) p.everHeldInPeriod = true;
    }
  }

  /** The state between two days (taken before a day's transactions). */
  snapshot(): LedgerSnapshot {
    return {
      positions: this.ordered.map((p) => p.clone()),
      cash: [...this.cash].map(([b, m]) => [b, [...m]]),
      cashByCurrency: [...this.cashByCurrency],
      assetQty: [...this.assetQty],
      transit: [...this.transit],
      brokerBaseline: [...this.brokerBaseline],
      missingCostBasis: [...this.missingCostBasis],
      unallocated: [...this.unallocated].map(([b, u]) => [b, { ...u }]),
      firstTrade: [...this.firstTrade],
      total: { ...this.total },
      period: { ...this.period },
      incompleteDates: this.incompleteDates.length,
      openCost: this.openCost,
      baseline: this.baseline,
      incomePayments: this.incomePayments.length,
    };
  }

  /**
   * Continues from `s` (on a fresh ledger): the snapshot itself is left untouched. `incompleteDates`
   * and `incomePayments` are the lists the snapshot's run produced (their first `s.incompleteDates`
   * and `s.incomePayments` entries are kept).
   */
  restore(s: LedgerSnapshot, incompleteDates: readonly string[], incomePayments: readonly IncomePayment[]): void {
    for (const p of s.positions) {
      const c = p.clone();
      this.ordered.push(c);
      let byBroker = this.positions.get(c.assetId);
      if (!byBroker) this.positions.set(c.assetId, byBroker = new Map());
      byBroker.set(c.brokerId, c);
    }
    for (const [b, m] of s.cash) this.cash.set(b, new Map(m));
    for (const [k, v] of s.cashByCurrency) this.cashByCurrency.set(k, v);
    for (const [k, v] of s.assetQty) { this.assetQty.set(k, v); this.valuation?.setQuantity(k, v); }
    for (const [k, v] of s.transit) this.transit.set(k, v);
    for (const [k, v] of s.brokerBaseline) this.brokerBaseline.set(k, v);
    for (const [k, v] of s.missingCostBasis) this.missingCostBasis.set(k, v);
    for (const [k, v] of s.unallocated) this.unallocated.set(k, { ...v });
    for (const [k, v] of s.firstTrade) this.firstTrade.set(k, v);
    Object.assign(this.total, s.total);
    Object.assign(this.period, s.period);
    this.incompleteDates = incompleteDates.slice(0, s.incompleteDates);
    this.openCost = s.openCost;
    this.baseline = s.baseline;
    this.incomePayments = incomePayments.slice(0, s.incomePayments);
  }

  /** Every position, in the order they were first touched. */
  allPositions(): Position[] {
    return [...this.ordered];
  }

  // --- one method per transaction type -------------------------------------------------------

  private depositOrWithdrawal(c: TxContext): void {
    const v = c.cashTarget ?? ZERO;
    this.addFlow(c.t.brokerId, v, c.inPeriod);
    if (isAboveZero(v)) this.sumBoth("deposited", v, c.inPeriod);
    else this.sumBoth("withdrawn", v.neg(), c.inPeriod);
  }

  private income(c: TxContext): void {
    const v = c.cashTarget ?? ZERO;
    this.incomePayments.push({ date: c.t.date, type: c.t.type, brokerId: c.t.brokerId, assetId: c.t.assetId, amount: c.cashTarget });
    this.sumBoth("income", v, c.inPeriod);
    if (!c.inPeriod) return;
    if (c.t.assetId !== null) { const p = this.positionOf(c.t.assetId, c.t.brokerId); p.periodIncome = p.periodIncome.plus(v); }
    else { const u = this.unallocatedOf(c.t.brokerId); u.income = u.income.plus(v); }
  }

  private feeOrTax(c: TxContext): void {
    const v = (c.cashTarget ?? ZERO).neg();
    this.sumBoth(c.t.type === "FEE" ? "fees" : "taxes", v, c.inPeriod);
    if (!c.inPeriod) return;
    if (c.t.assetId !== null) { const p = this.positionOf(c.t.assetId, c.t.brokerId); p.periodFeesTaxes = p.periodFeesTaxes.plus(v); }
    else { const u = this.unallocatedOf(c.t.brokerId); u.feesTaxes = u.feesTaxes.plus(v); }
  }

  private buy(c: TxContext): void {
    const p = this.positionOf(c.t.assetId!, c.t.brokerId);
    const gain = this.addUnits(p, c.q, c.cashTarget === null ? null : c.cashTarget.neg(), c.t.date);
    if (!gain.isZero()) this.realize(p, gain, c.inPeriod);
  }

  private sell(c: TxContext): void {
    const p = this.positionOf(c.t.assetId!, c.t.brokerId);
    this.realize(p, this.removeUnits(p, c.q.neg(), c.cashTarget ?? ZERO, c.t.date).realized, c.inPeriod);
  }

  private adjustment(c: TxContext): void {
    const { t, q } = c;
    const p = this.positionOf(t.assetId!, t.brokerId);
    if (t.splitLinked) {
      // A split changes the units and keeps the cost.
      const before = p.pool.cost;
      const heldBefore = isAboveZero(p.pool.quantity);
      p.pool.split(q);
      this.bumpQty(p.assetId, q);
      this.track(p, before, heldBefore, t.date);
      return;
    }
    if (isAboveZero(q)) {
      this.realize(p, this.addUnits(p, q, this.inboundCost(t, q), t.date), c.inPeriod);
      if (t.costBasisOverride === null) this.missingCostBasis.set(t.assetId!, (this.missingCostBasis.get(t.assetId!) ?? 0) + 1);
    } else this.removeUnits(p, q.neg(), null, t.date);
    this.addFlow(t.brokerId, this.movementValue(t, q), c.inPeriod);
  }

  private transfer(c: TxContext): void {
    const { t, q, s } = c;
    const p = this.positionOf(t.assetId!, t.brokerId);
    if (isBelowZero(q)) {
      const removed = this.removeUnits(p, q.neg(), null, t.date).cost;
      if (!c.partnerInScope) return this.addFlow(t.brokerId, this.movementValue(t, q), c.inPeriod);
      this.bump(this.brokerBaseline, t.brokerId, this.movementValue(t, q));
      if (t.partnerDate !== null && t.partnerDate > t.date) {
        this.transit.set(t.id, {
          kind: "asset", assetId: t.assetId, currency: null, quantity: q.neg(), cost: removed, fromBroker: t.brokerId,
          toBroker: t.partnerBrokerId!, departed: t.date, arrives: t.partnerDate,
        });
      }
      return;
    }
    this.realize(p, this.addUnits(p, q, this.inboundCost(t, q), t.date), c.inPeriod);
    if (t.costBasisOverride === null) this.missingCostBasis.set(t.assetId!, (this.missingCostBasis.get(t.assetId!) ?? 0) + 1);
    if (t.relatedId !== null) this.transit.delete(t.relatedId);
    if (!c.partnerInScope) return this.addFlow(t.brokerId, this.movementValue(t, q), c.inPeriod);
    this.bump(this.brokerBaseline, t.brokerId, this.movementValue(t, q));
    // Different shares of the two brokers: the difference enters (or leaves) the scope here.
    if (!s.eq(c.partnerScale)) this.scopeDifference(this.movementValue(t, c.units.times(s.minus(c.partnerScale))), c.inPeriod);
  }

  private cashPair(c: TxContext): void {
    const { t, s } = c;
    const v = c.cashTarget ?? ZERO;
    if (!c.partnerInScope) return this.addFlow(t.brokerId, v, c.inPeriod);
    if (t.type === "CASH_TRANSFER") this.bump(this.brokerBaseline, t.brokerId, v);
    const raw = c.amount ?? ZERO;
    if (isBelowZero(raw) && t.partnerDate !== null && t.partnerDate > t.date) {
      this.transit.set(t.id, {
        kind: "cash", assetId: null, currency: t.currency, quantity: raw.neg().times(s), cost: ZERO, fromBroker: t.brokerId,
        toBroker: t.partnerBrokerId!, departed: t.date, arrives: t.partnerDate,
      });
    }
    if (isAboveZero(raw)) {
      if (t.relatedId !== null) this.transit.delete(t.relatedId);
      if (t.type === "CASH_TRANSFER" && !s.eq(c.partnerScale)) {
        this.scopeDifference(this.fx.convert(raw.times(s.minus(c.partnerScale)), t.currency!, t.date) ?? ZERO, c.inPeriod);
      }
    }
  }

  // --- state helpers ---------------------------------------------------------------------------

  /** Books the row's share-weighted cash in its currency; returns it in the target currency. */
  private moveCash(t: ReplayTx, raw: Decimal | null, s: Decimal): Decimal | null {
    if (raw === null || t.currency === null) return null;
    const a = s === ONE ? raw : raw.times(s);
    let byCcy = this.cash.get(t.brokerId);
    if (!byCcy) this.cash.set(t.brokerId, byCcy = new Map());
    byCcy.set(t.currency, (byCcy.get(t.currency) ?? ZERO).plus(a));
    this.cashByCurrency.set(t.currency, (this.cashByCurrency.get(t.currency) ?? ZERO).plus(a));
    return t.currency === this.fx.target ? a : this.fx.convert(a, t.currency, t.date);
  }

  private positionOf(assetId: number, brokerId: number): Position {
    let byBroker = this.positions.get(assetId);
    if (!byBroker) this.positions.set(assetId, byBroker = new Map());
    let p = byBroker.get(brokerId);
    if (!p) {
      byBroker.set(brokerId, p = new Position(assetId, brokerId));
      this.ordered.push(p);
    }
    return p;
  }

  private unallocatedOf(brokerId: number): { income: Decimal; feesTaxes: Decimal } {
    let u = this.unallocated.get(brokerId);
    if (!u) this.unallocated.set(brokerId, u = { income: ZERO, feesTaxes: ZERO });
    return u;
  }

  private bump(m: Map<number, Decimal>, k: number, d: Decimal): void {
    m.set(k, (m.get(k) ?? ZERO).plus(d));
  }

  private bumpQty(assetId: number, d: Decimal): void {
    const qty = (this.assetQty.get(assetId) ?? ZERO).plus(d);
    this.assetQty.set(assetId, qty);
    this.valuation?.setQuantity(assetId, qty);
  }

  private sumBoth(key: keyof Totals, v: Decimal, inPeriod: boolean): void {
    this.total[key] = this.total[key].plus(v);
    if (inPeriod) this.period[key] = this.period[key].plus(v);
  }

  private addFlow(brokerId: number, value: Decimal, inPeriod: boolean): void {
    this.baseline = this.baseline.plus(value);
    this.bump(this.brokerBaseline, brokerId, value);
    if (inPeriod) this.flow = this.flow.plus(value);
  }

  /** An external flow of the scope only (share difference of an internal transfer), not of a broker. */
  private scopeDifference(value: Decimal, inPeriod: boolean): void {
    this.baseline = this.baseline.plus(value);
    if (inPeriod) this.flow = this.flow.plus(value);
  }

  private realize(p: Position, gain: Decimal, inPeriod: boolean): void {
    if (gain.isZero()) return;
    p.realized = p.realized.plus(gain);
    this.total.realized = this.total.realized.plus(gain);
    if (inPeriod) {
      p.periodRealized = p.periodRealized.plus(gain);
      this.period.realized = this.period.realized.plus(gain);
    }
  }

  /** Moves the open cost totals by the change of a pool's cost; the pool's first day follows its quantity. */
  private track(p: Position, costBefore: Decimal, heldBefore: boolean, date: string): void {
    if (p.pool.cost !== costBefore) {
      const delta = p.pool.cost.minus(costBefore);
      if (!delta.isZero()) {
        this.openCost = this.openCost.plus(delta);
      }
    }
    const held = isAboveZero(p.pool.quantity);
    if (!held) p.openedOn = null;
    else if (!heldBefore) p.openedOn = date;
  }

  /** Adds units (cost null: unknown); returns the P&L realised by covering a short. */
  private addUnits(p: Position, qty: Decimal, cost: Decimal | null, date: string): Decimal {
    if (date >= this.start) p.everHeldInPeriod = true;
    const before = p.pool.cost;
    const heldBefore = isAboveZero(p.pool.quantity);
    const realized = p.pool.add(qty, cost);
    this.bumpQty(p.assetId, qty);
    this.track(p, before, heldBefore, date);
    return realized;
  }

  /** Removes units at the pool's average cost (`proceeds`: the outflow's, for the realised P&L). */
  private removeUnits(p: Position, qty: Decimal, proceeds: Decimal | null, date: string) {
    const before = p.pool.cost;
    const out = p.pool.remove(qty, proceeds);
    this.bumpQty(p.assetId, qty.neg());
    this.track(p, before, true, date);
    return out;
  }

  /** Value of `qty` units of an asset on a movement date (market, else the row's own override; else zero). */
  private movementValue(t: ReplayTx, qty: Decimal): Decimal {
    const obs = this.prices.at(t.assetId!, t.date);
    if (obs) return this.fx.convert(qty.times(obs.price), obs.currency, t.date) ?? ZERO;
    if (t.costBasisOverride !== null) {
      return this.fx.convert(qty.times(t.costBasisOverride), t.costBasisCurrency ?? this.assetCurrency.get(t.assetId!) ?? this.input.target, t.date) ?? ZERO;
    }
    return ZERO;
  }

  /** Cost of inbound units in the target currency: per-unit override × units; null when unknown. */
  private inboundCost(t: ReplayTx, q: Decimal): Decimal | null {
    if (t.costBasisOverride === null) return null;
    const ccy = t.costBasisCurrency ?? this.assetCurrency.get(t.assetId!) ?? this.input.target;
    return this.fx.convert(q.times(t.costBasisOverride), ccy, t.date);
  }

  // --- valuation -------------------------------------------------------------------------------

  /** The end-of-day state of `date`. */
  value(date: string): DayState {
    // Positions grouped by currency: one conversion per currency per day. Unrealized gains cover
    // valued positions only, so the cost of the ones left out is subtracted from the total.
    const groups = new Map<string, { value: Decimal; assets: number[] }>();
    let incomplete = false;
    let unvaluedCost = ZERO;
    const scaled = this.valuation?.begin(date);
    // The allocation history's per-asset values: their inputs, kept as the assets are valued.
    const assetValues = this.input.flags.allocationHistory ? new AssetValues() : undefined;
    // forEach, not for…of: no [key, value] pair allocated per asset and day.
    this.assetQty.forEach((qty, assetId) => {
      if (qty.isZero()) return;
      if (assetValues) this.notePosition(assetValues, assetId, qty, date);
      // Quote-valued assets are summed exactly in scaled integers (ScaledValuation); others here.
      if (scaled?.addIfQuoted(assetId)) return;
      const obs = this.prices.at(assetId, date);
      if (!obs) {
        incomplete = true;
        unvaluedCost = unvaluedCost.plus(this.costOf(assetId));
        return;
      }
      let g = groups.get(obs.currency);
      if (!g) groups.set(obs.currency, g = { value: ZERO, assets: [] });
      g.value = g.value.plus(qty.times(obs.price));
      g.assets.push(assetId);
    });
    if (scaled) {
      for (const [currency, sum] of scaled.sums()) {
        let g = groups.get(currency);
        if (!g) groups.set(currency, g = { value: ZERO, assets: [] });
        g.value = g.value.isZero() ? sum.value : g.value.plus(sum.value);
        g.assets.push(...sum.assets);
      }
    }
    let marketValue = ZERO;
    for (const [ccy, g] of groups) {
      const r = this.fx.rate(ccy, date);
      if (r === null) {
        for (const id of g.assets) unvaluedCost = unvaluedCost.plus(this.costOf(id));
        continue;
      }
      marketValue = marketValue.plus(ccy === this.fx.target ? g.value : g.value.times(r));
    }
    const valuedCost = this.openCost.minus(unvaluedCost);
    const transit = this.valueTransit(date, assetValues);
    if (transit.incomplete) incomplete = true;
    let cashValue = ZERO;
    for (const [ccy, amount] of this.cashByCurrency) {
      if (amount.isZero()) continue;
      cashValue = cashValue.plus(ccy === this.fx.target ? amount : this.fx.convert(amount, ccy, date) ?? ZERO);
    }
    if (incomplete) this.incompleteDates.push(date);
    return {
      date, cash: cashValue, marketValue, inTransitMarketValue: transit.marketValue, nav: cashValue.plus(marketValue).plus(transit.marketValue),
      openCost: this.openCost, inTransitBook: transit.book,
      unrealized: marketValue.plus(transit.assetValue).minus(valuedCost).minus(transit.valuedCost),
      capitalBaseline: this.baseline, flow: this.flow, incomplete, assetValues,
    };
  }

  /**
   * Notes a held asset's valuation inputs for its allocation value: a quote's close (read as parts
   * from its text) or the observation's price, and the day's rate to the target currency; an asset
   * without a price or a rate has no value that day.
   */
  private notePosition(values: AssetValues, assetId: number, qty: Decimal, date: string): void {
    let price = this.prices.quotePartsAt(assetId, date);
    let currency: string;
    if (price) currency = this.assetCurrency.get(assetId)!;
    else {
      const obs = this.prices.at(assetId, date);
      if (!obs) return;
      price = estimated(partsOf(obs.price));
      currency = obs.currency;
    }
    const quantity = this.estimateOf(this.quantityEstimates, assetId, qty);
    if (currency === this.fx.target) return values.addPosition(assetId, quantity, price, null);
    const r = this.fx.rate(currency, date, false);
    if (r !== null) values.addPosition(assetId, quantity, price, this.estimateOf(this.rateEstimates, currency, r));
  }

  /** Quantities' and rates' estimates, each made again when its Decimal is another (it changes on trades, or each day). */
  private readonly quantityEstimates = new Map<number, { of: Decimal; estimate: Estimated }>();
  private readonly rateEstimates = new Map<string, { of: Decimal; estimate: Estimated }>();
  private estimateOf<K>(cache: Map<K, { of: Decimal; estimate: Estimated }>, key: K, x: Decimal): Estimated {
    let e = cache.get(key);
    if (e === undefined || e.of !== x) cache.set(key, e = { of: x, estimate: estimated(decimalParts(x)) });
    return e.estimate;
  }

  /** Open cost of an asset across brokers (only asked for assets left out of a day's valuation). */
  private costOf(assetId: number): Decimal {
    let cost = ZERO;
    for (const p of this.positions.get(assetId)?.values() ?? []) cost = cost.plus(p.cost);
    return cost;
  }

  private valueTransit(date: string, assetValues: AssetValues | undefined) {
    const out = { marketValue: ZERO, book: ZERO, valuedCost: ZERO, assetValue: ZERO, incomplete: false };
    for (const item of this.transit.values()) {
      if (item.kind === "cash") {
        const v = this.fx.convert(item.quantity, item.currency!, date) ?? ZERO;
        out.marketValue = out.marketValue.plus(v);
        out.book = out.book.plus(v);
        continue;
      }
      out.book = out.book.plus(item.cost);
      const obs = this.prices.at(item.assetId!, date);
      if (!obs) { out.incomplete = true; continue; }
      const v = this.fx.convert(item.quantity.times(obs.price), obs.currency, date);
      if (v === null) continue;
      out.marketValue = out.marketValue.plus(v);
      out.assetValue = out.assetValue.plus(v);
      out.valuedCost = out.valuedCost.plus(item.cost);
      assetValues?.addValue(item.assetId!, estimated(partsOf(v)));
    }
    return out;
  }
}
