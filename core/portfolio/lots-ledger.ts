import { Decimal, toDecimalString } from "../money/decimal.ts";
import { custodyOf, type IncomeRecord, type LedgerContext, type LedgerFindings, type Lot, type LotFlow, openQuantity } from "./lots-model.ts";
import type { LotEventRow, LotTx } from "./lots-types.ts";

const ZERO = new Decimal(0);
const str = (d: Decimal | null): string | null => (d === null ? null : toDecimalString(d));
/** `d > 0` without the comparison's allocation (a hot test of the FIFO scan). */
const positive = (d: Decimal): boolean => !d.isZero() && !d.isNeg();

/**
 * The event-sourced FIFO lots of one asset across the scope's brokers (rules in
 * docs/portfolio-lots.md). Quantities and cash are share-weighted per broker.
 */
export class LotLedger {
  readonly events: LotEventRow[] = [];
  readonly findings: LedgerFindings = { failures: [], orphanTransfers: [], unknownCost: [] };
  readonly flows: LotFlow[] = [];
  readonly incomes: IncomeRecord[] = [];
  readonly lots: Lot[] = [];
  readonly orphan = { fees: ZERO, income: ZERO, taxes: ZERO };
  private readonly done = new Set<number>();
  /**
   * The lots opened, in opening order, without those emptied before the last take: what every FIFO
   * take, split, arrival and allocation scans (a lot without fragments takes part in none), instead
   * of every lot ever opened. An emptied lot gets a fragment again only from the departure that
   * emptied it (its units go in transit), right after that take, so a take drops the lots emptied
   * before it.
   */
  private live: Lot[] = [];
  private emptied = false;

  constructor(private readonly ctx: LedgerContext) {}

  apply(tx: LotTx): void {
    const scale = this.ctx.scales.get(tx.brokerId) ?? new Decimal(1);
    const q = new Decimal(tx.quantity).times(scale);
    const cash = tx.amount !== null && tx.currency !== null
      ? this.ctx.conv.toTarget(new Decimal(tx.amount).times(scale), tx.currency, tx.date) : null;
    switch (tx.type) {
      case "BUY": if (q.gt(0)) this.buy(tx, q, cash === null ? null : cash.neg()); break;
      case "SELL": if (q.lt(0)) this.sell(tx, q.neg(), cash); break;
      case "ADJUSTMENT":
        if (tx.assetEventId !== null && this.ctx.splitEventIds.has(tx.assetEventId)) this.split(tx, q);
        else if (q.gt(0)) this.inbound(tx, q, "ADJUSTMENT_IN");
        else if (q.lt(0)) this.outbound(tx, q.neg(), "ADJUSTMENT_OUT");
        break;
      case "TRANSFER": this.transfer(tx, q); break;
      case "DIVIDEND": case "INTEREST": case "FEE": case "TAX":
        if (tx.amount !== null && tx.currency !== null && !new Decimal(tx.amount).times(scale).isZero()) this.allocate(tx, scale, cash);
        break;
    }
  }

  private buy(tx: LotTx, q: Decimal, cost: Decimal | null): void {
    const unit = cost === null ? null : cost.div(q);
    let rest = q;
    for (const [lot, m] of this.take(tx.brokerId, "SHORT", q)) {
      const cover = unit === null ? null : unit.times(m);
      this.close(lot, tx, m, lot.unitCost === null ? null : lot.unitCost.times(m), cover, "BUY", unit);
      this.flow(tx.date, lot.id, cover ?? ZERO);
      rest = rest.minus(m);
    }
    this.ctx.wac.inflow(tx.brokerId, q, cost);
    if (rest.gt(0)) {
      this.open(tx, "LONG", rest, unit, "BUY");
      this.flow(tx.date, tx.id, unit === null ? this.marketValue(tx.date, rest) : unit.times(rest));
    }
  }

  private sell(tx: LotTx, n: Decimal, proceeds: Decimal | null): void {
    const unit = proceeds === null ? null : proceeds.div(n);
    let rest = n;
    for (const [lot, m] of this.take(tx.brokerId, "LONG", n)) {
      const share = unit === null ? null : unit.times(m);
      this.close(lot, tx, m, share, lot.unitCost === null ? null : lot.unitCost.times(m), "SELL", unit);
      this.flow(tx.date, lot.id, (share ?? ZERO).neg());
      rest = rest.minus(m);
    }
    this.ctx.wac.outflow(tx.brokerId, n);
    if (rest.gt(0)) {
      this.open(tx, "SHORT", rest, unit, "SELL");
      this.flow(tx.date, tx.id, unit === null ? ZERO : unit.times(rest).neg());
    }
  }

