/**
 * `POST /portfolio/report` assembled from the replay (docs/portfolio.md "Report"): summary,
 * history, allocation history, breakdown, positions contribution and the data-quality report.
 * Returns a plain JSON object (decimals as strings) ready to serialise.
 */
import { daysBetween } from "../dates/calendar.ts";
import { Decimal } from "../money/decimal.ts";
import {
  type AssetRef, type DataQualityIssue, dataQualityStatus, fxIssues, fxPrivateRatesIssue, missingCostBasisIssues, missingFxPairs,
  missingPriceIssue, mwrrNotCalculableIssue, mwrrSeriesUnreliableIssue, navIncompleteIssue, type StalePrice, stalePriceIssue,
  transactionImpliedIssues,
} from "./data-quality.calc.ts";
import { percentText } from "./allocation-percent.ts";
import { cmp, type DecimalParts, EXACT_ZERO, partsOf, plus, times, toDecimal, wireText } from "./exact-decimal.ts";
import { type DD, ddAdd, ddCompare, ddMul, ddOfParts, ddPercentText, ddWireText, DD_ZERO } from "./double-double.ts";
import { dec, toReportDto } from "./report.dto.ts";
import type {
  AllocationItem, AllocationPoint, BrokerBreakdown, ContributionRow, Dimension, HistoryPoint, HoldingRow, PortfolioReport, PositionsContribution,
  ReportDataQuality, ReportSummary,
} from "./report.types.ts";
import type { AssetInfo, ReportFlags, ReportInput } from "./report-input.ts";
import { type DayState, type Position, replay, type ReplayResult } from "./replay.calc.ts";
import { allPeriodReturns, type KeptPeriodReturns } from "./period-returns.calc.ts";
import { checkMwrrSeries, type Mwrr, mwrrSeries, mwrrSummary, twrrGrowth } from "./returns.calc.ts";

export { dec } from "./report.dto.ts";
export type { PortfolioReport } from "./report.types.ts";

const ZERO = new Decimal(0);
const HUNDRED = new Decimal(100);
/** Data-quality limits: STALE_PRICE after more than 7 days; TRANSACTION_IMPLIED after a 14-day grace. */
export const STALE_DAYS = 7;
export const IMPLIED_GRACE_DAYS = 14;

/** a / b (× 100 for a percentage); null when b is not positive. */
function ratio(a: Decimal, b: Decimal, percent = false): Decimal | null {
  if (!b.gt(0)) return null;
  const r = a.div(b);
  return percent ? r.times(HUNDRED) : r;
}

interface Holding {
  position: Position;
  asset: AssetInfo;
  value: Decimal | null;
  unitPrice: Decimal | null;
  source: "MARKET_PRICE" | "LAST_TRADE_PRICE" | "MISSING";
  row: HoldingRow;
}

/**
 * What an incremental report reuses of the previous run over the same scope (docs/decisions.md,
 * "Incremental report"): the figures of its first `days` days, whose inputs did not change.
 */
export interface ReportPrefix {
  days: number;
  /** TWRR growth factors of at least those days. */
  growth: readonly Decimal[];
  /** The warm-started MWRR series of some of those days (the rest are solved again, warm-started). */
  warm: readonly Mwrr[];
  /** The history points of the first this many days are the caller's (`historyFrom`); default `days`. */
  historyDays?: number;
  /** Period returns of an earlier run; those ending within the prefix's days are taken as they are. */
  periodReturns?: KeptPeriodReturns;
}

export interface ReportParts {
  report: PortfolioReport;
  growth: Decimal[];
  /** The warm-started MWRR series before the series check (docs/portfolio.md "Returns", Series check; null without history). */
  warm: Mwrr[] | null;
  /** `report.history` holds the points of the days from this index on (0 unless a prefix was reused). */
  historyFrom: number;
  /** The period returns with each day's growth within its period, to be kept (null unless asked for). */
  periodReturns: KeptPeriodReturns | null;
}

export function computeReport(input: ReportInput): PortfolioReport {
  return computeReportParts(input, replay(input)).report;
}

