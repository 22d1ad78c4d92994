import type { IsoDate, IsoDateRange } from "../dates.ts";
import type { CurrencyCode, DecimalString, Money } from "../money.ts";

/** How much detail an export contains. */
export type AiExportDetailLevel = "compact" | "full" | "standard";

/**
 * What a dataset is asked to build: the brokers in scope (already
 * access-checked by the host), the detail level, the inclusive period, and
 * the currency to report values in.
 */
export interface AiExportQuery {
  /** The asset of an `asset` dataset (since 1.2). */
  readonly assetId?: number;
  readonly brokerIds: readonly number[];
  readonly detailLevel: AiExportDetailLevel;
  /** The currency pair of an `fx` dataset (since 1.2). */
  readonly pair?: { readonly base: CurrencyCode; readonly quote: CurrencyCode };
  readonly period: IsoDateRange;
  readonly targetCurrency: CurrencyCode;
}

/**
 * Components the host computes with its own engines (the portfolio report, the lots analysis, stored
 * prices and FX rates), so a dataset's numbers equal the rest of the API (since 1.2). Money in a
 * component is always a `{code, amount}` object and units are `quantity` fields, which is how the
 * host masks amounts on request; datasets that build their own data should follow that convention.
 */
export type AiExportComponentId =
  | "asset.lots"
  | "asset.market_history"
  | "broker.summary"
  | "data_quality"
  | "fx.exposure"
  | "fx.market_history"
  | "portfolio.allocation"
  | "portfolio.history"
  | "portfolio.holdings"
  | "portfolio.lots"
  | "portfolio.summary";

/** A position the reader reports: signed `quantity` units of one asset at one broker. */
export interface AiExportHolding {
  readonly assetId: number;
  readonly assetName: string;
  readonly brokerId: number;
  readonly currency: CurrencyCode;
  readonly quantity: DecimalString;
}

/** A transaction the reader reports, amounts signed as stored. */
export interface AiExportTransaction {
  readonly assetId: number | null;
  readonly brokerId: number;
  readonly cash: Money | null;
  readonly date: IsoDate;
  readonly id: number;
  readonly quantity: DecimalString;
  readonly type: string;
}

/**
 * The narrow read-only port a dataset reads through; the host implements it
 * and scopes every answer to the caller's brokers. Likely to gain methods
 * (prices, FX rates) in later minor versions.
 */
export interface AiExportReader {
  /** Positions at the end of `asOf`, per broker and asset. */
  holdings(params: { asOf: IsoDate; brokerIds: readonly number[]; signal?: AbortSignal }): Promise<readonly AiExportHolding[]>;
  /**
   * One component for the query (since 1.2): detail-level aware, scoped to the query's brokers;
   * `null` when it does not apply (no asset, no pair).
   */
  component(params: { id: AiExportComponentId; query: AiExportQuery; signal?: AbortSignal }): Promise<unknown>;
  /** Transactions in the range, oldest first. */
  transactions(params: {
    brokerIds: readonly number[];
    range: IsoDateRange;
    signal?: AbortSignal;
  }): Promise<readonly AiExportTransaction[]>;
}

/**
 * Catalog description of a dataset: `domain`, `periodSemantics` (how the
 * period is used), `supportedDetailLevels`, and a human `title`.
 */
export interface AiExportDatasetDescription {
  /** When the dataset applies (`always`, `requires_position`, ...; since 1.2, default `always`). */
  readonly applicabilityCode?: string;
  /** UI pages that offer it (since 1.2). */
  readonly applicablePages?: readonly string[];
  readonly domain: "asset" | "broker" | "fx" | "portfolio";
  /** Icon name the UI knows (since 1.2). */
  readonly icon?: string;
  /** Components present at some detail levels only (since 1.2). */
  readonly optionalComponentIds?: readonly AiExportComponentId[];
  readonly periodSemantics: "aggregated" | "as_of" | "none" | "windowed";
  /** Components always present in `data` (since 1.2). */
  readonly requiredComponentIds?: readonly AiExportComponentId[];
  readonly supportedDetailLevels: readonly AiExportDetailLevel[];
  readonly title: string;
}

/** What {@link AiExportDataset.build} returns: JSON-serialisable `data` plus warnings. */
export interface AiExportDatasetOutput {
  readonly data: Readonly<Record<string, unknown>>;
  readonly warnings: readonly string[];
}

/**
 * Contract of kind `ai-export-dataset`: one dataset of the AI export (a
 * snapshot of data to paste into an AI assistant). It reads only through the
 * reader it is given, never the database.
 */
export interface AiExportDataset {
  /** Builds the dataset. Throws a `PluginError` (`unavailable`) when the reader fails. */
  build(params: { query: AiExportQuery; reader: AiExportReader; signal?: AbortSignal }): Promise<AiExportDatasetOutput>;
  /** Integer version of the output shape; bump it when `data` changes shape. */
  readonly datasetVersion: number;
  /** The catalog description; pure. */
  describe(): AiExportDatasetDescription;
  /** Catalog id, `<domain>.<name>`, e.g. `"portfolio.holdings"`. */
  readonly id: string;
}
