/**
 * The FIFO lots analysis of one asset across the scope's brokers (rules
 * and section shapes in docs/portfolio-lots.md). Pure: runs in the worker pool on plain input.
 */
import { eachDay, indexOnOrBefore } from "../dates/calendar.ts";
import { Decimal, toDecimalString } from "../money/decimal.ts";
import { lotsConverter } from "./lots-fx.ts";
import { LotLedger } from "./lots-ledger.ts";
import { type Lot, openQuantity } from "./lots-model.ts";
import { lotsDataQuality } from "./lots-quality.ts";
import { lotRow, ret, snapshot, str } from "./lots-rows.ts";
import type { LotAnalysisType, LotsInput, LotsResult, LotTx } from "./lots-types.ts";
import { WacBook } from "./lots-wac.ts";

export { LOT_ANALYSES } from "./lots-types.ts";
export type { LotAnalysisType, LotsInput, LotsResult } from "./lots-types.ts";

interface DayPrice {
  asset: Decimal | null;
  date: string | null;
  target: Decimal | null;
}

export function analyseLots(input: LotsInput): LotsResult {
  const { period } = input;
  const wants = (a: LotAnalysisType) => input.analyses.includes(a);
  const conv = lotsConverter(input.targetCurrency, input.fx);
  const qbq = new Decimal(input.asset.quoteBaseQuantity);
  const quoteDates = input.prices.map((p) => p.date);
  const prices = new Map<string, DayPrice>();
  const priceAt = (date: string): DayPrice => {
    let p = prices.get(date);
    if (!p) {
      const i = indexOnOrBefore(quoteDates, date);
      const asset = i < 0 ? null : new Decimal(input.prices[i]!.close).div(qbq.gt(0) ? qbq : 1);
      p = { asset, date: i < 0 ? null : quoteDates[i]!, target: asset === null ? null : conv.toTarget(asset, input.asset.currency, date) };
      prices.set(date, p);
    }
    return p;
  };
  const wac = new WacBook();
  const txs = input.transactions.filter((t) => t.date <= period.end);
  const ledger = new LotLedger({
    assetCurrency: input.asset.currency, conv, priceOn: (d) => priceAt(d).target, wac,
    scales: new Map(input.brokers.map((b) => [b.id, new Decimal(b.scale)])), splitEventIds: new Set(input.splitEventIds),
    txById: new Map(txs.map((t) => [t.id, t])),
  });
  const selected = input.selectedLotIds ? new Set(input.selectedLotIds) : null;
  const included = (lot: Lot) => selected === null || selected.has(lot.id);

  const byDay = new Map<string, LotTx[]>();
  for (const t of txs) {
    if (t.date < period.start) ledger.apply(t);
    else {
      const list = byDay.get(t.date);
      if (list) list.push(t); else byDay.set(t.date, [t]);
    }
  }
  const valueHistory: NonNullable<LotsResult["value_history"]> = [];
  const returnHistory: NonNullable<LotsResult["return_history"]> = [];
  const performance: NonNullable<LotsResult["performance_history"]> = [];
  const priceHistory: NonNullable<LotsResult["price_history"]> = [];
  const brokerWac: NonNullable<LotsResult["broker_wac_history"]> = [];
  const totalWac: NonNullable<LotsResult["cumulative_wac_history"]> = [];
  const needSnapshot = wants("VALUE_HISTORY") || wants("RETURN_HISTORY") || wants("PERFORMANCE_HISTORY");
  let growth = new Decimal(1);
  let prevValue: Decimal | null = null;
  let cumFlow = new Decimal(0);
  let flowIndex = 0;
  const flows = ledger.flows;
  for (const day of eachDay(period.start, period.end)) {
    for (const t of byDay.get(day) ?? []) ledger.apply(t);
    // Valued every day of the period, so the conversion gaps (and the status) do not depend on the sections asked.
    const price = priceAt(day);
    if (wants("PRICE_HISTORY")) {
      priceHistory.push({ date: day, price: str(price.target), price_date: price.date, source: price.asset === null ? "MISSING" : "MARKET_PRICE",
        unit_price_asset_currency: str(price.asset) });
    }
    if (wants("BROKER_WAC_HISTORY")) {
      for (const [brokerId, pool] of [...wac.brokers].sort(([a], [b]) => a - b)) {
        brokerWac.push({ date: day, broker_id: brokerId, quantity: toDecimalString(pool.quantity),
          total_cost: pool.unknown ? null : toDecimalString(pool.cost), wac_per_unit: str(pool.average()) });
      }
    }
    if (wants("CUMULATIVE_WAC_HISTORY")) {
      totalWac.push({ date: day, quantity: toDecimalString(wac.total.quantity), total_cost: wac.total.unknown ? null : toDecimalString(wac.total.cost),
        wac_per_unit: str(wac.total.average()) });
    }
    let dayFlow = new Decimal(0);
    while (flowIndex < flows.length && flows[flowIndex]!.date <= day) {
      const f = flows[flowIndex++]!;
      if (f.date === day && (selected === null || selected.has(f.lotId))) dayFlow = dayFlow.plus(f.amount);
    }
    if (!needSnapshot) continue;
    const s = snapshot(ledger.lots.filter(included), price.target);
    const unrealized = s.marketValue === null || s.costBasis === null ? null : s.marketValue.minus(s.costBasis);
    valueHistory.push({ date: day, quantity: toDecimalString(s.quantity), in_transit_quantity: toDecimalString(s.inTransit),
      market_value: str(s.marketValue), cost_basis: str(s.costBasis), unrealized_pnl: str(unrealized), value_source: s.source });
    const totalPnl = s.realized === null || unrealized === null ? null : s.realized.plus(unrealized).plus(s.income).minus(s.feesTaxes);
    returnHistory.push({ date: day, invested: str(s.invested), realized_pnl: str(s.realized), unrealized_pnl: str(unrealized),
      income: toDecimalString(s.income), fees_taxes: toDecimalString(s.feesTaxes), total_pnl: str(totalPnl),
      total_return: ret(totalPnl === null || s.invested === null || s.invested.lte(0) ? null : totalPnl.div(s.invested)) });
    // TWRR of the lots as a small portfolio: flows at the end of the day, HPR 0 after a non-positive value.
    const value = s.marketValue ?? new Decimal(0);
    if (prevValue !== null && prevValue.gt(0)) growth = growth.times(value.minus(dayFlow).div(prevValue));
    cumFlow = cumFlow.plus(dayFlow);
    performance.push({ date: day, value: toDecimalString(value), net_flow: toDecimalString(dayFlow), cumulative_net_flow: toDecimalString(cumFlow),
      twrr: ret(growth.minus(1))! });
    prevValue = value;
  }

  const endPrice = priceAt(period.end);
  const ref = { price: endPrice.target, source: endPrice.target === null ? "unavailable" as const : endPrice.date === period.end ? "exact" as const : "fallback" as const };
  const inPeriod = (lot: Lot) => included(lot) && (lot.closingDate === null || lot.closingDate >= period.start);
  const lots = ledger.lots.filter(inPeriod);
  const shown = new Set(lots.map((l) => l.id));
  const failed = ledger.findings.failures.length > 0;
  const fxGaps = conv.gaps();
  const degraded = fxGaps.size > 0 || ledger.findings.unknownCost.length > 0 || ledger.findings.orphanTransfers.length > 0;
  const within = (d: string) => d >= period.start && d <= period.end;
  const section = <T>(a: LotAnalysisType, build: () => T): T | null => (wants(a) ? build() : null);

  return {
    asset_id: input.asset.id,
    target_currency: input.targetCurrency,
    quote_base_quantity: input.asset.quoteBaseQuantity,
    calculation_status: failed ? "FAILED" : degraded ? "DEGRADED" : "COMPLETE",
    calculation_metadata: {
      broker_ids: input.brokers.map((b) => b.id), selected_lot_ids: input.selectedLotIds, requested_analyses: input.analyses,
      requested_date_from: period.requestedStart, requested_date_to: period.requestedEnd, computed_date_from: period.start,
      computed_date_to: period.end, generated_at: input.generatedAt,
    },
    data_quality: lotsDataQuality({
      asset: input.asset, findings: ledger.findings, fx: input.fx, fxGaps, orphan: ledger.orphan, target: input.targetCurrency,
      lotsAtCost: ledger.lots.filter((l) => !openQuantity(l).isZero() && ref.price === null).length,
    }),
    lots: section("LOT_SUMMARY", () => lots.map((l) => lotRow(l, input.asset.id, input.targetCurrency, ref, period.end))),
    gantt_segments: section("GANTT_TOPOLOGY", () => lots.flatMap((lot) => lot.custodyLog.flatMap((entry, i) => {
      const next = lot.custodyLog[i + 1];
      return entry.custody.map((c) => ({ lot_id: lot.id, broker_id: c.broker_id, custody_type: c.custody_type, quantity: c.quantity,
        start_date: entry.date, end_date: next ? next.date : null }));
    }))),
    custody_history: section("CUSTODY_HISTORY", () => lots
      .flatMap((lot) => lot.custodyLog.map((e) => ({ date: e.date, lot_id: lot.id, custody: e.custody })))
      .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.lot_id - b.lot_id))),
    lot_events: section("EVENT_HISTORY", () => ledger.events.filter((e) => shown.has(e.lot_id) && within(e.date))),
    value_history: section("VALUE_HISTORY", () => valueHistory),
    return_history: section("RETURN_HISTORY", () => returnHistory),
    price_history: section("PRICE_HISTORY", () => priceHistory),
    broker_wac_history: section("BROKER_WAC_HISTORY", () => brokerWac),
    cumulative_wac_history: section("CUMULATIVE_WAC_HISTORY", () => totalWac),
    performance_history: section("PERFORMANCE_HISTORY", () => performance),
    income_events: section("INCOME_EVENTS", () => ledger.incomes.filter((r) => within(r.date)).map((r) => ({
      date: r.date, transaction_id: r.txId, type: r.type, broker_id: r.brokerId, amount: str(r.amount), original_amount: r.original,
      orphan: r.amount !== null && r.allocations.length === 0,
      allocations: r.allocations.map((a) => ({ lot_id: a.lotId, amount: toDecimalString(a.amount) })),
    }))),
    economic_allocation_groups: null,
    asset_orphan_income: toDecimalString(ledger.orphan.income),
    asset_orphan_fees: toDecimalString(ledger.orphan.fees),
    asset_orphan_taxes: toDecimalString(ledger.orphan.taxes),
  };
}
