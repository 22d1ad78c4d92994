/**
 * The report fields the holdings, performance and income pages read, narrowed from the generated
 * report type where the OpenAPI document leaves them open (`additionalProperties`). Each shape is
 * the generated one intersected with the fields docs/portfolio.md lists, so once the document
 * types them the intersection adds nothing. Kept to these pages; nothing else relies on it.
 */
import type { Result } from "../api/client.ts";

export type Report = Result<"post", "/portfolio/report">;
type Summary = NonNullable<Report["summary"]>;
type Money = { code: string; amount: string };

/** One open position (asset × broker) of `summary.holdings`. */
export type HoldingFields = Summary["holdings"][number] & {
  asset_name: string; asset_type: string | null; broker_id: number; broker_name: string | null;
  wac_per_unit: string | null; open_cost_basis: string | null; current_price: string | null; current_value: string | null;
  valuation_source: string; valuation_reference_date: string | null; gain_loss: string | null; gain_loss_percent: string | null;
  nav_weight_percent: string | null; allocation_percent: string | null;
};

/** One position of `positions_contribution.positions` (open and fully sold ones). */
export interface ContributionFields {
  asset_id: number; asset_name: string; asset_type: string | null; broker_id: number; broker_name: string | null;
  period_unrealized_delta: string | null; period_realized_gain_loss: string; period_income: string; period_fees_taxes: string;
  period_pnl: string | null; end_value: string | null; is_fully_sold: boolean;
}

export type SummaryFields = Summary & {
  unrealized_gain_loss: Money; realized_gain_loss: Money; total_income: Money; open_cost_basis: Money; total_invested: Money;
  period_income: Money; period_pnl: Money; mwrr_annualized_percent: string | null; mwrr_period_days: number;
  simple_roi_percent: string | null;
};

export type HistoryFields = NonNullable<Report["history"]>[number] & { capital_baseline: Money; market_value: Money };

export interface ContributionSection {
  positions: ContributionFields[];
  unallocated: { broker_id: number; broker_name: string | null; unallocated_income: string; unallocated_fees_taxes: string }[];
  currency: string;
}

export interface ReportFields {
  metadata: Report["metadata"] & { computed_date_from: string | null; computed_date_to: string | null };
  summary: SummaryFields | null;
  history: HistoryFields[] | null;
  data_quality: Report["data_quality"];
  positions_contribution: ContributionSection | null;
}

/** The report as these pages read it. */
export function reportFields(r: Report): ReportFields {
  return r as unknown as ReportFields;
}