export interface ReportPartsOptions {
  /** The history points of the prefix's days are left out (`historyFrom`). */
  prefix?: ReportPrefix;
  /**
   * Each history point is handed over as it is made instead of being kept in `report.history`
   * (left empty): the engine writes them as text at once.
   */
  onHistoryPoint?: (p: HistoryPoint) => void;
  /**
   * The caller made the allocation history itself, day by day during the replay
   * (`allocationPoints`): `report.allocationHistory` is left empty.
   */
  allocationWritten?: boolean;
}

/** The report of a replay (see `ReportPartsOptions`). */
export function computeReportParts(input: ReportInput, r: ReplayResult, options: ReportPartsOptions = {}): ReportParts {
  const { prefix, onHistoryPoint } = options;
  const assets = new Map(input.assets.map((a) => [a.id, a]));
  const brokerName = new Map(input.brokers.map((b) => [b.id, b.name]));
  const days = r.days;
  const navs = days.map((d) => d.nav);
  const flows = days.map((d) => d.flow);
  const last = days.at(-1);

  const holdings = evaluateHoldings(r, assets, brokerName, input.target);
  const issues: DataQualityIssue[] = [];
  const ref = (id: number): AssetRef => ({ id, name: assets.get(id)?.name ?? String(id) });

  // The data-quality issues, in the order of docs/portfolio.md "Data quality". MISSING_PRICE on the end date.
  const missingPriceIds = [...new Set(holdings.filter((h) => h.source === "MISSING").map((h) => h.asset.id))];
  issues.push(...missingPriceIssue(missingPriceIds.map(ref)));
  // TRANSACTION_IMPLIED, one entry per open position valued at a trade price past the grace days.
  const implied = holdings.filter((h) => {
    if (h.source !== "LAST_TRADE_PRICE" || !h.asset.hasProvider) return false;
    const firstTrade = r.firstTrade.get(h.asset.id);
    return firstTrade === undefined || daysBetween(firstTrade, r.end) > IMPLIED_GRACE_DAYS;
  });
  issues.push(...transactionImpliedIssues(implied.map((h) => ref(h.asset.id)), last?.date ?? r.end));
  // STALE_PRICE, each asset once.
  const stale = stalePrices(r, holdings);
  issues.push(...stalePriceIssue(stale));
  // MISSING_COST_BASIS over the whole history up to the end date.
  issues.push(...missingCostBasisIssues([...r.missingCostBasis.keys()].sort((a, b) => a - b).map(ref)));
  // FX gaps of movements (every date) and valuations (in the period).
  const fxMissing = r.fx.missing();
  issues.push(...fxIssues(fxMissing));
  issues.push(...fxPrivateRatesIssue(r.fx.privatePairs()));
  issues.push(...navIncompleteIssue(r.incompleteDates));

  const growth = twrrGrowth(navs, flows, prefix?.growth);
  const twrrEnd = growth.length > 0 ? growth.at(-1)!.minus(1) : null;
  const mwrr = days.length > 0 ? mwrrSummary(navs, flows) : null;
  if (!input.flags.summary) issues.push(mwrrNotCalculableIssue("summary_not_requested"));
  else if (mwrr === null || mwrr.rate === null) issues.push(mwrrNotCalculableIssue(mwrr?.reason ?? "zero_day_period"));

  let history: HistoryPoint[] | null = null;
  let warm: Mwrr[] | null = null;
  let historyFrom = 0;
  if (input.flags.history) {
    warm = mwrrSeries(navs, flows, true, prefix?.warm);
    let series = warm;
    if (input.flags.summary && mwrr !== null) {
      const check = checkMwrrSeries(mwrr.cumulative, series, days.map((d) => d.date), () => mwrrSeries(navs, flows, false));
      series = check.series;
      if (check.unreliable) issues.push(mwrrSeriesUnreliableIssue(check.unreliable));
    }
    // A rebuilt series (the series check) changes every point: the previous points cannot be reused.
    historyFrom = prefix && series === warm ? Math.min(prefix.historyDays ?? prefix.days, days.length) : 0;
    history = [];
    const point = onHistoryPoint ?? ((p: HistoryPoint) => history!.push(p));
    for (let i = historyFrom; i < days.length; i++) point(historyPoint(days[i]!, growth[i]!.minus(1), series[i]!));
  }

  const periods = input.flags.periodReturns ? allPeriodReturns(days.map((d) => d.date), navs, flows, keptPeriods(prefix)) : null;

  const dataQuality: ReportDataQuality = {
    issues,
    status: dataQualityStatus(issues),
    missingPriceAssets: holdings.filter((h) => h.source === "MISSING").map((h) => ({
      assetId: h.asset.id, symbol: h.asset.ticker, name: h.asset.name, brokerId: h.position.brokerId,
      brokerName: brokerName.get(h.position.brokerId) ?? null, firstPositionDate: h.position.openedOn,
      quantity: h.position.quantity, openCostBasis: h.position.unknownCost ? null : h.position.cost, currency: h.asset.currency,
    })),
    missingFxPairs: missingFxPairs(fxMissing),
    stalePrices: stale,
    incompleteNavDates: r.incompleteDates,
  };

  const report: PortfolioReport = {
    metadata: {
      brokerIds: input.requested.brokerIds, targetCurrency: input.target,
      requestedDateFrom: input.requested.start, requestedDateTo: input.requested.end,
      computedDateFrom: days[0]?.date ?? null, computedDateTo: last?.date ?? null, generatedAt: input.generatedAt,
      allocationDimensions: ["type", "sector", "geography"],
      includedFeatures: (Object.keys(input.flags) as (keyof ReportFlags)[]).filter((k) => input.flags[k]),
    },
    summary: input.flags.summary ? buildSummary(input, r, holdings, twrrEnd, mwrr, brokerName) : null,
    history,
    allocationHistory: !input.flags.allocationHistory ? null
      : options.allocationWritten ? { type: [], sector: [], geography: [] } : allocationHistory(days, assets),
    dataQuality,
    positionsContribution: input.flags.positionsContribution ? contribution(r, assets, brokerName, holdings) : null,
    incomePayments: input.flags.incomePayments ? r.incomePayments : null,
    periodReturns: periods?.periods ?? null,
  };
  return { report, growth, warm, historyFrom, periodReturns: periods };
}

