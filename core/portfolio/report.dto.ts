/**
 * The wire form of a report (docs/portfolio.md "Report"): pure
 * mapping of the typed `PortfolioReport` to snake_case JSON with decimal strings. Runs in the
 * worker, right before serialisation.
 */
import { Decimal } from "../money/decimal.ts";
import { decimalParts } from "./allocation-percent.ts";
import { wireText } from "./exact-decimal.ts";
import type { DataQualityReport } from "./data-quality.calc.ts";
import type { PeriodReturn } from "./period-returns.calc.ts";
import type {
  AllocationItem, AllocationPoint, BrokerBreakdown, ContributionRow, HistoryPoint, HoldingRow, PortfolioReport, ReportDataQuality, ReportSummary,
} from "./report.types.ts";
import type {
  AllocationItemDto, AllocationPointDto, BrokerBreakdownDto, ContributionDto, HistoryPointDto, HoldingDto, MoneyDto, PeriodReturnDto, ReportDto,
  ReportSummaryDto,
} from "./report.wire.ts";

/**
 * Money and returns on the wire: at most 10 decimals (half-even), no trailing zeros, "0" for
 * zero. The text decimal.js's `toDecimalPlaces(10)` then `toFixed()` writes, made from the
 * Decimal's digits with one BigInt division (exact-decimal.ts `wireText`): 1.3–2× faster on the
 * 34-digit figures of every history point (docs/decisions.md, "Where a cold report's time goes").
 */
export function dec(d: Decimal): string {
  if (!d.isFinite()) return d.toFixed();
  return wireText(decimalParts(d));
}

/** A float statistic: never NaN or Infinity on the wire. */
export function num(x: number | null): string | null {
  return x === null || !Number.isFinite(x) ? null : dec(new Decimal(x));
}

const opt = (d: Decimal | null): string | null => (d === null ? null : dec(d));

const FEATURE_NAMES = {
  summary: "summary", history: "history", allocationHistory: "allocation_history", breakdown: "breakdown",
  positionsContribution: "positions_contribution", periodReturns: "period_returns", incomePayments: "income_payments",
} as const;

type Money = MoneyDto;

export function toReportDto(r: PortfolioReport): ReportDto {
  const code = r.metadata.targetCurrency;
  const money = (d: Decimal): Money => ({ code, amount: dec(d) });
  const dataQuality = dataQualityDto(r.dataQuality);
  const m = r.metadata;
  return {
    metadata: {
      broker_ids: m.brokerIds, target_currency: m.targetCurrency, requested_date_from: m.requestedDateFrom, requested_date_to: m.requestedDateTo,
      computed_date_from: m.computedDateFrom, computed_date_to: m.computedDateTo, generated_at: m.generatedAt,
      allocation_dimensions: m.allocationDimensions, included_features: m.includedFeatures.map((f) => FEATURE_NAMES[f]),
    },
    summary: r.summary ? summaryDto(r.summary, money, dataQuality) : null,
    history: r.history ? historyWire(r.history, code) : null,
    allocation_history: r.allocationHistory ? {
      type: r.allocationHistory.type.map(allocationPointDto),
      sector: r.allocationHistory.sector.map(allocationPointDto),
      geography: r.allocationHistory.geography.map(allocationPointDto),
    } : null,
    data_quality: dataQuality,
    positions_contribution: r.positionsContribution ? {
      positions: r.positionsContribution.positions.map(contributionDto),
      unallocated: r.positionsContribution.unallocated.map((u) => ({
        broker_id: u.brokerId, broker_name: u.brokerName, unallocated_income: dec(u.unallocatedIncome), unallocated_fees_taxes: dec(u.unallocatedFeesTaxes),
      })),
      other_effects: r.positionsContribution.otherEffects.map((o) => ({ description: o.description, category: o.category, period_pnl: dec(o.periodPnl) })),
      gross_gains: dec(r.positionsContribution.grossGains), gross_losses: dec(r.positionsContribution.grossLosses),
      currency: r.positionsContribution.currency,
    } : null,
    income_payments: r.incomePayments ? r.incomePayments.map((p) => ({
      date: p.date, type: p.type as "DIVIDEND" | "INTEREST", broker_id: p.brokerId, asset_id: p.assetId, amount: opt(p.amount),
    })) : null,
    period_returns: r.periodReturns ? {
      month: r.periodReturns.month.map(periodReturnDto), quarter: r.periodReturns.quarter.map(periodReturnDto), year: r.periodReturns.year.map(periodReturnDto),
    } : null,
  };
}

