/**
 * Names for the generated shapes the pages use, and the report fields the OpenAPI document
 * leaves open (`additionalProperties`) typed from docs/portfolio.md.
 */
import type { Result } from "./client.ts";

export type Broker = Result<"get", "/brokers">["items"][number];
export type BrokerSummary = Result<"get", "/brokers/{id}/summary">;
export type Asset = Result<"get", "/assets">[number];
export type Transaction = Result<"get", "/transactions">[number];
export type FxRoute = Result<"get", "/fx/providers/routes">[number];
export type Money = { code: string; amount: string };

type Report = Result<"post", "/portfolio/report">;
export type DataQualityIssue = NonNullable<Report["summary"]>["data_quality"]["issues"][number];

export interface Holding {
  asset_id: number; asset_name: string; asset_ticker: string | null; asset_type: string | null;
  broker_id: number; broker_name: string | null; quantity: string;
  current_value: string | null; open_cost_basis: string | null; gain_loss: string | null;
  gain_loss_percent: string | null; valuation_source: string;
}
export interface Allocation { name: string; value: string; amount: string }
export interface ReportSummary {
  net_worth: Money; total_invested: Money; total_gain_loss: Money; cash_total: Money; market_value: Money;
  period_pnl: Money; total_gain_loss_percent: string | null; twrr_percent: string | null;
  mwrr_annualized_percent: string | null; mwrr_cumulative_percent: string | null; mwrr_available: boolean;
  simple_roi_percent: string | null;
  allocation_by_type: Allocation[]; allocation_by_sector: Allocation[]; allocation_by_geography: Allocation[];
  holdings: Holding[];
  data_quality: { issues: DataQualityIssue[]; data_quality_status: string };
}
export interface HistoryPoint { date: string; nav_value: Money; capital_baseline: Money; twrr: string }
export interface Contribution {
  asset_id: number; asset_name: string; broker_id: number; broker_name: string | null;
  period_pnl: string | null; period_pnl_percent: string | null; end_value: string | null; is_fully_sold: boolean;
}
export interface ReportView {
  metadata: { target_currency: string; computed_date_from?: string; computed_date_to?: string };
  summary: ReportSummary | null;
  history: HistoryPoint[] | null;
  data_quality: { issues: DataQualityIssue[]; data_quality_status: string } | null;
  positions_contribution: { positions: Contribution[]; currency: string } | null;
}

/** The report as the pages read it. */
export function asReportView(r: Report): ReportView {
  return r as unknown as ReportView;
}
