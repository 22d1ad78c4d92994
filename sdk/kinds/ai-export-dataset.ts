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
  readonly brokerIds: readonly number[];
  readonly detailLevel: AiExportDetailLevel;
  readonly period: IsoDateRange;
  readonly targetCurrency: CurrencyCode;
}

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
  readonly domain: "asset" | "broker" | "fx" | "portfolio";
  readonly periodSemantics: "aggregated" | "as_of" | "none" | "windowed";
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