/** The report on the wire (the worker's public entry point, kept for callers): `toReportDto(computeReport(input))`. */
export function buildReport(input: ReportInput): Record<string, unknown> {
  return toReportDto(computeReport(input));
}

/** The prefix's kept period returns, valid no further than its unchanged days. */
function keptPeriods(prefix: ReportPrefix | undefined): KeptPeriodReturns | undefined {
  const kept = prefix?.periodReturns;
  return kept && { ...kept, days: Math.min(kept.days, prefix.days) };
}

function historyPoint(d: DayState, twrr: Decimal, m: Mwrr): HistoryPoint {
  const bookAssetLike = d.inTransitBook.isZero() ? d.openCost : d.openCost.plus(d.inTransitBook);
  const contributed = Decimal.max(ZERO, Decimal.min(d.cash, d.capitalBaseline.minus(bookAssetLike)));
  const totalPnl = d.nav.minus(d.capitalBaseline);
  return {
    date: d.date, cashValue: d.cash, marketValue: d.marketValue, inTransitMarketValue: d.inTransitMarketValue, navValue: d.nav,
    openCostBasis: d.openCost, inTransitBookValue: d.inTransitBook, bookValue: bookAssetLike.plus(d.cash), capitalBaseline: d.capitalBaseline,
    bookAssetLike, cashFromContributedCapital: contributed, cashFromGeneratedReturns: d.cash.minus(contributed), totalPnl,
    unrealizedGainLoss: d.unrealized, twrr, mwrrAnnualized: m.annualized, mwrrCumulative: m.cumulative, roi: ratio(totalPnl, d.capitalBaseline),
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
    let annualized: number | null = null;
    if (gain && value && knownCost && p.cost.gt(0) && value.gt(0) && held >= 30) {
      annualized = Math.pow(value.div(p.cost).toNumber(), 365 / held) - 1;
    }
    out.push({
      position: p, asset, value, unitPrice, source: obs ? obs.source : "MISSING",
      row: {
        assetId: asset.id, assetName: asset.name, assetTicker: asset.ticker, assetType: asset.type,
        brokerId: p.brokerId, brokerName: brokerName.get(p.brokerId) ?? null, quantity: p.quantity,
        wacPerUnit: knownCost && p.quantity.gt(0) ? p.cost.div(p.quantity) : null,
        openCostBasis: knownCost ? p.cost : null,
        currentPrice: unitPrice, currentValue: value,
        valuationSource: obs ? obs.source : "MISSING",
        valuationEffectiveUnitPrice: obs ? obs.price : null, valuationEffectiveCurrency: obs?.currency ?? null,
        valuationReferenceDate: obs?.date ?? null, valuationReferenceUnitPrice: obs ? obs.referencePrice : null,
        valuationReferenceCurrency: obs?.currency ?? null, valuationSplitAdjusted: obs?.splitAdjusted ?? false,
        missingFxPair: obs && !rate ? `${obs.currency}/${target}` : null,
        gainLoss: gain, gainLossPercent: gain ? ratio(gain, p.cost, true) : null, annualizedReturn: annualized,
        oldestOpenLotDate: p.openedOn, allocationPercent: null, navWeightPercent: null,
      },
    });
  }
  return out.sort((a, b) => a.asset.name.localeCompare(b.asset.name) || a.position.brokerId - b.position.brokerId);
}

