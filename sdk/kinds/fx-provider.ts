import type { IsoDate } from "../dates.ts";
import type { Outcome } from "../errors.ts";
import type { CurrencyCode, DecimalString } from "../money.ts";

/** A currency pair: how many units of `quote` one unit of `base` buys. */
export interface FxPair {
  readonly base: CurrencyCode;
  readonly quote: CurrencyCode;
}

/** The rate of a pair on one day: units of quote currency per one unit of base currency. */
export interface FxRate {
  readonly date: IsoDate;
  readonly rate: DecimalString;
}

/**
 * Parameters of {@link FxProvider.getRates}: the pairs to fetch and an
 * inclusive day range `from`..`to`.
 */
export interface GetRatesParams {
  readonly from: IsoDate;
  readonly pairs: readonly FxPair[];
  readonly signal?: AbortSignal;
  readonly to: IsoDate;
}

/**
 * Contract of kind `fx-provider`: daily exchange rates from one source, such
 * as a central bank. A pair is supported when its base is in `baseCurrencies`
 * and its quote in `targetCurrencies`. Likely to gain optional members
 * (per-currency metadata, publication calendars) in later minor versions.
 */
export interface FxProvider {
  /** Currencies the source quotes against, e.g. `["EUR"]` for the ECB. */
  readonly baseCurrencies: readonly CurrencyCode[];
  /**
   * Rates for each pair over the range, oldest first; days the source did not
   * publish are absent. One outcome per requested pair, in request order; an
   * unsupported pair is a failed outcome with reason `invalid-input`.
   */
  getRates(params: GetRatesParams): Promise<ReadonlyArray<Outcome<readonly FxRate[]>>>;
  /** Currencies the source has rates for, e.g. `["CHF", "USD"]`. */
  readonly targetCurrencies: readonly CurrencyCode[];
}
