/**
 * Helpers for `import-plugin` authors (`@portfolio-tracker/sdk/import`), kept out of the SDK's main
 * entry so plugins of other kinds never load a CSV, XML or spreadsheet reader: decoding with a
 * sniffed encoding and separator, CSV rows and header lookup, one-table CSV formats (`csvFormat`) and
 * workbook formats (`sheetFormat`),
 * locale decimals and dates, skipped lines (`skipper`), format sniffing by magic bytes, XML and XLSX/XLS readers (the
 * spreadsheet library loads on first use), a PDF's text (`pdfText`, `pdfTextOf`), the lookups of a
 * broker document's lines (`pdfDocument`), the rows of a bank account statement (`accountStatement`) and the
 * kind of instrument a security's name states (`assetTypeOfName`).
 */
export { columns, type Columns, type CsvTable, eachRecord, findHeaderRow, normalizeHeader, readCsv, type ReadCsvOptions, type TableRecord } from "./csv.ts";
export { type CsvFormat, csvFormat, type CsvFormatSpec, type CsvFormatTable } from "./format.ts";
export { type DateOrder, detectDateOrder, parseDate } from "./dates.ts";
export { type FileFormat, sniffFormat } from "./magic.ts";
export { type DecimalMark, detectDecimalMark, parseDecimal } from "./numbers.ts";
export { decodeText, type DecodedText, type Separator, sniffSeparator, type TextEncodingName, utf16Without } from "./text.ts";
export { readWorkbook, type Sheet, type SheetCell } from "./xlsx.ts";
export { type SheetFormat, sheetFormat, type SheetFormatSpec, type SheetFormatTable } from "./sheet-format.ts";
export { parseXml } from "./xml.ts";
export { describeFile, describeWorkbook, extensionOf } from "./meta.ts";
export { pdfErrorCode, type PdfLine, type PdfText, pdfText, PdfTextError, type PdfTextErrorCode, pdfTextOf, type PdfTextOptions } from "./pdf.ts";
export { type PdfDocument, pdfDocument, type PdfDocumentOptions } from "./pdf-document.ts";
export { skipper, unreadable } from "./skips.ts";
export { accountStatement, type AccountStatementRows, type AccountStatementSpec, namesSecurity, type StatementBooking, type StatementBookingKind } from "./account-statement.ts";
export { assetTypeOfName, type NamedAssetType } from "./asset-kind.ts";
