import type { IsoDate } from "../dates.ts";
import type { CurrencyCode, DecimalString, Money } from "../money.ts";

/**
 * What the host knows about an uploaded broker report before parsing it:
 * `extension` (lower case, without the dot, e.g. `"csv"`), `filename`,
 * `head` (up to the first 4 KiB of text decoded with the sniffed encoding,
 * BOM removed, for sniffing headers; empty for XLSX/XLS and binaries; for a PDF
 * since 1.13 the first 4 KiB of its text as `pdfText` reads it, empty when it has none;
 * a ZIP of PDFs is presented as `format: "pdf"` with its first document's text, and the host
 * calls `parse` once per document with that PDF's bytes),
 * `format?` (what the magic bytes say: `text`, `xml`, `xlsx`, `xls`, `pdf`,
 * `binary`), `mimeType?` and `sizeBytes`.
 *
 * Since 1.10: `sheets?`, for a workbook (XLSX/XLS) whose head the host read: each sheet's name and
 * its first rows as text (see `describeWorkbook` of `@portfolio-tracker/sdk/import`), so
 * `accepts()` can recognise a spreadsheet by its content as it does a CSV by `head`.
 */
export interface ImportFileMeta {
  readonly extension: string;
  readonly filename: string;
  readonly format?: "binary" | "pdf" | "text" | "xls" | "xlsx" | "xml";
  readonly head: string;
  readonly mimeType?: string;
  readonly sheets?: readonly ImportSheetHead[];
  readonly sizeBytes: number;
}

/** The first rows of one worksheet, cells as text (empty cells `""`), for detection. */
export interface ImportSheetHead {
  readonly name: string;
  readonly rows: readonly (readonly string[])[];
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
 * in, negative out), `cash` the signed cash movement, both in the ledger's
 * sign conventions (BUY quantity > 0 and cash < 0, SELL the reverse,
 * DIVIDEND/INTEREST/DEPOSIT cash > 0, WITHDRAWAL/FEE/TAX cash < 0); asset
 * hints (`isin`, `assetName`, `symbol`, `assetCurrency`) let the host match an
 * asset. `row` is the 1-based source line, for messages.
 *
 * Since 1.3: `orderId` (the broker's order or execution group: fills of one
 * order with the same type, day, asset and currency are merged into one row
 * by the host), `pairKey` (two FX_CONVERSION rows of one exchange share it;
 * the host links them), `costBasis` (per unit, for inbound ADJUSTMENT or
 * TRANSFER rows), `tags`.
 *
 * Since 1.13: `assetType`, the kind of instrument when the report says it (a column such as
 * "Asset class", or a transaction kind such as "ETF purchase"); the host gives an asset created
 * by the import that type. Leave it out when the report does not say: an ISIN alone does not tell
 * an ETF from a stock. Since 1.17, a report without such a column may say it in the security's
 * name: `assetTypeOfName` of `@portfolio-tracker/sdk/import` reads it from an unambiguous word.
 */
export interface ImportedTransaction {
  readonly assetCurrency?: CurrencyCode;
  readonly assetName?: string;
  readonly assetType?: "BOND" | "CRYPTO" | "ETF" | "FUND" | "STOCK";
  readonly cash?: Money;
  readonly costBasis?: Money;
  readonly date: IsoDate;
  readonly description?: string;
  readonly isin?: string;
  readonly orderId?: string;
  readonly pairKey?: string;
  readonly quantity?: DecimalString;
  readonly row?: number;
  readonly symbol?: string;
  readonly tags?: readonly string[];
  readonly type: ImportTransactionType;
}

/** A non-fatal remark about the report, e.g. a skipped line, with a stable `code`. */
export interface ImportWarning {
  readonly code: string;
  readonly message: string;
  readonly row?: number;
  readonly severity: "info" | "warning";
}

/**
 * A data line of the report that gave no transaction of its own, and why: a line that moves
 * nothing for the user, one merged into another line (the reason names that line), or one the
 * importer cannot read. `line` is the 1-based line in the file.
 */
export interface ImportSkippedRow {
  readonly line: number;
  readonly reason: string;
}

/**
 * What {@link ImportPlugin.parse} returns: the transactions found, plus warnings. Optional:
 * `skippedRows` (every data line without a transaction of its own, with the reason, so that each
 * line of the file is accounted for) and `detectedFormat` (the variant read, e.g.
 * `degiro/account-statement/nl`).
 */
export interface ImportResult {
  readonly detectedFormat?: string;
  readonly skippedRows?: readonly ImportSkippedRow[];
  readonly transactions: readonly ImportedTransaction[];
  readonly warnings: readonly ImportWarning[];
}

/** One line of a PDF page in reading order: its text (cells apart by two spaces or more), page (from 1) and position in PDF points (y from the page's bottom). */
export interface PdfLine {
  readonly page: number;
  readonly text: string;
  readonly x: number;
  readonly y: number;
}

/** The text of a PDF as `pdfText` reads it: the lines of every page in reading order, the page count and `text`, the lines joined by `\n` (pages by `\f\n`). */
export interface PdfText {
  readonly lines: readonly PdfLine[];
  readonly pages: number;
  readonly text: string;
}

/**
 * Parameters of {@link ImportPlugin.parse}: the whole file and its meta, and
 * `options` (since 1.3): free settings a user passes for this parse, e.g. the
 * generic CSV's column mapping; plugins ignore what they don't know.
 *
 * Since 1.15: `pdf`, for a PDF (or one PDF of a ZIP), its text as the host read it once for
 * detection, exactly what `pdfText(bytes)` gives: read it with `pdfTextOf(params)` of
 * `@portfolio-tracker/sdk/import`, which extracts the text itself only when the host gave none.
 */
export interface ImportParseParams {
  readonly bytes: Uint8Array;
  readonly file: ImportFileMeta;
  readonly options?: Readonly<Record<string, unknown>>;
  readonly pdf?: PdfText;
  readonly signal?: AbortSignal;
}

/**
 * Contract of kind `import-plugin`: a broker-report importer (BRIM). The host
 * asks every importer how confident it is and parses with the best one (or
 * the one the user picked). Parsing only reads: nothing is stored until the
 * user commits the preview. Optional members since 1.3: `supportedExtensions`
 * (lower case, no dot; default `["csv"]`), `detectionPriority` (ties between
 * equal confidences go to the lower number; default 100), `docsUrl`, `iconUrl`.
 */
export interface ImportPlugin {
  readonly detectionPriority?: number;
  readonly docsUrl?: string;
  readonly iconUrl?: string;
  readonly supportedExtensions?: readonly string[];
  /** Confidence from 0 (not mine) to 1 (certainly mine); cheap and synchronous. */
  accepts(file: ImportFileMeta): number;
  /**
   * Reads transactions from the file. Throws a `PluginError` with reason
   * `invalid-input` when the file is not a report this plugin can read.
   */
  parse(params: ImportParseParams): Promise<ImportResult>;
}
