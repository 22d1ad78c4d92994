import { z } from "zod";
import type { DataQualityReport, MissingPriceAssetDto } from "../../../core/portfolio/data-quality.calc.ts";
import type {
  AllocationItemDto, BrokerBreakdownDto, ContributionDto, HistoryPointDto, HoldingDto, IncomePaymentDto, MoneyDto, PeriodReturnDto, PositionsContributionDto, ReportDto,
  ReportMetadataDto, ReportSummaryDto,
} from "../../../core/portfolio/report.wire.ts";
import { CurrencyField, DayField } from "../../http/fields.ts";
import type { Assert, SameShape } from "../../http/same-shape.ts";
import { DataQualityReportSchema, MissingPriceAsset, OpenDateRange } from "./portfolio-fields.ts";

/** Brokers per report (docs/security.md "Bulk-read limits"); beyond it 413 LIMIT_EXCEEDED. */
export const MAX_REPORT_BROKERS = 1000;

export const ReportRequest = z.object({
  broker_ids: z.array(z.number().int().positive()).max(MAX_REPORT_BROKERS).nullish(),
  date_range: OpenDateRange.nullish(),
  target_currency: CurrencyField.nullish(),
  include_summary: z.boolean().default(true),
  include_history: z.boolean().default(true),
  include_allocation_history: z.boolean().default(true),
  include_breakdown: z.boolean().default(false),
  include_positions_contribution: z.boolean().default(false),
  include_period_returns: z.boolean().default(false),
  include_income_payments: z.boolean().default(false),
}).strict();

/*
 * The response (docs/portfolio.md "Report"). The body is served as the bytes the worker wrote
 * (report.routes.ts), so these schemas are not run against it: they document it, and the
 * `SameShape` checks below fail the build when they and the writer's types (core/portfolio/
 * report.wire.ts) differ in any field (docs/decisions.md "Exact response schemas").
 */

const DEC = "a decimal string";
const Dec = (what: string) => z.string().describe(`${what}, ${DEC}`);
const OptDec = (what: string, whenNull: string) => z.string().nullable().describe(`${what}, ${DEC}; null ${whenNull}`);

export const Money = z.object({
  code: z.string().describe("Three-letter currency code (ISO 4217)"),
  amount: z.string().describe(`Amount, ${DEC}`),
}).meta({ id: "Money", description: "An amount of money {code, amount}" });
const M = (what: string) => Money.describe(what);

const Dimension = z.enum(["type", "sector", "geography"]);

export const ReportMetadata = z.object({
  broker_ids: z.array(z.number().int()).nullable().describe("Brokers in scope as requested; null for all the caller can read"),
  target_currency: z.string().describe("Currency every figure is in"),
  requested_date_from: DayField.nullable().describe("Start of the requested period; null when open"),
  requested_date_to: DayField.nullable().describe("End of the requested period; null when open"),
  computed_date_from: DayField.nullable().describe("First day computed; null when there is nothing to compute"),
  computed_date_to: DayField.nullable().describe("Last day computed; null when there is nothing to compute"),
  generated_at: z.string(),
  allocation_dimensions: z.array(Dimension).describe("Dimensions of the allocations"),
  included_features: z.array(z.enum(["summary", "history", "allocation_history", "breakdown", "positions_contribution", "period_returns", "income_payments"]))
    .describe("Sections computed for this answer"),
}).meta({ id: "ReportMetadata", description: "What was computed: scope, currency and dates" });

export const AllocationItem = z.object({
  name: z.string().describe("Class name (asset type, sector or country); Unknown when unclassified"),
  value: Dec("Percent of the valued positions"),
  amount: Dec("Value in the target currency"),
}).meta({ id: "AllocationItem", description: "One class of an allocation" });