/** One period's returns, written as the summary writes its own (`summaryDto`). */
function periodReturnDto(p: PeriodReturn): PeriodReturnDto {
  const ok = p.mwrr.rate !== null;
  return {
    period_begin: p.begins, date_from: p.start, date_to: p.end, twrr_percent: dec(p.twrrPercent), mwrr_available: ok,
    mwrr_annualized_percent: num(ok && p.mwrr.annualized !== null ? p.mwrr.annualized * 100 : null),
    mwrr_cumulative_percent: num(ok ? p.mwrr.cumulative! * 100 : null), mwrr_period_days: p.mwrr.days,
  };
}

function dataQualityDto(q: ReportDataQuality): DataQualityReport {
  return {
    issues: q.issues,
    data_quality_status: q.status,
    missing_price_assets: q.missingPriceAssets.map((a) => ({
      asset_id: a.assetId, symbol: a.symbol, name: a.name, broker_id: a.brokerId, broker_name: a.brokerName, first_position_date: a.firstPositionDate,
      quantity: dec(a.quantity), open_cost_basis: opt(a.openCostBasis), currency: a.currency,
    })),
    missing_fx_pairs: q.missingFxPairs,
    stale_prices: q.stalePrices,
    incomplete_nav_dates: q.incompleteNavDates,
  };
}

function allocationPointDto(p: AllocationPoint): AllocationPointDto {
  return { date: p.date, components: p.components.map(allocationDto) };
}

/** Component names as JSON strings, written once each. */
const nameTexts = new Map<string, string>();

/**
 * One allocation-history point as JSON text, as `toReportDto` writes it (`JSON.stringify` of the
 * wire point), written without the wire objects: the values and amounts are decimal texts (digits,
 * a sign and a point: nothing to escape), the names are escaped once.
 */
export function allocationPointText(p: AllocationPoint): string {
  let out = `{"date":${JSON.stringify(p.date)},"components":[`;
  for (let i = 0; i < p.components.length; i++) {
    const c = p.components[i]!;
    let name = nameTexts.get(c.name);
    if (name === undefined) {
      // Names are the users' own: the cache is bounded.
      if (nameTexts.size >= 10_000) nameTexts.clear();
      nameTexts.set(c.name, name = JSON.stringify(c.name));
    }
    out += `${i > 0 ? "," : ""}{"name":${name},"value":"${c.value ?? "0"}","amount":"${c.amount}"}`;
  }
  return `${out}]}`;
}

function allocationDto(a: AllocationItem): AllocationItemDto {
  return { name: a.name, value: a.value ?? "0", amount: a.amount };
}

function holdingDto(h: HoldingRow): HoldingDto {
  return {
    asset_id: h.assetId, asset_name: h.assetName, asset_ticker: h.assetTicker, asset_type: h.assetType,
    broker_id: h.brokerId, broker_name: h.brokerName, quantity: dec(h.quantity), wac_per_unit: opt(h.wacPerUnit), open_cost_basis: opt(h.openCostBasis),
    current_price: opt(h.currentPrice), current_value: opt(h.currentValue), valuation_source: h.valuationSource,
    valuation_effective_unit_price: opt(h.valuationEffectiveUnitPrice), valuation_effective_currency: h.valuationEffectiveCurrency,
    valuation_reference_date: h.valuationReferenceDate, valuation_reference_unit_price: opt(h.valuationReferenceUnitPrice),
    valuation_reference_currency: h.valuationReferenceCurrency, valuation_split_adjusted: h.valuationSplitAdjusted, missing_fx_pair: h.missingFxPair,
    gain_loss: opt(h.gainLoss), gain_loss_percent: opt(h.gainLossPercent), annualized_return: num(h.annualizedReturn),
    oldest_open_lot_date: h.oldestOpenLotDate, allocation_percent: opt(h.allocationPercent), nav_weight_percent: opt(h.navWeightPercent),
  };
}

