/**
 * The engine's input: plain strings, numbers and typed arrays only, so it crosses a worker boundary
 * unchanged (structured cloning drops Decimal prototypes; the columns' buffers can be transferred).
 * Built by `report-input.loader.ts`; transactions (tx-columns.ts), quotes and FX rates (day-columns.ts)
 * as typed day-indexed columns (docs/portfolio.md "Input").
 */
import type { ChainStep } from "../fx/fx-route.entity.ts";
import { columnOfTexts, type DayColumn } from "./day-columns.ts";
import { type TxColumns, txColumnsOf, TxTable } from "./tx-columns.ts";

export interface ScopeBroker {
  id: number;
  name: string;
  /** Aggregation scale (share for OWNER rows, 1 otherwise) as a decimal string. */
  scale: string;
}

export interface LedgerTx {
  id: number;
  brokerId: number;
  assetId: number | null;
  type: string;
  date: string;
  quantity: string;
  amount: string | null;
  currency: string | null;
  relatedId: number | null;
  /** Broker of the partner leg, or null when unlinked. */
  partnerBrokerId: number | null;
  partnerDate: string | null;
  costBasisOverride: string | null;
  costBasisCurrency: string | null;
  /** Linked to a SPLIT event of its asset. */
  splitLinked: boolean;
}

/**
 * A row as the daily replay reads it (core/portfolio/tx-columns.ts `TxTable.read`): its quantity and
 * amount come parsed, beside it (`ReplayLedger.apply`), not as text written for the row only to be
 * parsed again.
 */
export type ReplayTx = Omit<LedgerTx, "quantity" | "amount">;

export interface AssetInfo {
  id: number;
  name: string;
  ticker: string | null;
  type: string | null;
  currency: string;
  quoteBaseQuantity: string;
  hasProvider: boolean;
  /** Weight per sector / country code (decimal strings), or null when unclassified. */
  sectors: Record<string, string> | null;
  geography: Record<string, string> | null;
}

/** Quotes of one asset written by hand, oldest first (`dates[i]` ↔ `closes[i]`), in the asset's currency. */
export interface QuoteSeries {
  dates: string[];
  closes: string[];
}

export interface SplitEvent {
  assetId: number;
  date: string;
  /** New units per old unit (2 for a 2:1 split). */
  ratio: string;
}

/** The FX configuration of one alphabetical pair. */
export interface FxPairConfig {
  base: string;
  quote: string;
  /** Chain steps of each configured route, by priority. */
  routes: ChainStep[][];
  /**
   * The requesting user keeps private rates of the pair (series under PRIVATE_PROVIDER): they
   * convert the days no shared route (or, without routes, no shared manual rate) can.
   */
  privateRates?: true;
}

/** Rates of one series written by hand, oldest first. */
export interface RateSeriesInput {
  dates: string[];
  rates: string[];
}

export interface ReportFlags {
  summary: boolean;
  history: boolean;
  allocationHistory: boolean;
  breakdown: boolean;
  positionsContribution: boolean;
  /** TWRR and MWRR of each calendar month, quarter and year of the period (period-returns.calc.ts). */
  periodReturns: boolean;
  /** Every DIVIDEND and INTEREST up to the end date in the target currency (the summary's `total_income`). */
  incomePayments: boolean;
}

export interface ReportInput {
  brokers: ScopeBroker[];
  /**
   * Every transaction of the scope up to the end date, sorted by (date, id), as typed columns: the
   * loader's form. Without it, the engine reads `transactions`.
   */
  txColumns?: TxColumns;
  /** Transactions written by hand (tests, tools), sorted by (date, id); empty when `txColumns` is given. */
  transactions: LedgerTx[];
  assets: AssetInfo[];
  /**
   * Quotes (asset id →) and FX rate series (`BASE|QUOTE|PROVIDER` →) up to the end date as typed
   * columns: the loader's form. Without it, the engine reads `quotes` and `fxSeries`.
   */
  columns?: SeriesColumns;
  /** Quotes written by hand (tests, tools); empty when `columns` is given. */
  quotes: Record<number, QuoteSeries>;
  splits: SplitEvent[];
  fxPairs: FxPairConfig[];
  /** FX rate series written by hand, `BASE|QUOTE|PROVIDER` →; empty when `columns` is given. */
  fxSeries: Record<string, RateSeriesInput>;
  target: string;
  /** Requested start, or null for the first transaction in scope. */
  start: string | null;
  end: string;
  flags: ReportFlags;
  /** The request as the caller sent it, echoed in `metadata`. */
  requested: { start: string | null; end: string | null; brokerIds: number[] | null };
  generatedAt: string;
}

export function fxSeriesKey(base: string, quote: string, provider: string): string {
  return `${base}|${quote}|${provider}`;
}

export interface SeriesColumns {
  quotes: Record<number, DayColumn>;
  /** `BASE|QUOTE|PROVIDER` → series. */
  rates: Record<string, DayColumn>;
}

const fromTexts = new WeakMap<ReportInput, SeriesColumns>();

/** The input's quotes and rates as columns: its own, or those of its text series (made once per input). */
export function seriesColumns(input: ReportInput): SeriesColumns {
  if (input.columns) return input.columns;
  let c = fromTexts.get(input);
  if (!c) {
    c = { quotes: {}, rates: {} };
    for (const [id, q] of Object.entries(input.quotes)) c.quotes[Number(id)] = columnOfTexts(q.dates, q.closes);
    for (const [k, r] of Object.entries(input.fxSeries)) c.rates[k] = columnOfTexts(r.dates, r.rates);
    fromTexts.set(input, c);
  }
  return c;
}

const tables = new WeakMap<ReportInput, TxTable>();

/** The input's transactions as a table: its columns, or those of its objects (made once per input). */
export function txTable(input: ReportInput): TxTable {
  let t = tables.get(input);
  if (!t) {
    t = new TxTable(input.txColumns ?? txColumnsOf(input.transactions));
    tables.set(input, t);
  }
  return t;
}