/** STALE_PRICE: open, valued at a market price more than 7 days old, with a provider; each asset once. */
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

/** Summary and contribution read the same period result: summed once per replay. */
const periodResults = new WeakMap<ReplayResult, { periodFlows: Decimal; periodPnl: Decimal }>();

/** Net external flows after the start date, and the period's P&L `nav_end − nav_start − flows`. */
function periodResult(r: ReplayResult): { periodFlows: Decimal; periodPnl: Decimal } {
  let out = periodResults.get(r);
  if (!out) {
    const first = r.days[0];
    const last = r.days.at(-1);
    // Most days have no external flow: adding a zero gives the sum itself (decimal.js returns x
    // for x + 0, the sum being already at the precision), so those days are skipped, not added.
    let periodFlows = ZERO;
    for (let i = 1; i < r.days.length; i++) {
      const flow = r.days[i]!.flow;
      if (!flow.isZero()) periodFlows = periodFlows.plus(flow);
    }
    out = { periodFlows, periodPnl: first && last ? last.nav.minus(first.nav).minus(periodFlows) : ZERO };
    periodResults.set(r, out);
  }
  return out;
}

function buildSummary(
  input: ReportInput, r: ReplayResult, holdings: Holding[], twrrEnd: Decimal | null, mwrr: Mwrr | null, brokerName: Map<number, string>,
): ReportSummary {
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
    h.row.allocationPercent = h.value ? ratio(h.value, positionsValue, true) : null;
    h.row.navWeightPercent = h.value ? ratio(h.value, endNav, true) : null;
  }
  const cashBalances = new Map<string, Decimal>();
  for (const byCcy of r.cash.values()) for (const [ccy, a] of byCcy) cashBalances.set(ccy, (cashBalances.get(ccy) ?? ZERO).plus(a));
  const mwrrOk = mwrr !== null && mwrr.rate !== null;
  const valuedItems = valued.map((h) => ({ weights: weightsOf(h.asset), value: partsOf(h.value!) }));
  return {
    netWorth: endNav,
    totalInvested: baseline,
    totalGainLoss: totalPnl,
    totalGainLossPercent: ratio(totalPnl, baseline, true),
    cashTotal: lastDay?.cash ?? ZERO,
    cashBalances: [...cashBalances.entries()].filter(([, a]) => !a.isZero()).sort(([a], [b]) => a.localeCompare(b))
      .map(([code, amount]) => ({ code, amount })),
    marketValue: lastDay?.marketValue ?? ZERO,
    inTransitMarketValue: lastDay?.inTransitMarketValue ?? ZERO,
    openCostBasis: lastDay?.openCost ?? ZERO,
    inTransitBookValue: lastDay?.inTransitBook ?? ZERO,
    bookValue: (lastDay?.openCost ?? ZERO).plus(lastDay?.inTransitBook ?? ZERO).plus(lastDay?.cash ?? ZERO),
    unrealizedGainLoss: unrealizedEnd,
    totalDeposited: r.total.deposited,
    totalWithdrawn: r.total.withdrawn,
    netDepositedCapital: r.total.deposited.minus(r.total.withdrawn),
    totalIncome: r.total.income,
    totalFees: r.total.fees,
    totalTaxes: r.total.taxes,
    realizedGainLoss: r.total.realized,
    periodNavStart: first?.nav ?? ZERO,
    periodMarketValueStart: first ? first.marketValue.plus(first.inTransitMarketValue) : ZERO,
    periodBookValueStart: first ? first.openCost.plus(first.inTransitBook).plus(first.cash) : ZERO,
    periodNetFlows: periodFlows,
    periodPnl,
    periodUnrealizedGainLossStart: unrealizedStart,
    periodUnrealizedGainLossEnd: unrealizedEnd,
    periodUnrealizedGainLossDelta: unrealizedEnd.minus(unrealizedStart),
    periodRealizedGainLoss: r.period.realized,
    periodIncome: r.period.income,
    periodFees: r.period.fees,
    periodTaxes: r.period.taxes,
    periodFeesTaxes: feesTaxes,
    periodOtherResult: periodPnl.minus(unrealizedEnd.minus(unrealizedStart)).minus(r.period.realized).minus(r.period.income).plus(feesTaxes),
    twrrPercent: twrrEnd !== null ? twrrEnd.times(HUNDRED) : null,
    mwrrAvailable: mwrrOk,
    mwrrAnnualizedPercent: mwrrOk && mwrr.annualized !== null ? mwrr.annualized * 100 : null,
    mwrrCumulativePercent: mwrrOk ? mwrr.cumulative! * 100 : null,
    mwrrPeriodDays: mwrr?.days ?? 0,
    simpleRoiPercent: ratio(totalPnl, baseline, true),
    allocationByType: allocation(valuedItems, "type"),
    allocationBySector: allocation(valuedItems, "sector"),
    allocationByGeography: allocation(valuedItems, "geography"),
    holdings: holdings.map((h) => h.row),
    byBroker: input.flags.breakdown ? byBroker(r, holdings, brokerName) : null,
  };
}

