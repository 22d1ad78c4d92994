/**
 * Realised gains per disposal (docs/portfolio-lots.md "Realised gains"): every SELL of the assets
 * given, with the FIFO lots it closed (the lots engine's ledger, `LotLedger`) and, beside them, the
 * weighted-average cost the same sale took out of its broker's pool (the one `CostPool`), both in
 * the target currency, share-weighted. Pure: runs in the worker pool on the lots analysis' inputs.
 */
import { daysBetween, indexOnOrBefore } from "../dates/calendar.ts";
import { Decimal, toDecimalString } from "../money/decimal.ts";
import { lotsConverter } from "./lots-fx.ts";
import { LotLedger } from "./lots-ledger.ts";
import type { Lot } from "./lots-model.ts";
import type { LotsInput } from "./lots-types.ts";
import { WacBook } from "./lots-wac.ts";

export interface DisposalLot {
  lot_id: number;
  acquisition_date: string;
  quantity: string;
  /** FIFO cost of these units; null when the lot's cost is unknown. */
  cost: string | null;
  holding_days: number;
}

export interface Disposal {
  transaction_id: number;
  date: string;
  asset_id: number;
  asset_name: string;
  broker_id: number;
  /** Units of long lots sold (units sold short beyond them are not a disposal). */
  quantity: string;
  proceeds: string | null;
  fifo_cost: string | null;
  fifo_gain: string | null;
  average_cost: string | null;
  average_gain: string | null;
  /** Earliest and latest acquisition date of the lots sold. */
  acquired_from: string;
  acquired_to: string;
  lots: DisposalLot[];
}

export interface AssetDisposals {
  asset_id: number;
  disposals: Disposal[];
  /** Days whose conversion into the target currency failed, per source currency ("USD": [...]). */
  missing_fx: Record<string, string[]>;
}

const str = (d: Decimal | null): string | null => (d === null ? null : toDecimalString(d));

/** The disposals of one asset up to `input.period.end`, oldest first. */
export function disposalsOfAsset(input: LotsInput): AssetDisposals {
  const conv = lotsConverter(input.targetCurrency, input.fx);
  const qbq = new Decimal(input.asset.quoteBaseQuantity);
  const quoteDates = input.prices.map((p) => p.date);
  const priceOn = (date: string): Decimal | null => {
    const i = indexOnOrBefore(quoteDates, date);
    if (i < 0) return null;
    return conv.toTarget(new Decimal(input.prices[i]!.close).div(qbq.gt(0) ? qbq : 1), input.asset.currency, date);
  };
  const wac = new WacBook();
  const txs = input.transactions.filter((t) => t.date <= input.period.end);
  const scales = new Map(input.brokers.map((b) => [b.id, new Decimal(b.scale)]));
  // One replay of the asset: the sale's closed lots arrive as the ledger closes them (no event
  // rows, no custody log), each with its lot at hand.
  let closes: { lot: Lot; q: Decimal }[] = [];
  const ledger = new LotLedger({
    assetCurrency: input.asset.currency, conv, priceOn, wac, scales,
    splitEventIds: new Set(input.splitEventIds), txById: new Map(txs.map((t) => [t.id, t])),
    trail: false, onClose: (c) => { if (c.kind === "SELL") closes.push({ lot: c.lot, q: c.quantity }); },
  });
  const disposals: Disposal[] = [];
  for (const tx of txs) {
    const sold = tx.type === "SELL" ? new Decimal(tx.quantity).times(scales.get(tx.brokerId) ?? 1).neg() : null;
    // The average cost the sale removes, read on a copy of the pool just before it (long units only).
    const pool = sold !== null && sold.gt(0) ? wac.pool(tx.brokerId) : null;
    const average = pool && pool.quantity.gt(0) && !pool.unknown ? pool.clone().remove(Decimal.min(sold!, pool.quantity)).cost : null;
    closes = [];
    ledger.apply(tx);
    if (pool === null || closes.length === 0) continue;
    const lots = closes.map(({ lot, q }) => ({ lot, q, cost: lot.unitCost === null ? null : lot.unitCost.times(q) }));
    const quantity = lots.reduce((s, l) => s.plus(l.q), new Decimal(0));
    // The sale's cash in the target currency; a sale partly beyond the long lots keeps their share of it.
    const scale = scales.get(tx.brokerId) ?? new Decimal(1);
    const cash = tx.amount === null || tx.currency === null ? null : conv.toTarget(new Decimal(tx.amount).times(scale), tx.currency, tx.date);
    const proceeds = cash === null ? null : quantity.eq(sold!) ? cash : cash.times(quantity).div(sold!);
    const fifoCost = lots.some((l) => l.cost === null) ? null : lots.reduce((s, l) => s.plus(l.cost!), new Decimal(0));
    const dates = lots.map((l) => l.lot.openingDate).sort();
    disposals.push({
      transaction_id: tx.id, date: tx.date, asset_id: input.asset.id, asset_name: input.asset.name, broker_id: tx.brokerId,
      quantity: toDecimalString(quantity), proceeds: str(proceeds),
      fifo_cost: str(fifoCost), fifo_gain: proceeds === null || fifoCost === null ? null : str(proceeds.minus(fifoCost)),
      average_cost: str(average), average_gain: proceeds === null || average === null ? null : str(proceeds.minus(average)),
      acquired_from: dates[0]!, acquired_to: dates[dates.length - 1]!,
      lots: lots.map((l) => ({
        lot_id: l.lot.id, acquisition_date: l.lot.openingDate, quantity: toDecimalString(l.q), cost: str(l.cost),
        holding_days: daysBetween(l.lot.openingDate, tx.date),
      })),
    });
  }
  return { asset_id: input.asset.id, disposals, missing_fx: Object.fromEntries(conv.gaps()) };
}

/** Every asset's disposals (one worker task per request). */
export function realizedGains(inputs: LotsInput[]): AssetDisposals[] {
  return inputs.map(disposalsOfAsset);
}
