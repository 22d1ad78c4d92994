/**
 * The daily replay (docs/portfolio.md "Daily replay"): every calendar day from the first
 * transaction in scope to the end date applies that day's transactions, then, inside the period,
 * values the portfolio at the end of the day. Pure: Decimal arithmetic over a `ReportInput`.
 */
import { eachDay } from "../dates/calendar.ts";
import { CostPool } from "../money/cost-pool.ts";
import { Decimal } from "../money/decimal.ts";
import { FxTable } from "./fx-table.calc.ts";
import { PriceBook } from "./price-book.calc.ts";
import type { LedgerTx, ReportInput } from "./report-input.ts";

const ZERO = new Decimal(0);

/** One (asset, broker) pool: share-weighted units and their cost in the target currency. */
export class Position {
  /** The one weighted-average-cost pool (core/money/cost-pool.ts). */
  readonly pool = new CostPool("carry");
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

  constructor(readonly assetId: number, readonly brokerId: number) {}

  get quantity(): Decimal { return this.pool.quantity; }
  get cost(): Decimal { return this.pool.cost; }
  /** Units of unknown cost are in the pool (SPEC rule 4): WAC and gains are unknown until it empties. */
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
  /** Per-asset value of the day (only when allocation history was asked for). */
  assetValues?: Map<number, Decimal>;
}

export interface Totals {
  deposited: Decimal;
  withdrawn: Decimal;
  income: Decimal;
  fees: Decimal;
  taxes: Decimal;
  realized: Decimal;
}

export interface ReplayResult {
  start: string;
  end: string;
  days: DayState[];
  positions: Position[];
  /** broker → currency → share-weighted amount at the end date. */
  cash: Map<number, Map<string, Decimal>>;
  transit: TransitItem[];
  total: Totals;
  period: Totals;
  /** broker → period income and fees/taxes not tied to an asset. */
  unallocated: Map<number, { income: Decimal; feesTaxes: Decimal }>;
  /** broker → cumulative external flows of that broker (internal transfers count at broker level). */
  brokerBaseline: Map<number, Decimal>;
  /** asset → transactions adding quantity without a known cost (SPEC rule 4). */
  missingCostBasis: Map<number, number>;
  /** asset → date of its first BUY or SELL in scope. */
  firstTrade: Map<number, string>;
  incompleteDates: string[];
  prices: PriceBook;
  fx: FxTable;
}

function emptyTotals(): Totals {
  return { deposited: ZERO, withdrawn: ZERO, income: ZERO, fees: ZERO, taxes: ZERO, realized: ZERO };
}

