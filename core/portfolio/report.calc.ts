/**
 * `POST /portfolio/report` assembled from the replay (docs/portfolio.md "Report"): summary,
 * history, allocation history, breakdown, positions contribution and the data-quality report.
 * Returns a plain JSON object (decimals as strings) ready to serialise.
 */
import { daysBetween } from "../dates/calendar.ts";
import { Decimal } from "../money/decimal.ts";
import {
  type AssetRef, type DataQualityIssue, type DataQualityReport, dataQualityStatus, fxIssues, missingCostBasisIssues, missingFxPairs,
  missingPriceIssue, mwrrNotCalculableIssue, mwrrSeriesUnreliableIssue, navIncompleteIssue, type StalePrice, stalePriceIssue,
  transactionImpliedIssues,
} from "./data-quality.calc.ts";
import type { AssetInfo, ReportInput } from "./report-input.ts";
import { type DayState, type Position, replay, type ReplayResult } from "./replay.calc.ts";
import { checkMwrrSeries, type Mwrr, mwrrSeries, mwrrSummary, twrrSeries } from "./returns.calc.ts";

const ZERO = new Decimal(0);
const HUNDRED = new Decimal(100);
/** Decimals written for money and returns. */
const PLACES = 10;
/** SPEC limits: stale after more than 7 days; trade-implied after a 14-day grace. */
export const STALE_DAYS = 7;
export const IMPLIED_GRACE_DAYS = 14;

export function dec(d: Decimal): string {
  const r = d.decimalPlaces() > PLACES ? d.toDecimalPlaces(PLACES) : d;
  return r.isZero() ? "0" : r.toFixed();
}
function num(x: number | null): string | null {
  return x === null || !Number.isFinite(x) ? null : dec(new Decimal(x));
}
function ratio(a: Decimal, b: Decimal, percent = false): string | null {
  if (!b.gt(0)) return null;
  const r = a.div(b);
  return dec(percent ? r.times(HUNDRED) : r);
}

interface Holding {
  position: Position;
  asset: AssetInfo;
  value: Decimal | null;
  unitPrice: Decimal | null;
  source: "MARKET_PRICE" | "LAST_TRADE_PRICE" | "MISSING";
  row: Record<string, unknown>;
}