function brokerDto(b: BrokerBreakdown, money: (d: Decimal) => Money): BrokerBreakdownDto {
  return {
    broker_id: b.brokerId, broker_name: b.brokerName, net_worth: money(b.netWorth), gain_loss: money(b.gainLoss), gain_loss_percent: opt(b.gainLossPercent),
    cash_total: money(b.cashTotal), cash_balances: b.cashBalances.map((c) => ({ code: c.code, amount: dec(c.amount) })),
  };
}

function summaryDto(s: ReportSummary, money: (d: Decimal) => Money, dataQuality: DataQualityReport): ReportSummaryDto {
  return {
    net_worth: money(s.netWorth),
    total_invested: money(s.totalInvested),
    total_gain_loss: money(s.totalGainLoss),
    total_gain_loss_percent: opt(s.totalGainLossPercent),
    cash_total: money(s.cashTotal),
    cash_balances: s.cashBalances.map((c) => ({ code: c.code, amount: dec(c.amount) })),
    market_value: money(s.marketValue),
    in_transit_market_value: money(s.inTransitMarketValue),
    open_cost_basis: money(s.openCostBasis),
    in_transit_book_value: money(s.inTransitBookValue),
    book_value: money(s.bookValue),
    unrealized_gain_loss: money(s.unrealizedGainLoss),
    total_deposited: money(s.totalDeposited),
    total_withdrawn: money(s.totalWithdrawn),
    net_deposited_capital: money(s.netDepositedCapital),
    total_income: money(s.totalIncome),
    total_fees: money(s.totalFees),
    total_taxes: money(s.totalTaxes),
    realized_gain_loss: money(s.realizedGainLoss),
    period_nav_start: money(s.periodNavStart),
    period_market_value_start: money(s.periodMarketValueStart),
    period_book_value_start: money(s.periodBookValueStart),
    period_net_flows: money(s.periodNetFlows),
    period_pnl: money(s.periodPnl),
    period_unrealized_gain_loss_start: money(s.periodUnrealizedGainLossStart),
    period_unrealized_gain_loss_end: money(s.periodUnrealizedGainLossEnd),
    period_unrealized_gain_loss_delta: money(s.periodUnrealizedGainLossDelta),
    period_realized_gain_loss: money(s.periodRealizedGainLoss),
    period_income: money(s.periodIncome),
    period_fees: money(s.periodFees),
    period_taxes: money(s.periodTaxes),
    period_fees_taxes: money(s.periodFeesTaxes),
    period_other_result: money(s.periodOtherResult),
    twrr_percent: opt(s.twrrPercent),
    mwrr_available: s.mwrrAvailable,
    mwrr_annualized_percent: num(s.mwrrAnnualizedPercent),
    mwrr_cumulative_percent: num(s.mwrrCumulativePercent),
    mwrr_period_days: s.mwrrPeriodDays,
    simple_roi_percent: opt(s.simpleRoiPercent),
    allocation_by_type: s.allocationByType.map(allocationDto),
    allocation_by_sector: s.allocationBySector.map(allocationDto),
    allocation_by_geography: s.allocationByGeography.map(allocationDto),
    holdings: s.holdings.map(holdingDto),
    by_broker: s.byBroker ? s.byBroker.map((b) => brokerDto(b, money)) : null,
    missing_fx_pairs: dataQuality.missing_fx_pairs,
    missing_price_assets: dataQuality.missing_price_assets,
    data_quality: dataQuality,
  };
}