export function replay(input: ReportInput): ReplayResult {
  const scale = new Map(input.brokers.map((b) => [b.id, new Decimal(b.scale)]));
  const prices = new PriceBook(input.assets, input.quotes, input.splits, input.transactions);
  const fx = new FxTable(input.target, input.fxPairs, input.fxSeries);
  const assetCurrency = new Map(input.assets.map((a) => [a.id, a.currency]));
  const txs = input.transactions;
  const first = txs[0]?.date ?? input.start ?? input.end;
  const start = input.start ?? first;
  const end = input.end;

  const positions = new Map<string, Position>();
  const cash = new Map<number, Map<string, Decimal>>();
  const cashByCurrency = new Map<string, Decimal>();
  const assetQty = new Map<number, Decimal>();
  const assetCost = new Map<number, Decimal>();
  const transit = new Map<number, TransitItem>();
  const brokerBaseline = new Map<number, Decimal>();
  const missingCostBasis = new Map<number, number>();
  const unallocated = new Map<number, { income: Decimal; feesTaxes: Decimal }>();
  const unallocatedOf = (brokerId: number) => unallocated.get(brokerId) ?? unallocated.set(brokerId, { income: ZERO, feesTaxes: ZERO }).get(brokerId)!;
  const firstTrade = new Map<number, string>();
  const total = emptyTotals();
  const period = emptyTotals();
  let openCost = ZERO;
  let baseline = ZERO;
  const days: DayState[] = [];
  const incompleteDates: string[] = [];

  const positionOf = (assetId: number, brokerId: number): Position => {
    const key = `${assetId}:${brokerId}`;
    let p = positions.get(key);
    if (!p) {
      p = new Position(assetId, brokerId);
      positions.set(key, p);
    }
    return p;
  };
  const bump = (m: Map<number, Decimal>, k: number, d: Decimal) => m.set(k, (m.get(k) ?? ZERO).plus(d));

  /** Value of `qty` units of an asset on a movement date (market, else the row's own override; else zero). */
  const movementValue = (t: LedgerTx, qty: Decimal): Decimal => {
    const obs = prices.at(t.assetId!, t.date);
    if (obs) return fx.convert(qty.times(obs.price), obs.currency, t.date) ?? ZERO;
    if (t.costBasisOverride !== null) {
      return fx.convert(qty.times(t.costBasisOverride), t.costBasisCurrency ?? assetCurrency.get(t.assetId!) ?? input.target, t.date) ?? ZERO;
    }
    return ZERO;
  };

  /** Moves the open cost totals by the change of a pool's cost; the pool's first day follows its quantity. */
  const track = (p: Position, costBefore: Decimal, heldBefore: boolean, date: string) => {
    const delta = p.pool.cost.minus(costBefore);
    if (!delta.isZero()) {
      openCost = openCost.plus(delta);
      bump(assetCost, p.assetId, delta);
    }
    const held = p.pool.quantity.gt(0);
    if (!held) p.openedOn = null;
    else if (!heldBefore) p.openedOn = date;
  };
  /** Adds units (cost null: unknown); returns the P&L realised by covering a short. */
  const addUnits = (p: Position, qty: Decimal, cost: Decimal | null, date: string): Decimal => {
    if (date >= start) p.everHeldInPeriod = true;
    const before = p.pool.cost;
    const heldBefore = p.pool.quantity.gt(0);
    const realized = p.pool.add(qty, cost);
    bump(assetQty, p.assetId, qty);
    track(p, before, heldBefore, date);
    return realized;
  };
  /** Removes units at the pool's average cost (`proceeds`: the outflow's, for the realised P&L). */
  const removeUnits = (p: Position, qty: Decimal, proceeds: Decimal | null, date: string) => {
    const before = p.pool.cost;
    const out = p.pool.remove(qty, proceeds);
    bump(assetQty, p.assetId, qty.neg());
    track(p, before, true, date);
    return out;
  };
  const addFlow = (brokerId: number, value: Decimal, inPeriod: boolean, state: { flow: Decimal }) => {
    baseline = baseline.plus(value);
    bump(brokerBaseline, brokerId, value);
    if (inPeriod) state.flow = state.flow.plus(value);
  };

  const realize = (p: Position, gain: Decimal, inPeriod: boolean) => {
    p.realized = p.realized.plus(gain);
    if (inPeriod) p.periodRealized = p.periodRealized.plus(gain);
    total.realized = total.realized.plus(gain);
    if (inPeriod) period.realized = period.realized.plus(gain);
  };

  const apply = (t: LedgerTx, units: Decimal, state: { flow: Decimal }) => {
    const s = scale.get(t.brokerId)!;
    const inPeriod = t.date > start;
    const partnerInScope = t.partnerBrokerId !== null && scale.has(t.partnerBrokerId);
    const partnerScale = partnerInScope ? scale.get(t.partnerBrokerId!)! : ZERO;
    let cashTarget: Decimal | null = null;
    if (t.amount !== null && t.currency !== null) {
      const a = new Decimal(t.amount).times(s);
      const byCcy = cash.get(t.brokerId) ?? cash.set(t.brokerId, new Map()).get(t.brokerId)!;
      byCcy.set(t.currency, (byCcy.get(t.currency) ?? ZERO).plus(a));
      cashByCurrency.set(t.currency, (cashByCurrency.get(t.currency) ?? ZERO).plus(a));
      cashTarget = fx.convert(a, t.currency, t.date);
    }
    const q = units.times(s);
    const sumBoth = (key: keyof Totals, v: Decimal) => {
      total[key] = total[key].plus(v);
      if (inPeriod) period[key] = period[key].plus(v);
    };
    if ((t.type === "BUY" || t.type === "SELL") && t.assetId !== null && !firstTrade.has(t.assetId)) firstTrade.set(t.assetId, t.date);

    switch (t.type) {
      case "DEPOSIT":
      case "WITHDRAWAL": {
        const v = cashTarget ?? ZERO;
        addFlow(t.brokerId, v, inPeriod, state);
        if (v.gt(0)) sumBoth("deposited", v);
        else sumBoth("withdrawn", v.neg());
        break;
      }
      case "DIVIDEND":
      case "INTEREST": {
        const v = cashTarget ?? ZERO;
        sumBoth("income", v);
        if (t.assetId !== null && inPeriod) { const p = positionOf(t.assetId, t.brokerId); p.periodIncome = p.periodIncome.plus(v); }
        else if (inPeriod) { const u = unallocatedOf(t.brokerId); u.income = u.income.plus(v); }
        break;
      }
      case "FEE":
      case "TAX": {
        const v = (cashTarget ?? ZERO).neg();
        sumBoth(t.type === "FEE" ? "fees" : "taxes", v);
        if (t.assetId !== null && inPeriod) { const p = positionOf(t.assetId, t.brokerId); p.periodFeesTaxes = p.periodFeesTaxes.plus(v); }
        else if (inPeriod) { const u = unallocatedOf(t.brokerId); u.feesTaxes = u.feesTaxes.plus(v); }
        break;
      }
      case "BUY": {
        const p = positionOf(t.assetId!, t.brokerId);
        const gain = addUnits(p, q, cashTarget === null ? null : cashTarget.neg(), t.date);
        if (!gain.isZero()) realize(p, gain, inPeriod);
        break;
      }
      case "SELL": {
        const p = positionOf(t.assetId!, t.brokerId);
        realize(p, removeUnits(p, q.neg(), cashTarget ?? ZERO, t.date).realized, inPeriod);
        break;
      }
      case "ADJUSTMENT": {
        const p = positionOf(t.assetId!, t.brokerId);
        if (t.splitLinked) {
          // A split changes the units and keeps the cost.
          const before = p.pool.cost;
          const heldBefore = p.pool.quantity.gt(0);
          p.pool.split(q);
          bump(assetQty, p.assetId, q);
          track(p, before, heldBefore, t.date);
          break;
        }
        if (q.gt(0)) {
          realize(p, addUnits(p, q, inboundCost(t, q), t.date), inPeriod);
          if (t.costBasisOverride === null) missingCostBasis.set(t.assetId!, (missingCostBasis.get(t.assetId!) ?? 0) + 1);
        } else removeUnits(p, q.neg(), null, t.date);
        addFlow(t.brokerId, movementValue(t, q), inPeriod, state);
        break;
      }
      case "TRANSFER": {
        const p = positionOf(t.assetId!, t.brokerId);
        if (q.lt(0)) {
          const removed = removeUnits(p, q.neg(), null, t.date).cost;
          if (!partnerInScope) addFlow(t.brokerId, movementValue(t, q), inPeriod, state);
          else {
            bump(brokerBaseline, t.brokerId, movementValue(t, q));
            if (t.partnerDate !== null && t.partnerDate > t.date) {
              transit.set(t.id, {
                kind: "asset", assetId: t.assetId, currency: null, quantity: q.neg(), cost: removed, fromBroker: t.brokerId,
                toBroker: t.partnerBrokerId!, departed: t.date, arrives: t.partnerDate,
              });
            }
          }
        } else {
          realize(p, addUnits(p, q, inboundCost(t, q), t.date), inPeriod);
          if (t.costBasisOverride === null) missingCostBasis.set(t.assetId!, (missingCostBasis.get(t.assetId!) ?? 0) + 1);
          if (t.relatedId !== null) transit.delete(t.relatedId);
          if (!partnerInScope) addFlow(t.brokerId, movementValue(t, q), inPeriod, state);
          else {
            bump(brokerBaseline, t.brokerId, movementValue(t, q));
            // Different shares of the two brokers: the difference enters (or leaves) the scope here.
            const units = new Decimal(t.quantity);
            if (!s.eq(partnerScale)) {
              const diff = movementValue(t, units.times(s.minus(partnerScale)));
              baseline = baseline.plus(diff);
              if (inPeriod) state.flow = state.flow.plus(diff);
            }
          }
        }
        break;
      }
      case "CASH_TRANSFER":
      case "FX_CONVERSION": {
        const v = cashTarget ?? ZERO;
        if (!partnerInScope) { addFlow(t.brokerId, v, inPeriod, state); break; }
        if (t.type === "CASH_TRANSFER") bump(brokerBaseline, t.brokerId, v);
        const raw = new Decimal(t.amount ?? 0);
        if (raw.lt(0) && t.partnerDate !== null && t.partnerDate > t.date) {
          transit.set(t.id, {
            kind: "cash", assetId: null, currency: t.currency, quantity: raw.neg().times(s), cost: ZERO, fromBroker: t.brokerId,
            toBroker: t.partnerBrokerId!, departed: t.date, arrives: t.partnerDate,
          });
        }
        if (raw.gt(0)) {
          if (t.relatedId !== null) transit.delete(t.relatedId);
          if (t.type === "CASH_TRANSFER" && !s.eq(partnerScale)) {
            const diff = fx.convert(raw.times(s.minus(partnerScale)), t.currency!, t.date) ?? ZERO;
            baseline = baseline.plus(diff);
            if (inPeriod) state.flow = state.flow.plus(diff);
          }
        }
        break;
      }
    }
  };

  /** Cost of inbound units in the target currency: per-unit override × units; null when unknown. */
  const inboundCost = (t: LedgerTx, q: Decimal): Decimal | null => {
    if (t.costBasisOverride === null) return null;
    const ccy = t.costBasisCurrency ?? assetCurrency.get(t.assetId!) ?? input.target;
    return fx.convert(q.times(t.costBasisOverride), ccy, t.date);
  };

  const value = (date: string, state: { flow: Decimal }): DayState => {
    // Positions grouped by currency: one conversion per currency per day. Unrealized gains cover
    // valued positions only, so the cost of the ones left out is subtracted from the total.
    const valueByCurrency = new Map<string, { value: Decimal; assets: number[] }>();
    let incomplete = false;
    let unvaluedCost = ZERO;
    const assetValues = input.flags.allocationHistory ? new Map<number, Decimal>() : undefined;
    const localValues: { assetId: number; local: Decimal; currency: string }[] = [];
    for (const [assetId, qty] of assetQty) {
      if (qty.isZero()) continue;
      const obs = prices.at(assetId, date);
      if (!obs) {
        incomplete = true;
        unvaluedCost = unvaluedCost.plus(assetCost.get(assetId) ?? ZERO);
        continue;
      }
      const local = qty.times(obs.price);
      let g = valueByCurrency.get(obs.currency);
      if (!g) valueByCurrency.set(obs.currency, g = { value: ZERO, assets: [] });
      g.value = g.value.plus(local);
      g.assets.push(assetId);
      if (assetValues) localValues.push({ assetId, local, currency: obs.currency });
    }
    let marketValue = ZERO;
    for (const [ccy, g] of valueByCurrency) {
      const r = fx.rate(ccy, date);
      if (r === null) {
        for (const id of g.assets) unvaluedCost = unvaluedCost.plus(assetCost.get(id) ?? ZERO);
        continue;
      }
      marketValue = marketValue.plus(g.value.times(r));
    }
    const valuedCost = openCost.minus(unvaluedCost);
    if (assetValues) {
      for (const v of localValues) {
        const r = fx.rate(v.currency, date, false);
        if (r !== null) assetValues.set(v.assetId, (assetValues.get(v.assetId) ?? ZERO).plus(v.local.times(r)));
      }
    }
    let inTransitMarketValue = ZERO;
    let inTransitBook = ZERO;
    let transitValuedCost = ZERO;
    let transitAssetValue = ZERO;
    for (const item of transit.values()) {
      if (item.kind === "cash") {
        const v = fx.convert(item.quantity, item.currency!, date) ?? ZERO;
        inTransitMarketValue = inTransitMarketValue.plus(v);
        inTransitBook = inTransitBook.plus(v);
        continue;
      }
      inTransitBook = inTransitBook.plus(item.cost);
      const obs = prices.at(item.assetId!, date);
      if (!obs) { incomplete = true; continue; }
      const v = fx.convert(item.quantity.times(obs.price), obs.currency, date);
      if (v === null) continue;
      inTransitMarketValue = inTransitMarketValue.plus(v);
      transitAssetValue = transitAssetValue.plus(v);
      transitValuedCost = transitValuedCost.plus(item.cost);
      if (assetValues) assetValues.set(item.assetId!, (assetValues.get(item.assetId!) ?? ZERO).plus(v));
    }
    let cashValue = ZERO;
    for (const [ccy, amount] of cashByCurrency) {
      if (amount.isZero()) continue;
      cashValue = cashValue.plus(fx.convert(amount, ccy, date) ?? ZERO);
    }
    if (incomplete) incompleteDates.push(date);
    return {
      date, cash: cashValue, marketValue, inTransitMarketValue, nav: cashValue.plus(marketValue).plus(inTransitMarketValue),
      openCost, inTransitBook, unrealized: marketValue.plus(transitAssetValue).minus(valuedCost).minus(transitValuedCost),
      capitalBaseline: baseline, flow: state.flow, incomplete, assetValues,
    };
  };

  let i = 0;
  const from = start < first ? start : first;
  for (const date of eachDay(from, end)) {
    const state = { flow: ZERO };
    let j = i;
    while (j < txs.length && txs[j]!.date === date) j++;
    if (j > i) {
      // Same-day additions before reductions (the WAC rule), otherwise by id.
      const today = txs.slice(i, j).map((t) => ({ t, units: new Decimal(t.quantity) }));
      if (today.length > 1) today.sort((a, b) => Number(b.units.gt(0)) - Number(a.units.gt(0)) || a.t.id - b.t.id);
      for (const { t, units } of today) if (scale.has(t.brokerId)) apply(t, units, state);
      i = j;
    }
    if (date === start) {
      for (const p of positions.values()) {
        p.startQuantity = p.quantity;
        p.startCost = p.cost;
        if (!p.quantity.isZero()) p.everHeldInPeriod = true;
      }
    }
    if (date >= start) {
      days.push(value(date, state));
    }
  }

  return {
    start, end, days, positions: [...positions.values()], cash, transit: [...transit.values()], total, period, brokerBaseline, unallocated,
    missingCostBasis, firstTrade, incompleteDates, prices, fx,
  };
}