export function buildReport(input: ReportInput): Record<string, unknown> {
  const r = replay(input);
  const money = (d: Decimal) => ({ code: input.target, amount: dec(d) });
  const assets = new Map(input.assets.map((a) => [a.id, a]));
  const brokerName = new Map(input.brokers.map((b) => [b.id, b.name]));
  const days = r.days;
  const navs = days.map((d) => d.nav);
  const flows = days.map((d) => d.flow);
  const last = days.at(-1);

  const holdings = evaluateHoldings(r, assets, brokerName, input.target);
  const issues: DataQualityIssue[] = [];
  const ref = (id: number): AssetRef => ({ id, name: assets.get(id)?.name ?? String(id) });

  // Rule: MISSING_PRICE on the end date.
  const missingPriceIds = [...new Set(holdings.filter((h) => h.source === "MISSING").map((h) => h.asset.id))];
  issues.push(...missingPriceIssue(missingPriceIds.map(ref)));
  // Rule 2: TRANSACTION_IMPLIED, one entry per open position.
  const implied = holdings.filter((h) => {
    if (h.source !== "LAST_TRADE_PRICE" || !h.asset.hasProvider) return false;
    const firstTrade = r.firstTrade.get(h.asset.id);
    return firstTrade === undefined || daysBetween(firstTrade, r.end) > IMPLIED_GRACE_DAYS;
  });
  issues.push(...transactionImpliedIssues(implied.map((h) => ref(h.asset.id)), last?.date ?? r.end));
  // Rule 3: STALE_PRICE, each asset once.
  const stale = stalePrices(r, holdings);
  issues.push(...stalePriceIssue(stale));
  // Rule 4: MISSING_COST_BASIS over the whole history up to the end date.
  issues.push(...missingCostBasisIssues([...r.missingCostBasis.keys()].sort((a, b) => a - b).map(ref)));
  // Rule 5: FX gaps of movements (every date) and valuations (in the period).
  const fxMissing = r.fx.missing();
  issues.push(...fxIssues(fxMissing));
  issues.push(...navIncompleteIssue(r.incompleteDates));

  let summary: Record<string, unknown> | null = null;
  let history: Record<string, unknown>[] | null = null;
  const twrr = twrrSeries(navs, flows);
  const mwrr = days.length > 0 ? mwrrSummary(navs, flows) : null;
  if (!input.flags.summary) issues.push(mwrrNotCalculableIssue("summary_not_requested"));
  else if (mwrr === null || mwrr.rate === null) issues.push(mwrrNotCalculableIssue(mwrr?.reason ?? "zero_day_period"));

  let series: Mwrr[] = [];
  if (input.flags.history) {
    series = mwrrSeries(navs, flows, true);
    if (input.flags.summary && mwrr !== null) {
      const check = checkMwrrSeries(mwrr.cumulative, series, days.map((d) => d.date), () => mwrrSeries(navs, flows, false));
      series = check.series;
      if (check.unreliable) issues.push(mwrrSeriesUnreliableIssue(check.unreliable));
    }
    history = days.map((d, i) => historyPoint(d, twrr[i]!, series[i]!, money));
  }

  const dataQuality: DataQualityReport = {
    issues,
    data_quality_status: dataQualityStatus(issues),
    missing_price_assets: holdings.filter((h) => h.source === "MISSING").map((h) => ({
      asset_id: h.asset.id, symbol: h.asset.ticker, name: h.asset.name, broker_id: h.position.brokerId,
      broker_name: brokerName.get(h.position.brokerId) ?? null, first_position_date: h.position.openedOn,
      quantity: dec(h.position.quantity), open_cost_basis: h.position.unknownCost ? null : dec(h.position.cost), currency: h.asset.currency,
    })),
    missing_fx_pairs: missingFxPairs(fxMissing),
    stale_prices: stale,
    incomplete_nav_dates: r.incompleteDates,
  };

  if (input.flags.summary) summary = buildSummary(input, r, holdings, twrr, mwrr, money, dataQuality, brokerName);
  return {
    metadata: {
      broker_ids: input.requested.brokerIds, target_currency: input.target,
      requested_date_from: input.requested.start, requested_date_to: input.requested.end,
      computed_date_from: days[0]?.date ?? null, computed_date_to: last?.date ?? null, generated_at: input.generatedAt,
      allocation_dimensions: ["type", "sector", "geography"],
      included_features: Object.entries(input.flags).filter(([, on]) => on).map(([k]) => FEATURE_NAMES[k as keyof typeof FEATURE_NAMES]),
    },
    summary,
    history,
    allocation_history: input.flags.allocationHistory ? allocationHistory(days, assets) : null,
    data_quality: dataQuality,
    positions_contribution: input.flags.positionsContribution ? contribution(r, assets, brokerName, holdings) : null,
  };
}

const FEATURE_NAMES = {
  summary: "summary", history: "history", allocationHistory: "allocation_history", breakdown: "breakdown",
  positionsContribution: "positions_contribution",
} as const;