const DIMENSIONS = ["type", "sector", "geography"] as const;
/**
 * Weights parsed once per asset (they are read for every day of the history); null: the whole
 * value (a weight of exactly 1, whose product is the value itself).
 */
const weightCache = new WeakMap<AssetInfo, Weights>();
/**
 * Per dimension, each weight's component as an index into `componentNames` (no Map lookup per asset
 * and day), the weights' estimates (double-double.ts), and for the estimates' error bound the
 * largest sum of a dimension's absolute weights (at least 1) and the most weights of a dimension.
 */
type Weights = Record<Dimension, [string, DecimalParts | null][]> & {
  index: Record<Dimension, number[]>;
  estimates: Record<Dimension, (DD | null)[]>;
  spread: number;
  count: number;
};
/** Every component name met, per dimension, by index; the sums of one `allocation` call by the same index. */
const componentNames: Record<Dimension, string[]> = { type: [], sector: [], geography: [] };
const componentIndex: Record<Dimension, Map<string, number>> = { type: new Map(), sector: new Map(), geography: new Map() };
const componentSums: Record<Dimension, (DecimalParts | undefined)[]> = { type: [], sector: [], geography: [] };

function indexOf(dim: Dimension, name: string): number {
  let i = componentIndex[dim].get(name);
  if (i === undefined) {
    componentIndex[dim].set(name, i = componentNames[dim].length);
    componentNames[dim].push(name);
  }
  return i;
}

/** Weights of an asset along each dimension: its type, or its classification distribution (`Unknown` when none). */
function weightsOf(asset: AssetInfo): Weights {
  let cached = weightCache.get(asset);
  if (!cached) {
    const of = (dist: Record<string, string> | null): [string, DecimalParts | null][] =>
      !dist || Object.keys(dist).length === 0 ? [["Unknown", null]] : Object.entries(dist).map(([k, w]) => {
        const d = new Decimal(w);
        return [k, d.eq(1) ? null : partsOf(d)];
      });
    const type: [string, DecimalParts | null][] = [[asset.type ?? "OTHER", null]];
    const sector = of(asset.sectors);
    const geography = of(asset.geography);
    const index = { type: type.map(([k]) => indexOf("type", k)), sector: sector.map(([k]) => indexOf("sector", k)), geography: geography.map(([k]) => indexOf("geography", k)) };
    const estimate = (ws: [string, DecimalParts | null][]) => ws.map(([, w]) => (w === null ? null : ddOfParts(w)));
    const estimates = { type: estimate(type), sector: estimate(sector), geography: estimate(geography) };
    const spreadOf = (ws: (DD | null)[]) => ws.reduce((s, w) => s + (w === null ? 1 : Math.abs(w.hi) * 1.01), 0);
    cached = {
      type, sector, geography, index, estimates,
      spread: Math.max(1, spreadOf(estimates.type), spreadOf(estimates.sector), spreadOf(estimates.geography)),
      count: Math.max(type.length, sector.length, geography.length),
    };
    weightCache.set(asset, cached);
  }
  return cached;
}

