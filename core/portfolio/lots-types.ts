/**
 * The FIFO lots analysis' worker input (plain strings and objects: structured cloning drops
 * Decimal prototypes) and its result, already in wire shape (docs/portfolio-lots.md).
 */
import type { CtaAction, MessageParams, MissingPriceAssetDto, StalePrice } from "./data-quality.calc.ts";

export const LOT_ANALYSES = [
  "LOT_SUMMARY", "GANTT_TOPOLOGY", "CUSTODY_HISTORY", "EVENT_HISTORY", "VALUE_HISTORY", "RETURN_HISTORY",
  "PRICE_HISTORY", "BROKER_WAC_HISTORY", "CUMULATIVE_WAC_HISTORY", "PERFORMANCE_HISTORY", "INCOME_EVENTS",
] as const;
export type LotAnalysisType = (typeof LOT_ANALYSES)[number];

/** One ledger row of the analysed asset in a broker of the scope; decimals as strings, unweighted. */
export interface LotTx {
  amount: string | null;
  assetEventId: number | null;
  brokerId: number;
  costBasisCurrency: string | null;
  costBasisOverride: string | null;
  currency: string | null;
  date: string;
  id: number;
  quantity: string;
  relatedTransactionId: number | null;
  type: string;
}

/** One leg of a route: `from`→`to` over the stored series of the alphabetical pair (oldest first). */
export interface LotFxLeg {
  dates: string[];
  from: string;
  rates: string[];
  to: string;
}

/** How a currency converts into the target: its routes by priority (legs each). */
export interface LotFxSource {
  /** True when the pair has configured routes, or manual rates when it has none. */
  configured: boolean;
  from: string;
  /** True when some configured route uses a non-MANUAL provider. */
  hasProviderRoute: boolean;
  routes: LotFxLeg[][];
}

export interface LotsInput {
  analyses: LotAnalysisType[];
  asset: { currency: string; id: number; name: string; quoteBaseQuantity: string };
  /** Brokers of the scope with the caller's aggregation scale. */
  brokers: { id: number; scale: string }[];
  fx: LotFxSource[];
  generatedAt: string;
  period: { end: string; requestedEnd: string | null; requestedStart: string | null; start: string };
  /** Quotes of the asset (`close`, asset currency, per `quoteBaseQuantity` units), oldest first. */
  prices: { close: string; date: string }[];
  selectedLotIds: number[] | null;
  /** Ids of the asset's SPLIT events: an ADJUSTMENT linked to one rescales lots. */
  splitEventIds: number[];
  targetCurrency: string;
  /** Rows of the asset in the scope's brokers up to the end date, sorted by (date, id). */
  transactions: LotTx[];
}

export type Severity = "error" | "warning" | "info";

export interface DataQualityIssue {
  affected_asset_ids: number[];
  affected_asset_names: string[];
  affected_fx_pairs: string[];
  code: string;
  count: number;
  cta_action: CtaAction | null;
  cta_target: string | null;
  date_range: { end: string; start: string } | null;
  domain: "portfolio";
  group: string | null;
  message_i18n_key: string;
  message_params: MessageParams;
  severity: Severity;
}

export interface LotsDataQuality {
  data_quality_status: "ok" | "carried_forward" | "partial";
  incomplete_nav_dates: string[];
  issues: DataQualityIssue[];
  missing_fx_pairs: { dates: string[]; pair: string }[];
  missing_price_assets: MissingPriceAssetDto[];
  stale_prices: StalePrice[];
}

export interface CustodyEntry {
  broker_id: number | null;
  custody_type: "BROKER" | "IN_TRANSIT";
  quantity: string;
}