function historyPoint(d: DayState, twrr: Decimal, m: Mwrr, money: (d: Decimal) => unknown): Record<string, unknown> {
  const bookAssetLike = d.openCost.plus(d.inTransitBook);
  const contributed = Decimal.max(ZERO, Decimal.min(d.cash, d.capitalBaseline.minus(bookAssetLike)));
  const totalPnl = d.nav.minus(d.capitalBaseline);
  return {
    date: d.date,
    cash_value: money(d.cash),
    market_value: money(d.marketValue),
    in_transit_market_value: money(d.inTransitMarketValue),
    nav_value: money(d.nav),
    open_cost_basis: money(d.openCost),
    in_transit_book_value: money(d.inTransitBook),
    book_value: money(bookAssetLike.plus(d.cash)),
    capital_baseline: money(d.capitalBaseline),
    book_asset_like: money(bookAssetLike),
    cash_from_contributed_capital: money(contributed),
    cash_from_generated_returns: money(d.cash.minus(contributed)),
    total_pnl: money(totalPnl),
    unrealized_gain_loss: money(d.unrealized),
    twrr: dec(twrr),
    mwrr_annualized: num(m.annualized),
    mwrr_cumulative: num(m.cumulative),
    roi: ratio(totalPnl, d.capitalBaseline),
  };
}

function evaluateHoldings(r: ReplayResult, assets: Map<number, AssetInfo>, brokerName: Map<number, string>, target: string): Holding[] {
  const out: Holding[] = [];
  for (const p of r.positions) {
    if (p.quantity.isZero()) continue;
    const asset = assets.get(p.assetId)!;
    const obs = r.prices.at(p.assetId, r.end);
    const rate = obs ? r.fx.rate(obs.currency, r.end, false) : null;
    const unitPrice = obs && rate ? obs.price.times(rate) : null;
    const value = unitPrice ? p.quantity.times(unitPrice) : null;
    const knownCost = !p.unknownCost;
    const gain = value && knownCost ? value.minus(p.cost) : null;
    const held = p.openedOn ? daysBetween(p.openedOn, r.end) : 0;
    let annualized: string | null = null;
    if (gain && value && knownCost && p.cost.gt(0) && value.gt(0) && held >= 30) {
      annualized = num(Math.pow(value.div(p.cost).toNumber(), 365 / held) - 1);
    }
    out.push({
      position: p, asset, value, unitPrice, source: obs ? obs.source : "MISSING",
      row: {
        asset_id: asset.id, asset_name: asset.name, asset_ticker: asset.ticker, asset_type: asset.type,
        broker_id: p.brokerId, broker_name: brokerName.get(p.brokerId) ?? null, quantity: dec(p.quantity),
        wac_per_unit: knownCost && p.quantity.gt(0) ? dec(p.cost.div(p.quantity)) : null,
        open_cost_basis: knownCost ? dec(p.cost) : null,
        current_price: unitPrice ? dec(unitPrice) : null, current_value: value ? dec(value) : null,
        valuation_source: obs ? obs.source : "MISSING",
        valuation_effective_unit_price: obs ? dec(obs.price) : null, valuation_effective_currency: obs?.currency ?? null,
        valuation_reference_date: obs?.date ?? null, valuation_reference_unit_price: obs ? dec(obs.referencePrice) : null,
        valuation_reference_currency: obs?.currency ?? null, valuation_split_adjusted: obs?.splitAdjusted ?? false,
        missing_fx_pair: obs && !rate ? `${obs.currency}/${target}` : null,
        gain_loss: gain ? dec(gain) : null, gain_loss_percent: gain ? ratio(gain, p.cost, true) : null, annualized_return: annualized,
        oldest_open_lot_date: p.openedOn,
      },
    });
  }
  return out.sort((a, b) => a.asset.name.localeCompare(b.asset.name) || a.position.brokerId - b.position.brokerId);
}

/** Rule 3: open, valued at a market price more than 7 days old, with a provider; each asset once. */
function stalePrices(r: ReplayResult, holdings: Holding[]): StalePrice[] {
  const seen = new Set<number>();
  const out: StalePrice[] = [];
  for (const h of holdings) {
    if (h.source !== "MARKET_PRICE" || !h.asset.hasProvider || seen.has(h.asset.id)) continue;
    const obs = r.prices.at(h.asset.id, r.end)!;
    const staleDays = daysBetween(obs.date, r.end);
    if (staleDays <= STALE_DAYS) continue;
    seen.add(h.asset.id);
    out.push({ asset_id: h.asset.id, name: h.asset.name, last_price_date: obs.date, stale_days: staleDays });
  }
  return out;
}