export const ReportHolding = z.object({
  asset_id: z.number().int(),
  asset_name: z.string(),
  asset_ticker: z.string().nullable().describe("Ticker of the asset; null when it has none"),
  asset_type: z.string().nullable().describe("Type of the asset (STOCK, ETF, ...); null when not set"),
  broker_id: z.number().int(),
  broker_name: z.string().nullable().describe("Name of the broker; null when not known"),
  quantity: Dec("Units held"),
  wac_per_unit: OptDec("Weighted average cost of one unit in the target currency", "when not known"),
  open_cost_basis: OptDec("Cost of the open units in the target currency", "when not known"),
  current_price: OptDec("Price of one unit in the target currency", "without a price"),
  current_value: OptDec("Value of the position in the target currency", "without a price"),
  valuation_source: z.enum(["MARKET_PRICE", "LAST_TRADE_PRICE", "MISSING"]).describe("Where the valuation price came from"),
  valuation_effective_unit_price: OptDec("Unit price used, in the valuation currency", "without a price"),
  valuation_effective_currency: z.string().nullable().describe("Currency of the unit price used; null without a price"),
  valuation_reference_date: DayField.nullable().describe("Date of the price used; null without a price"),
  valuation_reference_unit_price: OptDec("Unit price as stored on that date", "without a price"),
  valuation_reference_currency: z.string().nullable().describe("Currency of the stored price; null without a price"),
  valuation_split_adjusted: z.boolean().describe("True when the stored price was adjusted for a later split"),
  missing_fx_pair: z.string().nullable().describe("FX pair FROM/TO missing to convert the value; null when none is missing"),
  gain_loss: OptDec("Value minus open cost", "when either is unknown"),
  gain_loss_percent: OptDec("Gain or loss in percent of the open cost", "when not computable"),
  annualized_return: OptDec("Annualised return (fraction)", "when not computable"),
  oldest_open_lot_date: DayField.nullable().describe("Date of the oldest open lot; null when not known"),
  allocation_percent: OptDec("Percent of the valued positions", "without a value"),
  nav_weight_percent: OptDec("Percent of the net worth", "without a value"),
}).meta({ id: "ReportHolding", description: "An open position at the end date" });

export const BrokerBreakdown = z.object({
  broker_id: z.number().int(),
  broker_name: z.string().describe("Name of the broker"),
  net_worth: M("Value of positions plus cash at the end date"),
  gain_loss: M("Total profit or loss of the broker"),
  gain_loss_percent: OptDec("Gain or loss in percent", "when not computable"),
  cash_total: M("Total cash in the target currency"),
  cash_balances: z.array(Money).describe("Cash per currency, original amounts"),
}).meta({ id: "BrokerBreakdown", description: "Totals of one broker (include_breakdown)" });

export const ReportSummary = z.object({
  net_worth: M("Value of positions plus cash at the end date"),
  total_invested: M("Capital baseline: money put in net of money taken out"),
  total_gain_loss: M("Total profit or loss"),
  total_gain_loss_percent: OptDec("Total profit or loss in percent of the capital invested", "when not computable"),
  cash_total: M("Total cash in the target currency"),
  cash_balances: z.array(Money).describe("Cash per currency, original amounts"),
  market_value: M("Value of the positions held at brokers"),
  in_transit_market_value: M("Value of the positions in transit between brokers"),
  open_cost_basis: M("Cost of the open positions"),
  in_transit_book_value: M("Book value of the positions in transit"),
  book_value: M("Book value of the positions"),
  unrealized_gain_loss: M("Unrealised profit or loss"),
  total_deposited: M("All deposits"),
  total_withdrawn: M("All withdrawals"),
  net_deposited_capital: M("Deposits minus withdrawals"),
  total_income: M("All income (dividends, interest)"),
  total_fees: M("All fees"),
  total_taxes: M("All taxes"),
  realized_gain_loss: M("Realised profit or loss"),
  period_nav_start: M("Net asset value at the start of the period"),
  period_market_value_start: M("Market value at the start of the period"),
  period_book_value_start: M("Book value at the start of the period"),
  period_net_flows: M("Net external flows of the period"),
  period_pnl: M("Profit or loss of the period: end NAV − start NAV − net flows"),
  period_unrealized_gain_loss_start: M("Unrealised profit or loss at the start of the period"),
  period_unrealized_gain_loss_end: M("Unrealised profit or loss at the end of the period"),
  period_unrealized_gain_loss_delta: M("Change of the unrealised profit or loss over the period"),
  period_realized_gain_loss: M("Realised profit or loss of the period (average cost)"),
  period_income: M("Income of the period"),
  period_fees: M("Fees of the period"),
  period_taxes: M("Taxes of the period"),
  period_fees_taxes: M("Fees and taxes of the period"),
  period_other_result: M("Rest of the period result: FX effects and unvalued positions"),
  twrr_percent: OptDec("Time-weighted return in percent", "when not computable"),
  mwrr_available: z.boolean(),
  mwrr_annualized_percent: OptDec("Money-weighted return, annualised, in percent", "when not computable"),
  mwrr_cumulative_percent: z.string().nullable(),
  mwrr_period_days: z.number().int().describe("Days the money-weighted return covers"),
  simple_roi_percent: OptDec("Total profit or loss in percent of the net deposited capital", "when not computable"),
  allocation_by_type: z.array(AllocationItem).describe("Allocation by asset type"),
  allocation_by_sector: z.array(AllocationItem).describe("Allocation by sector"),
  allocation_by_geography: z.array(AllocationItem).describe("Allocation by country"),
  holdings: z.array(ReportHolding),
  by_broker: z.array(BrokerBreakdown).nullable().describe("Totals per broker; null unless include_breakdown"),
  missing_fx_pairs: z.array(z.object({ pair: z.string().describe("Pair FROM/TO"), dates: z.array(DayField) })),
  missing_price_assets: z.array(MissingPriceAsset),
  data_quality: DataQualityReportSchema,
}).meta({ id: "ReportSummary", description: "Totals of the period (include_summary)" });

