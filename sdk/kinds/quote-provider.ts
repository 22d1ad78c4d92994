import type { z } from "zod";
import type { IsoDate, IsoDateRange } from "../dates.ts";
import type { Outcome } from "../errors.ts";
import type { CurrencyCode, DecimalString } from "../money.ts";

/**
 * One hit of {@link QuoteProvider.search}: the provider-specific `identifier`
 * to store in an asset's assignment (a ticker, an ISIN, a URL), a display
 * `name`, and the quote `currency` when known. Likely to gain fields (exchange,
 * asset type) in a later minor version.
 */
export interface QuoteSearchResult {
  readonly currency?: CurrencyCode;
  readonly identifier: string;
  readonly name: string;
}

/** The latest known price of one instrument: `price` per unit in `currency`, observed on `date`. */
export interface Quote {
  readonly currency: CurrencyCode;
  readonly date: IsoDate;
  readonly price: DecimalString;
}

/**
 * One day of price history, in the instrument's quote currency per unit;
 * `volume` is a number of units. Only `close` is required.
 */
export interface PricePoint {
  readonly close: DecimalString;
  readonly date: IsoDate;
  readonly high?: DecimalString;
  readonly low?: DecimalString;
  readonly open?: DecimalString;
  readonly volume?: DecimalString;
}

/** Event types, spelled as the API spells them. */
export type AssetEventType = "DIVIDEND" | "INTEREST" | "MATURITY_SETTLEMENT" | "PRICE_ADJUSTMENT" | "SPLIT";

/**
 * A corporate or scheduled event of one instrument. `value` is an amount per
 * unit in `currency` for cash events, or the ratio (new units per old unit,
 * e.g. `"4"` for a 4-for-1) for a `SPLIT`.
 */
export interface AssetEvent {
  readonly currency?: CurrencyCode;
  readonly date: IsoDate;
  readonly type: AssetEventType;
  readonly value: DecimalString;
}

/** Parameters of {@link QuoteProvider.search}: free text such as a name, ticker or ISIN. */
export interface QuoteSearchParams {
  readonly query: string;
  readonly signal?: AbortSignal;
}

/**
 * Parameters of {@link QuoteProvider.getQuotes}: the identifiers to price in one batch.
 * `providerParams` holds each identifier's assignment parameters (already parsed by
 * `paramsSchema`), keyed by identifier; absent for providers without parameters. (Since 1.1.)
 */
export interface GetQuotesParams {
  readonly identifiers: readonly string[];
  readonly providerParams?: Readonly<Record<string, unknown>>;
  readonly signal?: AbortSignal;
}

/**
 * Parameters of history, event and metadata calls: one identifier over an inclusive day range,
 * with the assignment's parsed `providerParams` (since 1.1).
 */
export interface GetHistoryParams {
  readonly identifier: string;
  readonly providerParams?: unknown;
  readonly range: IsoDateRange;
  readonly signal?: AbortSignal;
}

/** Parameters of {@link QuoteProvider.getMetadata}. (Since 1.1.) */
export interface GetMetadataParams {
  readonly identifier: string;
  readonly providerParams?: unknown;
  readonly signal?: AbortSignal;
}

/**
 * What a source tells about an instrument, every field optional. Distributions map an ISO 3166
 * alpha-3 country code or a sector name to its weight as a decimal fraction (weights sum to 1).
 * (Since 1.1.)
 */
export interface AssetMetadata {
  readonly assetType?: string;
  readonly currency?: CurrencyCode;
  readonly geographicDistribution?: Readonly<Record<string, DecimalString>>;
  readonly name?: string;
  readonly sectorDistribution?: Readonly<Record<string, DecimalString>>;
}

/**
 * Contract of kind `quote-provider`: prices for instruments from an online
 * source. Throw a `PluginError` from single-item methods; `getQuotes` returns
 * one outcome per identifier instead. The parameter shapes are expected to
 * grow (provider params, identifier types) in later minor versions.
 */
export interface QuoteProvider {
  /**
   * Optional: dividends, splits and other events in the range, oldest first.
   * Omit it when the source has no events.
   */
  getEvents?(params: GetHistoryParams): Promise<readonly AssetEvent[]>;
  /** Daily history in the range, oldest first; days without a price are absent. */
  getHistory(params: GetHistoryParams): Promise<readonly PricePoint[]>;
  /** Optional: what the source knows about the instrument (name, currency, distributions). (Since 1.1.) */
  getMetadata?(params: GetMetadataParams): Promise<AssetMetadata>;
  /** Latest quotes, one outcome per requested identifier, in request order. */
  getQuotes(params: GetQuotesParams): Promise<ReadonlyArray<Outcome<Quote>>>;
  /** Optional: the kind of identifier the source expects, e.g. `TICKER`, `ISIN`, `URL`. (Since 1.1.) */
  readonly identifierType?: string;
  /** Optional: a public web page of the instrument at the source, for people. (Since 1.1.) */
  pageUrl?(identifier: string): string;
  /**
   * Optional: schema of the per-assignment parameters (e.g. a CSS selector and currency for a
   * scraper); the host parses an assignment's `provider_params` with it before any call. (Since 1.1.)
   */
  readonly paramsSchema?: z.ZodType;
  /** Instruments matching `query`, best match first; empty when none match. */
  search(params: QuoteSearchParams): Promise<readonly QuoteSearchResult[]>;
}