/** Net external flows after the start date, and the period's P&L `nav_end − nav_start − flows`. */
function periodResult(r: ReplayResult): { periodFlows: Decimal; periodPnl: Decimal } {
  const first = r.days[0];
  const last = r.days.at(-1);
  const periodFlows = r.days.slice(1).reduce((s, d) => s.plus(d.flow), ZERO);
  return { periodFlows, periodPnl: first && last ? last.nav.minus(first.nav).minus(periodFlows) : ZERO };
}

function buildSummary(
  input: ReportInput, r: ReplayResult, holdings: Holding[], twrr: Decimal[], mwrr: Mwrr | null, money: (d: Decimal) => unknown,
  dataQuality: DataQualityReport, brokerName: Map<number, string>,
): Record<string, unknown> {
  const first = r.days[0];
  const lastDay = r.days.at(-1);
  const endNav = lastDay?.nav ?? ZERO;
  const baseline = lastDay?.capitalBaseline ?? ZERO;
  const totalPnl = endNav.minus(baseline);
  const { periodFlows, periodPnl } = periodResult(r);
  const unrealizedStart = first?.unrealized ?? ZERO;
  const unrealizedEnd = lastDay?.unrealized ?? ZERO;
  const feesTaxes = r.period.fees.plus(r.period.taxes);
  const valued = holdings.filter((h) => h.value !== null);
  const positionsValue = valued.reduce((s, h) => s.plus(h.value!), ZERO);
  for (const h of holdings) {
    h.row.allocation_percent = h.value ? ratio(h.value, positionsValue, true) : null;
    h.row.nav_weight_percent = h.value ? ratio(h.value, endNav, true) : null;
  }
  const cashBalances = new Map<string, Decimal>();
  for (const byCcy of r.cash.values()) for (const [ccy, a] of byCcy) cashBalances.set(ccy, (cashBalances.get(ccy) ?? ZERO).plus(a));
  const mwrrOk = mwrr !== null && mwrr.rate !== null;
  return {
    net_worth: money(endNav),
    total_invested: money(baseline),
    total_gain_loss: money(totalPnl),
    total_gain_loss_percent: ratio(totalPnl, baseline, true),
    cash_total: money(lastDay?.cash ?? ZERO),
    cash_balances: [...cashBalances.entries()].filter(([, a]) => !a.isZero()).sort(([a], [b]) => a.localeCompare(b))
      .map(([code, a]) => ({ code, amount: dec(a) })),
    market_value: money(lastDay?.marketValue ?? ZERO),
    in_transit_market_value: money(lastDay?.inTransitMarketValue ?? ZERO),
    open_cost_basis: money(lastDay?.openCost ?? ZERO),
    in_transit_book_value: money(lastDay?.inTransitBook ?? ZERO),
    book_value: money((lastDay?.openCost ?? ZERO).plus(lastDay?.inTransitBook ?? ZERO).plus(lastDay?.cash ?? ZERO)),
    unrealized_gain_loss: money(unrealizedEnd),
    total_deposited: money(r.total.deposited),
    total_withdrawn: money(r.total.withdrawn),
    net_deposited_capital: money(r.total.deposited.minus(r.total.withdrawn)),
    total_income: money(r.total.income),
    total_fees: money(r.total.fees),
    total_taxes: money(r.total.taxes),
    realized_gain_loss: money(r.total.realized),
    period_nav_start: money(first?.nav ?? ZERO),
    period_market_value_start: money(first ? first.marketValue.plus(first.inTransitMarketValue) : ZERO),
    period_book_value_start: money(first ? first.openCost.plus(first.inTransitBook).plus(first.cash) : ZERO),
    period_net_flows: money(periodFlows),
    period_pnl: money(periodPnl),
    period_unrealized_gain_loss_start: money(unrealizedStart),
    period_unrealized_gain_loss_end: money(unrealizedEnd),
    period_unrealized_gain_loss_delta: money(unrealizedEnd.minus(unrealizedStart)),
    period_realized_gain_loss: money(r.period.realized),
    period_income: money(r.period.income),
    period_fees: money(r.period.fees),
    period_taxes: money(r.period.taxes),
    period_fees_taxes: money(feesTaxes),
    period_other_result: money(periodPnl.minus(unrealizedEnd.minus(unrealizedStart)).minus(r.period.realized).minus(r.period.income).plus(feesTaxes)),
    twrr_percent: twrr.length > 0 ? dec(twrr.at(-1)!.times(HUNDRED)) : null,
    mwrr_available: mwrrOk,
    mwrr_annualized_percent: mwrrOk && mwrr.annualized !== null ? num(mwrr.annualized * 100) : null,
    mwrr_cumulative_percent: mwrrOk ? num(mwrr.cumulative! * 100) : null,
    mwrr_period_days: mwrr?.days ?? 0,
    simple_roi_percent: ratio(totalPnl, baseline, true),
    allocation_by_type: allocation(valued.map((h) => ({ asset: h.asset, value: h.value! })), "type"),
    allocation_by_sector: allocation(valued.map((h) => ({ asset: h.asset, value: h.value! })), "sector"),
    allocation_by_geography: allocation(valued.map((h) => ({ asset: h.asset, value: h.value! })), "geography"),
    holdings: holdings.map((h) => h.row),
    by_broker: input.flags.breakdown ? byBroker(r, holdings, brokerName, money) : null,
    missing_fx_pairs: dataQuality.missing_fx_pairs,
    missing_price_assets: dataQuality.missing_price_assets,
    data_quality: dataQuality,
  };
}

