import type { IsoDate } from "../dates.ts";
import type { Money, DecimalString } from "../money.ts";

/**
 * What the host knows about an uploaded broker report before parsing it:
 * `extension` (lower case, without the dot, e.g. `"csv"`), `filename`,
 * `head` (up to the first 4 KiB decoded as UTF-8, for sniffing headers),
 * `mimeType?` and `sizeBytes`.
 */
export interface ImportFileMeta {
  readonly extension: string;
  readonly filename: string;
  readonly head: string;
  readonly mimeType?: string;
  readonly sizeBytes: number;
}

/** The twelve transaction types, spelled as the API spells them. */
export type ImportTransactionType =
  | "ADJUSTMENT"
  | "BUY"
  | "CASH_TRANSFER"
  | "DEPOSIT"
  | "DIVIDEND"
  | "FEE"
  | "FX_CONVERSION"
  | "INTEREST"
  | "SELL"
  | "TAX"
  | "TRANSFER"
  | "WITHDRAWAL";

/**
 * One transaction read from a report. `quantity` is signed units (positive
 * in, negative out), `cash` the signed cash movement; asset hints (`isin`,
 * `assetName`, `symbol`) let the host match an asset. `row` is the 1-based
 * source line, for messages. Likely to gain fields (fees, link ids).
 */
export interface ImportedTransaction {
  readonly assetName?: string;
  readonly cash?: Money;
  readonly date: IsoDate;
  readonly description?: string;
  readonly isin?: string;
  readonly quantity?: DecimalString;
  readonly row?: number;
  readonly symbol?: string;
  readonly type: ImportTransactionType;
}

/** A non-fatal remark about the report, e.g. a skipped line, with a stable `code`. */
export interface ImportWarning {
  readonly code: string;
  readonly message: string;
  readonly row?: number;
  readonly severity: "info" | "warning";
}

/** What {@link ImportPlugin.parse} returns: the transactions found, plus warnings. */
export interface ImportResult {
  readonly transactions: readonly ImportedTransaction[];
  readonly warnings: readonly ImportWarning[];
}

/** Parameters of {@link ImportPlugin.parse}: the whole file and its meta. */
export interface ImportParseParams {
  readonly bytes: Uint8Array;
  readonly file: ImportFileMeta;
  readonly signal?: AbortSignal;
}

/**
 * Contract of kind `import-plugin`: a broker-report importer (BRIM). The host
 * asks every importer how confident it is and parses with the best one (or
 * the one the user picked). Parsing only reads: nothing is stored until the
 * user commits the preview. Likely to gain members (supported extensions,
 * detection priority) in later minor versions.
 */
export interface ImportPlugin {
  /** Confidence from 0 (not mine) to 1 (certainly mine); cheap and synchronous. */
  accepts(file: ImportFileMeta): number;
  /**
   * Reads transactions from the file. Throws a `PluginError` with reason
   * `invalid-input` when the file is not a report this plugin can read.
   */
  parse(params: ImportParseParams): Promise<ImportResult>;
}