export interface LotRow {
  allocated_fees: string;
  allocated_taxes: string;
  annualized_return: string | null;
  asset_id: number;
  asset_income: string;
  cash_yield: string | null;
  closing_date: string | null;
  cumulative_proceeds: string | null;
  currency: string;
  current_custody: CustodyEntry[];
  direction: "LONG" | "SHORT";
  lot_id: number;
  market_pnl: string | null;
  net_metrics_status: "AVAILABLE" | "UNAVAILABLE";
  net_total_pnl: string | null;
  net_total_return: string | null;
  open_quantity: string;
  open_value: string | null;
  opening_broker_id: number;
  opening_date: string;
  opening_transaction_id: number;
  opening_unit_price: string | null;
  original_cost: string | null;
  original_quantity: string;
  pnl: string | null;
  realized_pnl: string | null;
  realized_quantity: string;
  reference_price_source: "exact" | "fallback" | "unavailable";
  reference_unit_price: string | null;
  relative_return: string | null;
  states: ("OPEN" | "PARTIALLY_CLOSED" | "CLOSED" | "IN_TRANSIT" | "TRANSFERRED")[];
  total_pnl: string | null;
  total_return: string | null;
  total_value: string | null;
  value_source: "MARKET_PRICE" | "ESTIMATED_AT_COST" | null;
}

export interface LotEventRow {
  amount: string | null;
  broker_id: number | null;
  date: string;
  from_broker_id: number | null;
  kind: "BUY" | "SELL" | "ADJUSTMENT_IN" | "ADJUSTMENT_OUT" | "SPLIT" | "TRANSFER_DEPART" | "TRANSFER_ARRIVE";
  lot_id: number;
  quantity: string;
  realized_pnl: string | null;
  split_ratio: string | null;
  to_broker_id: number | null;
  transaction_id: number;
  unit_price: string | null;
}

export interface LotsResult {
  asset_id: number;
  asset_orphan_fees: string;
  asset_orphan_income: string;
  asset_orphan_taxes: string;
  broker_wac_history: { broker_id: number; date: string; quantity: string; total_cost: string | null; wac_per_unit: string | null }[] | null;
  calculation_metadata: {
    broker_ids: number[];
    computed_date_from: string;
    computed_date_to: string;
    generated_at: string;
    requested_analyses: LotAnalysisType[];
    requested_date_from: string | null;
    requested_date_to: string | null;
    selected_lot_ids: number[] | null;
  };
  calculation_status: "COMPLETE" | "DEGRADED" | "FAILED";
  cumulative_wac_history: { date: string; quantity: string; total_cost: string | null; wac_per_unit: string | null }[] | null;
  custody_history: { custody: CustodyEntry[]; date: string; lot_id: number }[] | null;
  data_quality: LotsDataQuality;
  economic_allocation_groups: null;
  gantt_segments: {
    broker_id: number | null; custody_type: "BROKER" | "IN_TRANSIT"; end_date: string | null; lot_id: number; quantity: string; start_date: string;
  }[] | null;
  income_events: {
    allocations: { amount: string; lot_id: number }[]; amount: string | null; broker_id: number; date: string;
    orphan: boolean; original_amount: { amount: string; code: string }; transaction_id: number; type: "DIVIDEND" | "INTEREST" | "FEE" | "TAX";
  }[] | null;
  lot_events: LotEventRow[] | null;
  lots: LotRow[] | null;
  performance_history: { cumulative_net_flow: string; date: string; net_flow: string; twrr: string; value: string }[] | null;
  price_history: { date: string; price: string | null; price_date: string | null; source: "MARKET_PRICE" | "MISSING"; unit_price_asset_currency: string | null }[] | null;
  quote_base_quantity: string;
  return_history: {
    date: string; fees_taxes: string; income: string; invested: string | null; realized_pnl: string | null;
    total_pnl: string | null; total_return: string | null; unrealized_pnl: string | null;
  }[] | null;
  target_currency: string;
  value_history: {
    cost_basis: string | null; date: string; in_transit_quantity: string; market_value: string | null; quantity: string;
    unrealized_pnl: string | null; value_source: "MARKET_PRICE" | "ESTIMATED_AT_COST" | "MISSING";
  }[] | null;
}