export const ReportHistoryPoint = z.object({
  date: DayField,
  cash_value: M("Cash"),
  market_value: M("Value of the positions held at brokers"),
  in_transit_market_value: M("Value of the positions in transit"),
  nav_value: M("Net asset value"),
  open_cost_basis: M("Cost of the open positions"),
  in_transit_book_value: M("Book value of the positions in transit"),
  book_value: M("Book value of the positions"),
  capital_baseline: M("Money put in net of money taken out, so far"),
  book_asset_like: M("Book value of the positions plus cash"),
  cash_from_contributed_capital: M("Cash that came from deposits"),
  cash_from_generated_returns: M("Cash that came from returns"),
  total_pnl: M("Profit or loss so far"),
  unrealized_gain_loss: M("Unrealised profit or loss"),
  twrr: Dec("Time-weighted return so far (fraction)"),
  mwrr_annualized: z.string().nullable(),
  mwrr_cumulative: z.string().nullable(),
  roi: OptDec("Profit or loss over the capital baseline (fraction)", "when the baseline is zero"),
}).meta({ id: "ReportHistoryPoint", description: "One day of the period" });

export const AllocationPoint = z.object({
  date: DayField,
  components: z.array(AllocationItem).describe("The classes on that day"),
}).meta({ id: "AllocationPoint", description: "The allocation of one day" });

export const ReportContribution = z.object({
  asset_id: z.number().int(),
  asset_name: z.string(),
  asset_ticker: z.string().nullable().describe("Ticker of the asset; null when it has none"),
  asset_type: z.string().nullable().describe("Type of the asset; null when not set"),
  broker_id: z.number().int(),
  broker_name: z.string().nullable().describe("Name of the broker; null when not known"),
  period_unrealized_delta: OptDec("Change of the unrealised profit or loss", "without a value"),
  period_realized_gain_loss: Dec("Realised profit or loss of the period"),
  period_income: Dec("Income of the period"),
  period_fees_taxes: Dec("Fees and taxes of the period"),
  period_pnl: OptDec("Profit or loss of the position in the period", "without a value"),
  period_pnl_percent: OptDec("Profit or loss in percent", "when not computable"),
  start_value: OptDec("Value at the start of the period", "without a value"),
  end_value: OptDec("Value at the end of the period", "without a value"),
  is_fully_sold: z.boolean().describe("True when the position was closed by the end of the period"),
  oldest_open_lot_date: DayField.nullable().describe("Date of the oldest open lot; null when none is open"),
}).meta({ id: "ReportContribution", description: "Contribution of one position to the period result" });

export const PositionsContribution = z.object({
  positions: z.array(ReportContribution).describe("One row per position held in the period"),
  unallocated: z.array(z.object({
    broker_id: z.number().int(),
    broker_name: z.string().nullable().describe("Name of the broker; null when not known"),
    unallocated_income: Dec("Income not tied to a position"),
    unallocated_fees_taxes: Dec("Fees and taxes not tied to a position"),
  })).describe("Income, fees and taxes of each broker not tied to a position"),
  other_effects: z.array(z.object({
    description: z.string().describe("What the effect is"),
    category: z.string().describe("Kind of the effect"),
    period_pnl: Dec("Its part of the period result"),
  })).describe("Parts of the period result not tied to a position (FX effects, ...)"),
  gross_gains: Dec("Sum of the positive contributions"),
  gross_losses: Dec("Sum of the negative contributions"),
  currency: z.string().describe("Currency of the figures"),
}).meta({ id: "PositionsContribution", description: "Contribution of each position to the result (include_positions_contribution)" });