type Dimension = "type" | "sector" | "geography";

/** Weights of an asset along a dimension: its type, or its classification distribution (`Unknown` when none). */
function weights(asset: AssetInfo, dim: Dimension): [string, Decimal][] {
  if (dim === "type") return [[asset.type ?? "OTHER", new Decimal(1)]];
  const dist = dim === "sector" ? asset.sectors : asset.geography;
  if (!dist || Object.keys(dist).length === 0) return [["Unknown", new Decimal(1)]];
  return Object.entries(dist).map(([k, w]) => [k, new Decimal(w)]);
}

function allocation(items: { asset: AssetInfo; value: Decimal }[], dim: Dimension): { name: string; value: string; amount: string }[] {
  const amounts = new Map<string, Decimal>();
  let total = ZERO;
  for (const { asset, value } of items) {
    for (const [name, w] of weights(asset, dim)) amounts.set(name, (amounts.get(name) ?? ZERO).plus(value.times(w)));
    total = total.plus(value);
  }
  return [...amounts.entries()]
    .sort(([a, x], [b, y]) => y.cmp(x) || a.localeCompare(b))
    .map(([name, amount]) => ({ name, value: ratio(amount, total, true) ?? "0", amount: dec(amount) }));
}

function allocationHistory(days: DayState[], assets: Map<number, AssetInfo>): Record<Dimension, unknown[]> {
  const out: Record<Dimension, unknown[]> = { type: [], sector: [], geography: [] };
  for (const d of days) {
    const items = [...(d.assetValues ?? new Map()).entries()].map(([id, value]) => ({ asset: assets.get(id)!, value }));
    for (const dim of ["type", "sector", "geography"] as const) out[dim].push({ date: d.date, components: allocation(items, dim) });
  }
  return out;
}