interface Valued {
  weights: Weights;
  value: DecimalParts;
}

/**
 * The components of one dimension. Values, sums and order in exact parts (exact-decimal.ts: the
 * values and roundings of the Decimal chain, without a Decimal per asset and day).
 */
function allocation(items: readonly Valued[], dim: Dimension, sum?: DecimalParts): AllocationItem[] {
  // Sums by component index, in the items' order (the order of the Decimal chain's additions).
  const sums = componentSums[dim];
  const met: number[] = [];
  let amounts: [string, DecimalParts][];
  try {
    for (let i = 0; i < items.length; i++) {
      const { weights, value } = items[i]!;
      const ws = weights[dim];
      const ix = weights.index[dim];
      for (let j = 0; j < ws.length; j++) {
        const w = ws[j]![1];
        // A whole value needs no multiplication: one less per asset and day on the usual weights.
        const part = w === null ? value : times(value, w);
        const k = ix[j]!;
        const before = sums[k];
        if (before === undefined) met.push(k);
        sums[k] = before === undefined ? part : plus(before, part);
      }
    }
    const names = componentNames[dim];
    amounts = met.map((k) => [names[k]!, sums[k]!]);
  } finally {
    // The shared sums start empty for the next call, whatever happened in this one.
    for (const k of met) sums[k] = undefined;
  }
  const total = sum ?? items.reduce((s, i) => plus(s, i.value), EXACT_ZERO);
  const positive = total.m > 0n;
  return amounts
    .sort(([a, x], [b, y]) => cmp(y, x) || a.localeCompare(b))
    .map(([name, amount]) => ({ name, value: positive ? percentOf(amount, total) : null, amount: wireText(amount) }));
}

/**
 * `dec(amount / total × 100)` for `total` > 0: in integers (allocation-percent.ts, the same text
 * as the Decimal division), Decimal where that path does not apply.
 */
function percentOf(amount: DecimalParts, total: DecimalParts): string {
  // A single component is the whole: 100 % without a division (the quotient is exactly 1).
  if (cmp(amount, total) === 0) return "100";
  return percentText(amount, total) ?? dec(ratio(toDecimal(amount), toDecimal(total), true)!);
}

/** Per dimension, the estimates' sums by component index (as `componentSums`). */
const estimateSums: Record<Dimension, (DD | undefined)[]> = { type: [], sector: [], geography: [] };

/**
 * The Decimal chain's exact values of one day, computed only when an estimate does not decide
 * (`allocationPoints`): the total and a component's sum, each in the order `allocation` adds them,
 * from the exact values of the assets they need (made once per day and asset or component).
 */
class ExactDay {
  private sum: DecimalParts | null = null;
  private sums: Map<string, DecimalParts> | null = null;

  constructor(private readonly d: DayState, private readonly weights: readonly Weights[]) {}

  total(): DecimalParts {
    if (this.sum === null) {
      let sum = EXACT_ZERO;
      for (let i = 0; i < this.weights.length; i++) sum = plus(sum, this.d.assetValues!.exactAt(i));
      this.sum = sum;
    }
    return this.sum;
  }

  /** Component `k` of `dim`: its parts added in the items' order, as `allocation` does. */
  component(dim: Dimension, k: number): DecimalParts {
    const key = `${dim}:${k}`;
    let sum = (this.sums ??= new Map()).get(key);
    if (sum === undefined) {
      for (let i = 0; i < this.weights.length; i++) {
        const ws = this.weights[i]![dim];
        const ix = this.weights[i]!.index[dim];
        for (let j = 0; j < ws.length; j++) {
          if (ix[j] !== k) continue;
          const w = ws[j]![1];
          const value = this.d.assetValues!.exactAt(i);
          const part = w === null ? value : times(value, w);
          sum = sum === undefined ? part : plus(sum, part);
        }
      }
      this.sums.set(key, sum!);
    }
    return sum!;
  }
}