  /** A positive non-split ADJUSTMENT or an inbound TRANSFER leg without an in-scope partner. */
  private inbound(tx: LotTx, q: Decimal, kind: "ADJUSTMENT_IN" | "TRANSFER_ARRIVE"): void {
    const cost = this.overrideCost(tx, q);
    if (tx.costBasisOverride === null) this.findings.unknownCost.push({ date: tx.date, txId: tx.id });
    this.ctx.wac.inflow(tx.brokerId, q, cost);
    this.open(tx, "LONG", q, cost === null ? null : cost.div(q), kind);
    this.flow(tx.date, tx.id, cost ?? this.marketValue(tx.date, q));
  }

  /** A negative non-split ADJUSTMENT or an outbound TRANSFER leg without an in-scope partner. */
  private outbound(tx: LotTx, n: Decimal, kind: "ADJUSTMENT_OUT" | "TRANSFER_DEPART"): void {
    const price = this.ctx.priceOn(tx.date);
    let rest = n;
    for (const [lot, m] of this.take(tx.brokerId, "LONG", n)) {
      const cost = lot.unitCost === null ? null : lot.unitCost.times(m);
      // Units leave at the day's value, or at cost when the asset has no price (no P&L invented).
      const proceeds = price === null ? cost : price.times(m);
      this.close(lot, tx, m, proceeds, cost, kind, proceeds === null ? null : proceeds.div(m));
      this.flow(tx.date, lot.id, (proceeds ?? ZERO).neg());
      rest = rest.minus(m);
    }
    this.ctx.wac.outflow(tx.brokerId, n);
    if (rest.gt(0)) {
      const code = kind === "ADJUSTMENT_OUT" ? "SHORT_ADJUSTMENT_NOT_SUPPORTED" : "SHORT_TRANSFER_NOT_SUPPORTED";
      this.findings.failures.push({ code, date: tx.date, txId: tx.id });
    }
  }

  /** Split-linked ADJUSTMENT: the broker's long fragments scale by (held + q) / held, cost unchanged. */
  private split(tx: LotTx, q: Decimal): void {
    const held = this.held(tx.brokerId, "LONG");
    if (held.lte(0) || q.isZero()) return;
    const after = held.plus(q);
    this.ctx.wac.split(tx.brokerId, q);
    for (const lot of this.live) {
      const frags = lot.fragments.filter((f) => f.brokerId === tx.brokerId && lot.direction === "LONG");
      if (frags.length === 0) continue;
      let delta = ZERO;
      for (const f of frags) {
        const scaled = f.quantity.times(after).div(held);
        delta = delta.plus(scaled.minus(f.quantity));
        f.quantity = scaled;
      }
      if (!lot.splits.has(tx.assetEventId!)) {
        lot.splits.add(tx.assetEventId!);
        lot.originalQuantity = lot.originalQuantity.times(after).div(held);
        lot.realizedQuantity = lot.realizedQuantity.times(after).div(held);
        if (lot.unitCost !== null) lot.unitCost = lot.unitCost.times(held).div(after);
      }
      this.event(tx, lot, "SPLIT", delta, { ratio: after.div(held) });
      this.logCustody(lot, tx.date);
    }
  }

  private transfer(tx: LotTx, q: Decimal): void {
    if (this.done.has(tx.id) || q.isZero()) return;
    const partner = tx.relatedTransactionId === null ? undefined : this.ctx.txById.get(tx.relatedTransactionId);
    if (!partner) {
      if (q.gt(0)) {
        this.findings.orphanTransfers.push({ date: tx.date, txId: tx.id });
        this.inbound(tx, q, "TRANSFER_ARRIVE");
      } else this.outbound(tx, q.neg(), "TRANSFER_DEPART");
      return;
    }
    const [out, inn] = q.lt(0) ? [tx, partner] : [partner, tx];
    // An incoming leg dated before its outgoing leg: the units move directly, on the incoming date.
    if (!this.done.has(out.id)) this.depart(tx === inn ? { ...out, date: inn.date } : out, inn);
    if (tx === inn) this.arrive(out, inn);
  }