function byBroker(r: ReplayResult, holdings: Holding[], brokerName: Map<number, string>, money: (d: Decimal) => unknown): unknown[] {
  return [...brokerName.entries()].map(([id, name]) => {
    const byCcy = r.cash.get(id) ?? new Map<string, Decimal>();
    let cash = ZERO;
    for (const [ccy, a] of byCcy) cash = cash.plus(r.fx.convert(a, ccy, r.end, false) ?? ZERO);
    const positions = holdings.filter((h) => h.position.brokerId === id && h.value !== null).reduce((s, h) => s.plus(h.value!), ZERO);
    const netWorth = cash.plus(positions);
    const baseline = r.brokerBaseline.get(id) ?? ZERO;
    const gain = netWorth.minus(baseline);
    return {
      broker_id: id, broker_name: name, net_worth: money(netWorth), gain_loss: money(gain), gain_loss_percent: ratio(gain, baseline, true),
      cash_total: money(cash),
      cash_balances: [...byCcy.entries()].filter(([, a]) => !a.isZero()).map(([code, a]) => ({ code, amount: dec(a) })),
    };
  });
}

function contribution(r: ReplayResult, assets: Map<number, AssetInfo>, brokerName: Map<number, string>, holdings: Holding[]): Record<string, unknown> {
  const endValue = new Map(holdings.map((h) => [h.position, h.value]));
  let grossGains = ZERO;
  let grossLosses = ZERO;
  let allocated = ZERO;
  const positions = r.positions.filter((p) => p.everHeldInPeriod || !p.periodIncome.isZero() || !p.periodFeesTaxes.isZero()).map((p) => {
    const asset = assets.get(p.assetId)!;
    const startObs = p.startQuantity.isZero() ? null : r.prices.at(p.assetId, r.start);
    const startRate = startObs ? r.fx.rate(startObs.currency, r.start, false) : null;
    const startValue = p.startQuantity.isZero() ? ZERO : startObs && startRate ? p.startQuantity.times(startObs.price).times(startRate) : null;
    const end = p.quantity.isZero() ? ZERO : endValue.get(p) ?? null;
    const delta = startValue !== null && end !== null ? end.minus(p.cost).minus(startValue.minus(p.startCost)) : null;
    const pnl = delta === null ? null : delta.plus(p.periodRealized).plus(p.periodIncome).minus(p.periodFeesTaxes);
    if (pnl) {
      allocated = allocated.plus(pnl);
      if (pnl.gt(0)) grossGains = grossGains.plus(pnl); else grossLosses = grossLosses.plus(pnl);
    }
    const base = startValue && startValue.gt(0) ? startValue : p.cost;
    return {
      asset_id: p.assetId, asset_name: asset.name, asset_ticker: asset.ticker, asset_type: asset.type, broker_id: p.brokerId,
      broker_name: brokerName.get(p.brokerId) ?? null, period_unrealized_delta: delta ? dec(delta) : null,
      period_realized_gain_loss: dec(p.periodRealized), period_income: dec(p.periodIncome), period_fees_taxes: dec(p.periodFeesTaxes),
      period_pnl: pnl ? dec(pnl) : null, period_pnl_percent: pnl ? ratio(pnl, base, true) : null,
      start_value: startValue ? dec(startValue) : null, end_value: end ? dec(end) : null, is_fully_sold: p.quantity.isZero(),
      oldest_open_lot_date: p.openedOn,
    };
  });
  const unallocated = [...r.unallocated.entries()].map(([id, u]) => {
    allocated = allocated.plus(u.income).minus(u.feesTaxes);
    return { broker_id: id, broker_name: brokerName.get(id) ?? null, unallocated_income: dec(u.income), unallocated_fees_taxes: dec(u.feesTaxes) };
  });
  const other = periodResult(r).periodPnl.minus(allocated);
  return {
    positions, unallocated,
    other_effects: other.isZero() ? [] : [{ description: "FX effects on cash and unvalued positions", category: "Other", period_pnl: dec(other) }],
    gross_gains: dec(grossGains), gross_losses: dec(grossLosses),
    currency: r.fx.target,
  };
}
