/**
 * The typed result of the report calculation (`computeReport` in report.calc.ts): camelCase,
 * money and quantities as Decimal, returns as numbers. `report.dto.ts` maps it to the wire
 * (snake_case, decimal strings with at most 10 places). Data-quality issues are already in their
 * own contract shape (data-quality.calc.ts) and pass through unchanged.
 */
import type { Decimal } from "../money/decimal.ts";
import type { DataQualityIssue, DataQualityStatus, StalePrice } from "./data-quality.calc.ts";
import type { PeriodLength, PeriodReturn } from "./period-returns.calc.ts";
import type { ReportFlags } from "./report-input.ts";
import type { IncomePayment } from "./replay-ledger.ts";

export type Dimension = "type" | "sector" | "geography";

export interface ReportMetadata {
  allocationDimensions: Dimension[];
  brokerIds: number[] | null;
  computedDateFrom: string | null;
  computedDateTo: string | null;
  generatedAt: string;
  includedFeatures: (keyof ReportFlags)[];
  requestedDateFrom: string | null;
  requestedDateTo: string | null;
  targetCurrency: string;
}

export interface AllocationItem {
  /** Amount in the target currency as the wire writes it (10 decimals at most), from exact-decimal.ts. */
  amount: string;
  name: string;
  /**
   * Percent of the valued positions as the wire writes it (10 decimals at most), computed in
   * integers by allocation-percent.ts; null when nothing is valued.
   */
  value: string | null;
}

export interface HoldingRow {
  allocationPercent: Decimal | null;
  annualizedReturn: number | null;
  assetId: number;
  assetName: string;
  assetTicker: string | null;
  assetType: string | null;
  brokerId: number;
  brokerName: string | null;
  currentPrice: Decimal | null;
  currentValue: Decimal | null;
  gainLoss: Decimal | null;
  gainLossPercent: Decimal | null;
  missingFxPair: string | null;
  navWeightPercent: Decimal | null;
  oldestOpenLotDate: string | null;
  openCostBasis: Decimal | null;
  quantity: Decimal;
  valuationEffectiveCurrency: string | null;
  valuationEffectiveUnitPrice: Decimal | null;
  valuationReferenceCurrency: string | null;
  valuationReferenceDate: string | null;
  valuationReferenceUnitPrice: Decimal | null;
  valuationSource: "MARKET_PRICE" | "LAST_TRADE_PRICE" | "MISSING";
  valuationSplitAdjusted: boolean;
  wacPerUnit: Decimal | null;
}

export interface MissingPriceAsset {
  assetId: number;
  brokerId: number;
  brokerName: string | null;
  currency: string;
  firstPositionDate: string | null;
  name: string;
  openCostBasis: Decimal | null;
  quantity: Decimal;
  symbol: string | null;
}

export interface ReportDataQuality {
  incompleteNavDates: string[];
  issues: DataQualityIssue[];
  missingFxPairs: { dates: string[]; pair: string }[];
  missingPriceAssets: MissingPriceAsset[];
  stalePrices: StalePrice[];
  status: DataQualityStatus;
}

export interface BrokerBreakdown {
  brokerId: number;
  brokerName: string;
  cashBalances: { amount: Decimal; code: string }[];
  cashTotal: Decimal;
  gainLoss: Decimal;
  gainLossPercent: Decimal | null;
  netWorth: Decimal;
}

export interface ReportSummary {
  allocationByGeography: AllocationItem[];
  allocationBySector: AllocationItem[];
  allocationByType: AllocationItem[];
  bookValue: Decimal;
  byBroker: BrokerBreakdown[] | null;
  cashBalances: { amount: Decimal; code: string }[];
  cashTotal: Decimal;
  holdings: HoldingRow[];
  inTransitBookValue: Decimal;
  inTransitMarketValue: Decimal;
  marketValue: Decimal;
  mwrrAnnualizedPercent: number | null;
  mwrrAvailable: boolean;
  mwrrCumulativePercent: number | null;
  mwrrPeriodDays: number;
  netDepositedCapital: Decimal;
  netWorth: Decimal;
  openCostBasis: Decimal;
  periodBookValueStart: Decimal;
  periodFees: Decimal;
  periodFeesTaxes: Decimal;
  periodIncome: Decimal;
  periodMarketValueStart: Decimal;
  periodNavStart: Decimal;
  periodNetFlows: Decimal;
  periodOtherResult: Decimal;
  periodPnl: Decimal;
  periodRealizedGainLoss: Decimal;
  periodTaxes: Decimal;
  periodUnrealizedGainLossDelta: Decimal;
  periodUnrealizedGainLossEnd: Decimal;
  periodUnrealizedGainLossStart: Decimal;
  realizedGainLoss: Decimal;
  simpleRoiPercent: Decimal | null;
  totalDeposited: Decimal;
  totalFees: Decimal;
  totalGainLoss: Decimal;
  totalGainLossPercent: Decimal | null;
  totalIncome: Decimal;
  totalInvested: Decimal;
  totalTaxes: Decimal;
  totalWithdrawn: Decimal;
  twrrPercent: Decimal | null;
  unrealizedGainLoss: Decimal;
}

export interface HistoryPoint {
  bookAssetLike: Decimal;
  bookValue: Decimal;
  capitalBaseline: Decimal;
  cashFromContributedCapital: Decimal;
  cashFromGeneratedReturns: Decimal;
  cashValue: Decimal;
  date: string;
  inTransitBookValue: Decimal;
  inTransitMarketValue: Decimal;
  marketValue: Decimal;
  mwrrAnnualized: number | null;
  mwrrCumulative: number | null;
  navValue: Decimal;
  openCostBasis: Decimal;
  roi: Decimal | null;
  totalPnl: Decimal;
  twrr: Decimal;
  unrealizedGainLoss: Decimal;
}

export interface AllocationPoint {
  components: AllocationItem[];
  date: string;
}

export interface ContributionRow {
  assetId: number;
  assetName: string;
  assetTicker: string | null;
  assetType: string | null;
  brokerId: number;
  brokerName: string | null;
  endValue: Decimal | null;
  isFullySold: boolean;
  oldestOpenLotDate: string | null;
  periodFeesTaxes: Decimal;
  periodIncome: Decimal;
  periodPnl: Decimal | null;
  periodPnlPercent: Decimal | null;
  periodRealizedGainLoss: Decimal;
  periodUnrealizedDelta: Decimal | null;
  startValue: Decimal | null;
}

export interface PositionsContribution {
  currency: string;
  grossGains: Decimal;
  grossLosses: Decimal;
  otherEffects: { category: string; description: string; periodPnl: Decimal }[];
  positions: ContributionRow[];
  unallocated: { brokerId: number; brokerName: string | null; unallocatedFeesTaxes: Decimal; unallocatedIncome: Decimal }[];
}

export interface PortfolioReport {
  allocationHistory: Record<Dimension, AllocationPoint[]> | null;
  dataQuality: ReportDataQuality;
  history: HistoryPoint[] | null;
  metadata: ReportMetadata;
  /** Every income payment up to the end date, by date (flags.incomePayments). */
  incomePayments: IncomePayment[] | null;
  /** The returns of each calendar month, quarter and year, oldest first (flags.periodReturns). */
  periodReturns: Record<PeriodLength, PeriodReturn[]> | null;
  positionsContribution: PositionsContribution | null;
  summary: ReportSummary | null;
}