/**
 * The components of one dimension from the values' estimates, each within `err` of the Decimal
 * chain's value (double-double.ts). Every text, sign and order an estimate does not decide (within
 * its error of a tie or of another sum) is taken from the exact values instead (`exact`), so the
 * answer is `allocation`'s, and the exact work is done for those alone.
 */
function estimatedAllocation(values: readonly DD[], weights: readonly Weights[], dim: Dimension, total: DD, err: number, exact: ExactDay): AllocationItem[] {
  const sums = estimateSums[dim];
  const met: number[] = [];
  try {
    for (let i = 0; i < values.length; i++) {
      const v = values[i]!;
      const ws = weights[i]!.estimates[dim];
      const ix = weights[i]!.index[dim];
      for (let j = 0; j < ws.length; j++) {
        const w = ws[j]!;
        const part = w === null ? v : ddMul(v, w);
        const k = ix[j]!;
        const before = sums[k];
        if (before === undefined) met.push(k);
        sums[k] = before === undefined ? part : ddAdd(before, part);
      }
    }
    const positive = total.hi > err || (!(total.hi < -err) && exact.total().m > 0n);
    const names = componentNames[dim];
    const amounts: [string, DD, number][] = met.map((k) => [names[k]!, sums[k]!, k]);
    // Two sums closer than both their errors are ordered by their exact values.
    amounts.sort(([a, x, i], [b, y, j]) => ddCompare(y, x, 2 * err) || cmp(exact.component(dim, j), exact.component(dim, i)) || a.localeCompare(b));
    const out: AllocationItem[] = [];
    for (const [name, amount, k] of amounts) {
      const text = ddWireText(amount, err) ?? wireText(exact.component(dim, k));
      const value = positive ? ddPercentText(amount, total, err) ?? percentOf(exact.component(dim, k), exact.total()) : null;
      out.push({ name, value, amount: text });
    }
    return out;
  } finally {
    for (const k of met) sums[k] = undefined;
  }
}

/** Error budget per operation on an estimate (double-double.ts: a few u² each, u = 2^-53). */
const ERROR_PER_OPERATION = 2 ** -96;

/**
 * The allocation-history points of one day, one per dimension (from the day's per-asset values):
 * from the values' estimates where they decide the text, from the exact values elsewhere (the same
 * text either way; `exactOnly` computes all of it exactly, for tests).
 */
export function allocationPoints(d: DayState, assets: ReadonlyMap<number, AssetInfo>, exactOnly = false): Record<Dimension, AllocationPoint> {
  const point = (components: Record<Dimension, AllocationItem[]>): Record<Dimension, AllocationPoint> => ({
    type: { date: d.date, components: components.type }, sector: { date: d.date, components: components.sector },
    geography: { date: d.date, components: components.geography },
  });
  if (!d.assetValues) return point({ type: [], sector: [], geography: [] });
  const estimate = exactOnly ? null : estimatedPoints(d, assets);
  if (estimate) return point(estimate);
  const items: Valued[] = [];
  let total = EXACT_ZERO;
  d.assetValues.exact().forEach((value, id) => {
    items.push({ weights: weightsOf(assets.get(id)!), value });
    total = plus(total, value);
  });
  return point({ type: allocation(items, "type", total), sector: allocation(items, "sector", total), geography: allocation(items, "geography", total) });
}

/**
 * The day's components from the values' estimates (`estimatedAllocation`); null when the error
 * bound is not a finite number (a value beyond the doubles' range: the exact path decides all).
 */