export const PeriodReturn = z.object({
  period_begin: DayField.describe("First calendar day of the month, quarter or year"),
  date_from: DayField.describe("Close the returns chain from: the day before the period begins, or the first day computed"),
  date_to: DayField.describe("Last day of the period, or the last day computed"),
  twrr_percent: Dec("Time-weighted return from date_from to date_to in percent"),
  mwrr_available: z.boolean(),
  mwrr_annualized_percent: OptDec("Money-weighted return, annualised, in percent", "when not computable or under 30 days"),
  mwrr_cumulative_percent: OptDec("Money-weighted return over the period in percent", "when not computable"),
  mwrr_period_days: z.number().int().describe("Days the money-weighted return covers"),
}).meta({ id: "PeriodReturn", description: "Returns of one calendar period: the summary's figures of a report over date_from to date_to" });

export const PeriodReturns = z.object({
  month: z.array(PeriodReturn).describe("Each calendar month, oldest first"),
  quarter: z.array(PeriodReturn).describe("Each calendar quarter, oldest first"),
  year: z.array(PeriodReturn).describe("Each calendar year, oldest first"),
}).meta({ id: "PeriodReturns", description: "Returns per calendar period (include_period_returns)" });

export const IncomePayment = z.object({
  date: DayField,
  type: z.enum(["DIVIDEND", "INTEREST"]),
  broker_id: z.number().int(),
  asset_id: z.number().int().nullable().describe("Asset paying it; null for interest on cash"),
  amount: OptDec("Amount in the target currency at the caller's share", "when no rate converts it (counted as 0 in the totals)"),
}).meta({ id: "IncomePayment", description: "One dividend or interest payment, as the summary's total_income counts it" });

export const ReportResponse = z.object({
  metadata: ReportMetadata,
  summary: ReportSummary.nullable().describe("Totals of the period; null unless include_summary"),
  history: z.array(ReportHistoryPoint).nullable().describe("One point per day of the period; null unless include_history"),
  allocation_history: z.object({
    type: z.array(AllocationPoint).describe("By asset type"),
    sector: z.array(AllocationPoint).describe("By sector"),
    geography: z.array(AllocationPoint).describe("By country"),
  }).nullable().describe("Allocation per day; null unless include_allocation_history"),
  data_quality: DataQualityReportSchema,
  positions_contribution: PositionsContribution.nullable().describe("Contribution of each position; null unless include_positions_contribution"),
  income_payments: z.array(IncomePayment).nullable().describe("Every dividend and interest up to the end date, by date; null unless include_income_payments"),
  period_returns: PeriodReturns.nullable().describe("Returns per calendar month, quarter and year; null unless include_period_returns"),
});

/** The schemas above and the types the report is written from are one shape. */
export type ReportSchemaMatchesWriter = [
  Assert<SameShape<z.output<typeof Money>, MoneyDto>>,
  Assert<SameShape<z.output<typeof MissingPriceAsset>, MissingPriceAssetDto>>,
  Assert<SameShape<z.output<typeof DataQualityReportSchema>, DataQualityReport>>,
  Assert<SameShape<z.output<typeof ReportMetadata>, ReportMetadataDto>>,
  Assert<SameShape<z.output<typeof AllocationItem>, AllocationItemDto>>,
  Assert<SameShape<z.output<typeof ReportHolding>, HoldingDto>>,
  Assert<SameShape<z.output<typeof BrokerBreakdown>, BrokerBreakdownDto>>,
  Assert<SameShape<z.output<typeof ReportSummary>, ReportSummaryDto>>,
  Assert<SameShape<z.output<typeof ReportHistoryPoint>, HistoryPointDto>>,
  Assert<SameShape<z.output<typeof ReportContribution>, ContributionDto>>,
  Assert<SameShape<z.output<typeof PositionsContribution>, PositionsContributionDto>>,
  Assert<SameShape<z.output<typeof PeriodReturn>, PeriodReturnDto>>,
  Assert<SameShape<z.output<typeof IncomePayment>, IncomePaymentDto>>,
  Assert<SameShape<z.output<typeof ReportResponse>, ReportDto>>,
];
