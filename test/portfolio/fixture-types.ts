/**
 * The shape of a hand-checked portfolio fixture (test/fixtures/portfolios/*.ts).
 *
 * Fixtures are plain objects. Every expected number in them is written out as arithmetic in the
 * fixture file itself; nothing here or in the fixture imports project code (core/, host/). Server
 * ids are unknown when a fixture is written, so assets, brokers and events are named by a key and
 * referred to with `asset("key")` (resolved to the server's id by the runner).
 */

export type Money = { code: string; amount: string };

/** A placeholder for the server id of the asset with this key (resolved by the runner). */
export const asset = (key: string) => `@asset:${key}`;
/** A placeholder for the server id of the broker with this key. */
export const broker = (key: string) => `@broker:${key}`;
/** In expected issue params: any string value (the docs name the param but not its values). */
export const ANY_STRING = "@any-string";

export interface UserSetup {
  key: string;
}

export interface AccessSetup {
  user: string;
  role: "OWNER" | "EDITOR" | "VIEWER";
  /** OWNER share as a decimal in [0, 1]. */
  share?: string;
}

export interface BrokerSetup {
  key: string;
  name: string;
  /** The user who creates it (OWNER, share 1.000000 until `owner_share` or access rows change it). */
  owner: string;
  owner_share?: string;
  access?: AccessSetup[];
  allow_cash_overdraft?: boolean;
  allow_asset_shorting?: boolean;
}

export interface AssetSetup {
  key: string;
  name: string;
  currency: string;
  /** Units a quote refers to (a bond quoted per 100): the unit price is close / quote_base_quantity. */
  quote_base_quantity?: string;
  /** Assigns a (network, offline in tests) quote provider: the asset is then not "manual". */
  provider?: { code: string; identifier: string; identifier_type: string };
  /** Manual daily closes (POST /assets/prices). */
  prices?: { date: string; close: string }[];
  /** Manual asset events (POST /assets/events); `key` lets a transaction link to it. */
  events?: { key: string; date: string; type: "SPLIT" | "DIVIDEND"; value: string }[];
}

export interface FxSetup {
  /** POST /fx/providers/routes items. */
  routes?: { base: string; quote: string; priority: number; chain_steps: { from: string; to: string; provider: string }[] }[];
  /** Rates of a real provider, stored as a sync would (the providers are offline in tests: SQL). */
  provider_rates?: { base: string; quote: string; provider: string; date: string; rate: string }[];
  /** POST /fx/currencies/rate items. */
  manual_rates?: { date: string; base: string; quote: string; rate: string }[];
}

export interface TxSetup {
  broker: string;
  type: string;
  date: string;
  asset?: string;
  quantity?: string;
  cash?: Money;
  /** Pairs: both legs carry the same link key. */
  link?: string;
  cost_basis_override?: Money;
  cost_basis_mode?: "manual" | "auto";
  /** Key of an asset event (linked through asset_event_id). */
  event?: string;
  description?: string;
}

/** A ledger row the API refuses on purpose (e.g. an inbound ADJUSTMENT without a cost basis): inserted by SQL. */
export interface SqlTxSetup {
  broker: string;
  type: string;
  date: string;
  asset?: string;
  quantity: string;
  cash?: Money;
}

export interface ReportRequest {
  broker_ids?: string[];
  date_range: { start?: string; end: string };
  target_currency: string;
  include_summary?: boolean;
  include_history?: boolean;
  include_allocation_history?: boolean;
}

/** A dated cash-flow table for XIRR: −NAV_start on the start date, −F_t, +NAV_end on the end date. */
export type FlowTable = [date: string, amount: number][];

export interface ExpectedMwrr {
  /** The flow table of the MWRR; the runner solves it (its own bisection) and derives the figures. */
  flows: FlowTable;
}

export interface ExpectedSummary {
  /** Money fields (compared on `.amount`, currency = target). null = the field is null. */
  net_worth?: number;
  cash_total?: number;
  market_value?: number;
  in_transit_market_value?: number;
  open_cost_basis?: number;
  total_invested?: number;
  total_gain_loss?: number;
  realized_gain_loss?: number;
  unrealized_gain_loss?: number;
  total_income?: number;
  total_fees?: number;
  total_taxes?: number;
  period_nav_start?: number;
  period_net_flows?: number;
  period_pnl?: number;
  period_unrealized_gain_loss_start?: number;
  period_unrealized_gain_loss_end?: number;
  period_unrealized_gain_loss_delta?: number;
  period_realized_gain_loss?: number;
  period_income?: number;
  period_fees?: number;
  period_taxes?: number;
  period_fees_taxes?: number;
  period_other_result?: number;
  /** Fractions (0.1 = 10 %); the runner compares them with the `_percent` fields / 100. */
  twrr: number;
  simple_roi: number | null;
  /** MWRR: a flow table to solve, or `null` when not available (mwrr_available false, values null). */
  mwrr: ExpectedMwrr | null;
  mwrr_period_days: number;
}

export interface ExpectedHistoryPoint {
  date: string;
  nav_value?: number;
  cash_value?: number;
  market_value?: number;
  in_transit_market_value?: number;
  open_cost_basis?: number;
  capital_baseline?: number;
  total_pnl?: number;
  unrealized_gain_loss?: number;
  twrr?: number;
  /** MWRR of [start, date]: a flow table to solve, or null (not calculable); absent = not checked. */
  mwrr?: ExpectedMwrr | null;
}

export interface ExpectedIssue {
  code: string;
  severity: "error" | "warning" | "info";
  message_i18n_key: string;
  message_params: Record<string, unknown>;
  affected_asset_ids: string[];
  affected_asset_names: string[];
  affected_fx_pairs: string[];
  group: string | null;
  cta_action: string | null;
  cta_target: string | null;
}

export interface ExpectedReport {
  /** The period the report covers (history has one point per day of it). */
  period: { start: string; end: string };
  summary: ExpectedSummary;
  history: ExpectedHistoryPoint[];
  issues: ExpectedIssue[];
  data_quality_status: "ok" | "carried_forward" | "partial";
  /** data_quality.stale_prices entries (asset ids as `asset("key")`). */
  stale_prices?: { asset_id: string; name: string; last_price_date: string; stale_days: number }[];
}

export interface PortfolioFixture {
  /** The file name: the test is named after it. */
  name: string;
  story: string;
  setup: {
    users: string[];
    brokers: BrokerSetup[];
    assets: AssetSetup[];
    fx?: FxSetup;
    /** Committed in one batch through POST /transactions/commit by `committed_by` (default: first user). */
    transactions: TxSetup[];
    committed_by?: string;
    sql_transactions?: SqlTxSetup[];
  };
  request: ReportRequest;
  /** The caller is the first user, unless `expected.by_user` lists several callers. */
  expected: ExpectedReport | { by_user: Record<string, ExpectedReport> };
}