function estimatedPoints(d: DayState, assets: ReadonlyMap<number, AssetInfo>): Record<Dimension, AllocationItem[]> | null {
  const { ids, values, sizes } = d.assetValues!.estimate();
  const weights = ids.map((id) => weightsOf(assets.get(id)!));
  // Every intermediate of either chain is at most `bound` in size; each operation on it errs by
  // at most its budget of that, and there are at most `operations` of them.
  let bound = 0;
  let most = 1;
  let total = DD_ZERO;
  for (let i = 0; i < ids.length; i++) {
    total = ddAdd(total, values[i]!);
    bound += sizes[i]! * weights[i]!.spread;
    if (weights[i]!.count > most) most = weights[i]!.count;
  }
  // Per input (a held asset or a value in transit): 3 conversions, 2 products, a sum into its
  // asset's value and one into the total, then per dimension a product and a sum per weight
  // (2 × 3 × most): 7 + 6 × most, budgeted 16 + 8 × most.
  const operations = d.assetValues!.inputs * (16 + 8 * most) + 16;
  const err = bound * 1.01 * operations * ERROR_PER_OPERATION;
  if (!Number.isFinite(err) || !Number.isFinite(total.hi)) return null;
  const exact = new ExactDay(d, weights);
  return {
    type: estimatedAllocation(values, weights, "type", total, err, exact),
    sector: estimatedAllocation(values, weights, "sector", total, err, exact),
    geography: estimatedAllocation(values, weights, "geography", total, err, exact),
  };
}

function allocationHistory(days: DayState[], assets: Map<number, AssetInfo>): Record<Dimension, AllocationPoint[]> {
  const out: Record<Dimension, AllocationPoint[]> = { type: [], sector: [], geography: [] };
  for (const d of days) {
    const points = allocationPoints(d, assets);
    for (const dim of DIMENSIONS) out[dim].push(points[dim]);
  }
  return out;
}

function byBroker(r: ReplayResult, holdings: Holding[], brokerName: Map<number, string>): BrokerBreakdown[] {
  return [...brokerName.entries()].map(([id, name]) => {
    const byCcy = r.cash.get(id) ?? new Map<string, Decimal>();
    let cash = ZERO;
    for (const [ccy, a] of byCcy) cash = cash.plus(r.fx.convert(a, ccy, r.end, false) ?? ZERO);
    const positions = holdings.filter((h) => h.position.brokerId === id && h.value !== null).reduce((s, h) => s.plus(h.value!), ZERO);
    const netWorth = cash.plus(positions);
    const baseline = r.brokerBaseline.get(id) ?? ZERO;
    const gain = netWorth.minus(baseline);
    return {
      brokerId: id, brokerName: name, netWorth, gainLoss: gain, gainLossPercent: ratio(gain, baseline, true), cashTotal: cash,
      cashBalances: [...byCcy.entries()].filter(([, a]) => !a.isZero()).map(([code, amount]) => ({ code, amount })),
    };
  });
}

function contribution(r: ReplayResult, assets: Map<number, AssetInfo>, brokerName: Map<number, string>, holdings: Holding[]): PositionsContribution {
  const endValue = new Map(holdings.map((h) => [h.position, h.value]));
  let grossGains = ZERO;
  let grossLosses = ZERO;
  let allocated = ZERO;
  const positions = r.positions.filter((p) => p.everHeldInPeriod || !p.periodIncome.isZero() || !p.periodFeesTaxes.isZero()).map((p): ContributionRow => {
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
      assetId: p.assetId, assetName: asset.name, assetTicker: asset.ticker, assetType: asset.type, brokerId: p.brokerId,
      brokerName: brokerName.get(p.brokerId) ?? null, periodUnrealizedDelta: delta,
      periodRealizedGainLoss: p.periodRealized, periodIncome: p.periodIncome, periodFeesTaxes: p.periodFeesTaxes,
      periodPnl: pnl, periodPnlPercent: pnl ? ratio(pnl, base, true) : null,
      startValue, endValue: end, isFullySold: p.quantity.isZero(), oldestOpenLotDate: p.openedOn,
    };
  });
  const unallocated = [...r.unallocated.entries()].map(([id, u]) => {
    allocated = allocated.plus(u.income).minus(u.feesTaxes);
    return { brokerId: id, brokerName: brokerName.get(id) ?? null, unallocatedIncome: u.income, unallocatedFeesTaxes: u.feesTaxes };
  });
  const other = periodResult(r).periodPnl.minus(allocated);
  return {
    positions, unallocated,
    otherEffects: other.isZero() ? [] : [{ description: "FX effects on cash and unvalued positions", category: "Other", periodPnl: other }],
    grossGains, grossLosses, currency: r.fx.target,
  };
}