  private depart(out: LotTx, inn: LotTx): void {
    this.done.add(out.id);
    const n = new Decimal(out.quantity).neg().times(this.ctx.scales.get(out.brokerId) ?? 1);
    let rest = n;
    for (const [lot, m] of this.take(out.brokerId, "LONG", n)) {
      lot.fragments.push({ brokerId: null, quantity: m, transitKey: out.id });
      this.event(out, lot, "TRANSFER_DEPART", m, { from: out.brokerId, to: inn.brokerId });
      this.logCustody(lot, out.date);
      rest = rest.minus(m);
    }
    this.ctx.wac.depart(out.id, out.brokerId, n);
    if (rest.gt(0)) this.findings.failures.push({ code: "SHORT_TRANSFER_NOT_SUPPORTED", date: out.date, txId: out.id });
  }

  /** Lots keep their identity and cost across an in-scope transfer; the incoming override only feeds the WAC. */
  private arrive(out: LotTx, inn: LotTx): void {
    this.done.add(inn.id);
    for (const lot of this.live) {
      const moving = lot.fragments.filter((f) => f.transitKey === out.id);
      if (moving.length === 0) continue;
      const m = moving.reduce((s, f) => s.plus(f.quantity), ZERO);
      lot.fragments = lot.fragments.filter((f) => f.transitKey !== out.id);
      this.addFragment(lot, inn.brokerId, m);
      lot.transferred = true;
      this.event(inn, lot, "TRANSFER_ARRIVE", m, { from: out.brokerId, to: inn.brokerId });
      this.logCustody(lot, inn.date);
    }
    const q = new Decimal(inn.quantity).times(this.ctx.scales.get(inn.brokerId) ?? 1);
    this.ctx.wac.arrive(out.id, inn.brokerId, q, inn.costBasisOverride === null ? null : this.overrideCost(inn, q));
  }

  /** DIVIDEND/INTEREST/FEE/TAX: pro rata to the long lots held at the row's broker, else anywhere, else an orphan. */
  private allocate(tx: LotTx, scale: Decimal, amount: Decimal | null): void {
    const record: IncomeRecord = {
      allocations: [], amount, brokerId: tx.brokerId, date: tx.date,
      original: { amount: toDecimalString(new Decimal(tx.amount!).times(scale)), code: tx.currency! }, txId: tx.id,
      type: tx.type as IncomeRecord["type"],
    };
    this.incomes.push(record);
    if (amount === null) return;
    const weigh = (atBroker: boolean) => this.live
      .filter((l) => l.direction === "LONG")
      .map((l) => ({ lot: l, w: l.fragments.filter((f) => !atBroker || f.brokerId === tx.brokerId).reduce((s, f) => s.plus(f.quantity), ZERO) }))
      .filter((x) => x.w.gt(0));
    let eligible = weigh(true);
    if (eligible.length === 0) eligible = weigh(false);
    if (eligible.length === 0) {
      const key = tx.type === "FEE" ? "fees" : tx.type === "TAX" ? "taxes" : "income";
      this.orphan[key] = this.orphan[key].plus(key === "income" ? amount : amount.neg());
      return;
    }
    const total = eligible.reduce((s, x) => s.plus(x.w), ZERO);
    let left = amount;
    eligible.forEach((x, i) => {
      // The last lot takes the remainder, so the shares add up to the amount exactly.
      const share = i === eligible.length - 1 ? left : amount.times(x.w).div(total);
      left = left.minus(share);
      if (tx.type === "FEE") x.lot.fees = x.lot.fees.minus(share);
      else if (tx.type === "TAX") x.lot.taxes = x.lot.taxes.minus(share);
      else x.lot.income = x.lot.income.plus(share);
      record.allocations.push({ amount: share, lotId: x.lot.id });
      this.flow(tx.date, x.lot.id, share.neg());
    });
  }

  /** The override × quantity in the target currency; null without override or rate. */
  private overrideCost(tx: LotTx, q: Decimal): Decimal | null {
    if (tx.costBasisOverride === null) return null;
    return this.ctx.conv.toTarget(new Decimal(tx.costBasisOverride).times(q), tx.costBasisCurrency ?? this.ctx.assetCurrency, tx.date);
  }

  private marketValue(date: string, q: Decimal): Decimal {
    const p = this.ctx.priceOn(date);
    return p === null ? ZERO : p.times(q);
  }