/** The wire keys of a history point, in order, and the point's figure each is written from. */
const HISTORY_FIELDS: readonly [key: Exclude<keyof HistoryPointDto, "date">, figure: (p: HistoryPoint) => Decimal | number | null, kind: "money" | "dec" | "num" | "opt"][] = [
  ["cash_value", (p) => p.cashValue, "money"],
  ["market_value", (p) => p.marketValue, "money"],
  ["in_transit_market_value", (p) => p.inTransitMarketValue, "money"],
  ["nav_value", (p) => p.navValue, "money"],
  ["open_cost_basis", (p) => p.openCostBasis, "money"],
  ["in_transit_book_value", (p) => p.inTransitBookValue, "money"],
  ["book_value", (p) => p.bookValue, "money"],
  ["capital_baseline", (p) => p.capitalBaseline, "money"],
  ["book_asset_like", (p) => p.bookAssetLike, "money"],
  ["cash_from_contributed_capital", (p) => p.cashFromContributedCapital, "money"],
  ["cash_from_generated_returns", (p) => p.cashFromGeneratedReturns, "money"],
  ["total_pnl", (p) => p.totalPnl, "money"],
  ["unrealized_gain_loss", (p) => p.unrealizedGainLoss, "money"],
  ["twrr", (p) => p.twrr, "dec"],
  ["mwrr_annualized", (p) => p.mwrrAnnualized, "num"],
  ["mwrr_cumulative", (p) => p.mwrrCumulative, "num"],
  ["roi", (p) => p.roi, "opt"],
];

/**
 * Writes each history point straight as its JSON text (the text `JSON.stringify` gives for the
 * wire point of `toReportDto`), in `code`, without building the wire objects: a 10-year daily
 * history is 3,653 points of 17 figures (docs/decisions.md, "Memory, third pass"). A figure that is
 * the same object as the point before reuses its text (positions change on transaction days only).
 */
export function historyPointWriter(code: string): (p: HistoryPoint) => string {
  const money = `{"code":${JSON.stringify(code)},"amount":"`;
  const prefixes = HISTORY_FIELDS.map(([key], i) => `${i === 0 ? "" : ","}"${key}":`);
  const lastFigure: (Decimal | number | null | undefined)[] = HISTORY_FIELDS.map(() => undefined);
  const lastText: string[] = HISTORY_FIELDS.map(() => "");
  return (p) => {
    let out = `{"date":${JSON.stringify(p.date)},`;
    for (let i = 0; i < HISTORY_FIELDS.length; i++) {
      const [, figure, kind] = HISTORY_FIELDS[i]!;
      const f = figure(p);
      if (f !== lastFigure[i]) {
        let text: string;
        if (kind === "money") text = `${money}${dec(f as Decimal)}"}`;
        else if (kind === "dec") text = `"${dec(f as Decimal)}"`;
        else {
          const v = kind === "num" ? num(f as number | null) : opt(f as Decimal | null);
          text = v === null ? "null" : `"${v}"`;
        }
        lastFigure[i] = f;
        lastText[i] = text;
      }
      out += prefixes[i]! + lastText[i]!;
    }
    return `${out}}`;
  };
}

/** History points on the wire (as in `toReportDto`), in `code`: parsed from their JSON text, so both forms are one writer. */
export function historyWire(points: HistoryPoint[], code: string): HistoryPointDto[] {
  const write = historyPointWriter(code);
  return points.map((p) => JSON.parse(write(p)) as HistoryPointDto);
}

function contributionDto(c: ContributionRow): ContributionDto {
  return {
    asset_id: c.assetId, asset_name: c.assetName, asset_ticker: c.assetTicker, asset_type: c.assetType, broker_id: c.brokerId,
    broker_name: c.brokerName, period_unrealized_delta: opt(c.periodUnrealizedDelta),
    period_realized_gain_loss: dec(c.periodRealizedGainLoss), period_income: dec(c.periodIncome), period_fees_taxes: dec(c.periodFeesTaxes),
    period_pnl: opt(c.periodPnl), period_pnl_percent: opt(c.periodPnlPercent),
    start_value: opt(c.startValue), end_value: opt(c.endValue), is_fully_sold: c.isFullySold,
    oldest_open_lot_date: c.oldestOpenLotDate,
  };
}
