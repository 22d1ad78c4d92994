/**
 * The report on the wire (docs/portfolio.md "Report"): the JSON `toReportDto` writes, field by
 * field. The API's response schema (host/api/portfolio/report.schema.ts) is checked against these
 * types at compile time, so the documented shape and the written one cannot drift apart.
 */
import type { DataQualityReport } from "./data-quality.calc.ts";

export type MoneyDto = { code: string; amount: string };

export type ReportMetadataDto = {
  broker_ids: number[] | null;
  target_currency: string;
  requested_date_from: string | null;
  requested_date_to: string | null;
  computed_date_from: string | null;
  computed_date_to: string | null;
  generated_at: string;
  allocation_dimensions: ("type" | "sector" | "geography")[];
  included_features: ("summary" | "history" | "allocation_history" | "breakdown" | "positions_contribution" | "period_returns" | "income_payments")[];
};

export type AllocationItemDto = { name: string; value: string; amount: string };

export type ValuationSource = "MARKET_PRICE" | "LAST_TRADE_PRICE" | "MISSING";

export type HoldingDto = {
  asset_id: number;
  asset_name: string;
  asset_ticker: string | null;
  asset_type: string | null;
  broker_id: number;
  broker_name: string | null;
  quantity: string;
  wac_per_unit: string | null;
  open_cost_basis: string | null;
  current_price: string | null;
  current_value: string | null;
  valuation_source: ValuationSource;
  valuation_effective_unit_price: string | null;
  valuation_effective_currency: string | null;
  valuation_reference_date: string | null;
  valuation_reference_unit_price: string | null;
  valuation_reference_currency: string | null;
  valuation_split_adjusted: boolean;
  missing_fx_pair: string | null;
  gain_loss: string | null;
  gain_loss_percent: string | null;
  annualized_return: string | null;
  oldest_open_lot_date: string | null;
  allocation_percent: string | null;
  nav_weight_percent: string | null;
};

export type BrokerBreakdownDto = {
  broker_id: number;
  broker_name: string;
  net_worth: MoneyDto;
  gain_loss: MoneyDto;
  gain_loss_percent: string | null;
  cash_total: MoneyDto;
  cash_balances: MoneyDto[];
};

export type ReportSummaryDto = {
  net_worth: MoneyDto;
  total_invested: MoneyDto;
  total_gain_loss: MoneyDto;
  total_gain_loss_percent: string | null;
  cash_total: MoneyDto;
  cash_balances: MoneyDto[];
  market_value: MoneyDto;
  in_transit_market_value: MoneyDto;
  open_cost_basis: MoneyDto;
  in_transit_book_value: MoneyDto;
  book_value: MoneyDto;
  unrealized_gain_loss: MoneyDto;
  total_deposited: MoneyDto;
  total_withdrawn: MoneyDto;
  net_deposited_capital: MoneyDto;
  total_income: MoneyDto;
  total_fees: MoneyDto;
  total_taxes: MoneyDto;
  realized_gain_loss: MoneyDto;
  period_nav_start: MoneyDto;
  period_market_value_start: MoneyDto;
  period_book_value_start: MoneyDto;
  period_net_flows: MoneyDto;
  period_pnl: MoneyDto;
  period_unrealized_gain_loss_start: MoneyDto;
  period_unrealized_gain_loss_end: MoneyDto;
  period_unrealized_gain_loss_delta: MoneyDto;
  period_realized_gain_loss: MoneyDto;
  period_income: MoneyDto;
  period_fees: MoneyDto;
  period_taxes: MoneyDto;
  period_fees_taxes: MoneyDto;
  period_other_result: MoneyDto;
  twrr_percent: string | null;
  mwrr_available: boolean;
  mwrr_annualized_percent: string | null;
  mwrr_cumulative_percent: string | null;
  mwrr_period_days: number;
  simple_roi_percent: string | null;
  allocation_by_type: AllocationItemDto[];
  allocation_by_sector: AllocationItemDto[];
  allocation_by_geography: AllocationItemDto[];
  holdings: HoldingDto[];
  by_broker: BrokerBreakdownDto[] | null;
  missing_fx_pairs: DataQualityReport["missing_fx_pairs"];
  missing_price_assets: DataQualityReport["missing_price_assets"];
  data_quality: DataQualityReport;
};

export type HistoryPointDto = {
  date: string;
  cash_value: MoneyDto;
  market_value: MoneyDto;
  in_transit_market_value: MoneyDto;
  nav_value: MoneyDto;
  open_cost_basis: MoneyDto;
  in_transit_book_value: MoneyDto;
  book_value: MoneyDto;
  capital_baseline: MoneyDto;
  book_asset_like: MoneyDto;
  cash_from_contributed_capital: MoneyDto;
  cash_from_generated_returns: MoneyDto;
  total_pnl: MoneyDto;
  unrealized_gain_loss: MoneyDto;
  twrr: string;
  mwrr_annualized: string | null;
  mwrr_cumulative: string | null;
  roi: string | null;
};

export type AllocationPointDto = { date: string; components: AllocationItemDto[] };

export type ContributionDto = {
  asset_id: number;
  asset_name: string;
  asset_ticker: string | null;
  asset_type: string | null;
  broker_id: number;
  broker_name: string | null;
  period_unrealized_delta: string | null;
  period_realized_gain_loss: string;
  period_income: string;
  period_fees_taxes: string;
  period_pnl: string | null;
  period_pnl_percent: string | null;
  start_value: string | null;
  end_value: string | null;
  is_fully_sold: boolean;
  oldest_open_lot_date: string | null;
};

export type PositionsContributionDto = {
  positions: ContributionDto[];
  unallocated: { broker_id: number; broker_name: string | null; unallocated_income: string; unallocated_fees_taxes: string }[];
  other_effects: { description: string; category: string; period_pnl: string }[];
  gross_gains: string;
  gross_losses: string;
  currency: string;
};

export type PeriodReturnDto = {
  period_begin: string;
  date_from: string;
  date_to: string;
  twrr_percent: string;
  mwrr_available: boolean;
  mwrr_annualized_percent: string | null;
  mwrr_cumulative_percent: string | null;
  mwrr_period_days: number;
};

export type PeriodReturnsDto = { month: PeriodReturnDto[]; quarter: PeriodReturnDto[]; year: PeriodReturnDto[] };

export type IncomePaymentDto = { date: string; type: "DIVIDEND" | "INTEREST"; broker_id: number; asset_id: number | null; amount: string | null };

export type ReportDto = {
  metadata: ReportMetadataDto;
  summary: ReportSummaryDto | null;
  history: HistoryPointDto[] | null;
  allocation_history: { type: AllocationPointDto[]; sector: AllocationPointDto[]; geography: AllocationPointDto[] } | null;
  data_quality: DataQualityReport;
  positions_contribution: PositionsContributionDto | null;
  period_returns: PeriodReturnsDto | null;
  income_payments: IncomePaymentDto[] | null;
};