  private open(tx: LotTx, direction: "LONG" | "SHORT", q: Decimal, unit: Decimal | null, kind: LotEventRow["kind"]): void {
    const lot: Lot = {
      closingDate: null, closures: [], custodyLog: [], direction, fees: ZERO, fragments: [{ brokerId: tx.brokerId, quantity: q, transitKey: null }],
      id: tx.id, income: ZERO, openingBrokerId: tx.brokerId, openingDate: tx.date, originalQuantity: q, realizedQuantity: ZERO,
      splits: new Set(), taxes: ZERO, transferred: false, unitCost: unit,
    };
    this.lots.push(lot);
    this.live.push(lot);
    this.event(tx, lot, kind, q, { unit });
    this.logCustody(lot, tx.date);
  }

  private close(lot: Lot, tx: LotTx, m: Decimal, proceeds: Decimal | null, cost: Decimal | null, kind: LotEventRow["kind"], unit: Decimal | null): void {
    lot.closures.push({ brokerId: tx.brokerId, cost, date: tx.date, proceeds, quantity: m });
    lot.realizedQuantity = lot.realizedQuantity.plus(m);
    if (openQuantity(lot).isZero()) lot.closingDate = tx.date;
    this.ctx.onClose?.({ kind, lot, quantity: m, tx });
    if (this.ctx.trail === false) return;
    const pnl = proceeds === null || cost === null ? null : proceeds.minus(cost);
    this.event(tx, lot, kind, m, { pnl, unit });
    this.logCustody(lot, tx.date);
  }

  /** FIFO: takes up to `n` units of `direction` lots at the broker, oldest lot first. */
  private take(brokerId: number, direction: "LONG" | "SHORT", n: Decimal): [Lot, Decimal][] {
    const out: [Lot, Decimal][] = [];
    let rest = n;
    if (this.emptied) {
      this.live = this.live.filter((l) => l.fragments.length > 0);
      this.emptied = false;
    }
    for (const lot of this.live) {
      if (!positive(rest)) break;
      if (lot.direction !== direction) continue;
      for (const f of lot.fragments) {
        if (f.brokerId !== brokerId || !positive(rest)) continue;
        const m = Decimal.min(f.quantity, rest);
        f.quantity = f.quantity.minus(m);
        rest = rest.minus(m);
        out.push([lot, m]);
      }
      if (lot.fragments.every((f) => positive(f.quantity))) continue;
      lot.fragments = lot.fragments.filter((f) => positive(f.quantity));
      this.emptied ||= lot.fragments.length === 0;
    }
    return out;
  }

  private held(brokerId: number, direction: "LONG" | "SHORT"): Decimal {
    return this.live.filter((l) => l.direction === direction)
      .flatMap((l) => l.fragments).filter((f) => f.brokerId === brokerId).reduce((s, f) => s.plus(f.quantity), ZERO);
  }

  private addFragment(lot: Lot, brokerId: number, m: Decimal): void {
    const existing = lot.fragments.find((f) => f.brokerId === brokerId);
    if (existing) existing.quantity = existing.quantity.plus(m);
    else lot.fragments.push({ brokerId, quantity: m, transitKey: null });
  }

  private flow(date: string, lotId: number, amount: Decimal): void {
    if (!amount.isZero()) this.flows.push({ amount, date, lotId });
  }

  private logCustody(lot: Lot, date: string): void {
    if (this.ctx.trail === false) return;
    const custody = custodyOf(lot);
    const last = lot.custodyLog.at(-1);
    if (last && last.date === date) last.custody = custody;
    else lot.custodyLog.push({ custody, date });
  }

  private event(tx: LotTx, lot: Lot, kind: LotEventRow["kind"], q: Decimal,
    extra: { from?: number; pnl?: Decimal | null; ratio?: Decimal; to?: number; unit?: Decimal | null }): void {
    if (this.ctx.trail === false) return;
    this.events.push({
      amount: extra.unit === undefined || extra.unit === null ? null : toDecimalString(extra.unit.times(q)),
      broker_id: kind === "TRANSFER_DEPART" && extra.from !== undefined ? extra.from : extra.to ?? tx.brokerId,
      date: tx.date, from_broker_id: extra.from ?? null, kind, lot_id: lot.id, quantity: toDecimalString(q),
      realized_pnl: extra.pnl === undefined ? null : str(extra.pnl), split_ratio: extra.ratio ? toDecimalString(extra.ratio) : null,
      to_broker_id: extra.to ?? null, transaction_id: tx.id, unit_price: extra.unit === undefined ? null : str(extra.unit),
    });
  }
}
