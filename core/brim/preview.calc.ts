import { decodeText, pdfErrorCode, type PdfText, pdfText, readCsv, readWorkbook, sniffFormat } from "../../sdk/import/index.ts";
import { refusalOf, type UnpackRefusal } from "./unpack-check.calc.ts";

export const PREVIEW_ROWS = 100;

/** A structured preview of a file: a table of its first rows (a parse's `preview`). */
export interface FilePreview {
  columns: string[];
  kind: "table";
  rows: string[][];
  sheets?: string[];
}

/** A preview, or why there is none (the service turns the codes into its errors). */
export type PreviewRun =
  | { ok: true; preview: FilePreview }
  | { code: "PREVIEW_UNAVAILABLE"; message: string; ok: false }
  | { code: "UNPACK_LIMIT"; ok: false; refusal: UnpackRefusal }
  | { code: "SHEET_NOT_FOUND"; ok: false; sheetName: string };

/**
 * The first {@link PREVIEW_ROWS} rows of a file as a table; spreadsheets by sheet (`sheetName`,
 * default the first). Runs in the worker pool: a spreadsheet is unzipped and parsed whole, which
 * takes seconds for a large one; one beyond the unpacking limits is refused before it is parsed.
 * `readPdf` gives a PDF's text (the host passes the text it keeps beside the stored file).
 */
export async function previewOf(bytes: Uint8Array, sheetName?: string, readPdf: (bytes: Uint8Array) => Promise<PdfText> = pdfText): Promise<PreviewRun> {
  const format = sniffFormat(bytes);
  if (format === "xlsx" || format === "xls") {
    let sheets;
    try {
      sheets = await readWorkbook(bytes, PREVIEW_ROWS + 1);
    } catch (error) {
      const refusal = refusalOf(error);
      if (refusal) return { ok: false, code: "UNPACK_LIMIT", refusal };
      return { ok: false, code: "PREVIEW_UNAVAILABLE", message: "The spreadsheet cannot be read" };
    }
    const sheet = sheetName === undefined ? sheets[0] : sheets.find((s) => s.name === sheetName);
    if (!sheet) return { ok: false, code: "SHEET_NOT_FOUND", sheetName: sheetName ?? "" };
    const [head = [], ...rest] = sheet.rows.map((r) => r.map((c) => c ?? ""));
    return { ok: true, preview: { kind: "table", sheets: sheets.map((s) => s.name), columns: head, rows: rest.slice(0, PREVIEW_ROWS) } };
  }
  if (format === "text") {
    const slice = bytes.subarray(0, 256 * 1024);
    const rows = readCsv(slice).rows.slice(0, PREVIEW_ROWS + 1).map((r) => [...r]);
    const [head = [], ...rest] = rows;
    return { ok: true, preview: { kind: "table", columns: head, rows: rest } };
  }
  if (format === "xml") {
    const lines = decodeText(bytes.subarray(0, 64 * 1024)).text.split(/\r?\n/).slice(0, PREVIEW_ROWS);
    return { ok: true, preview: { kind: "table", columns: ["line"], rows: lines.map((l) => [l]) } };
  }
  if (format === "pdf") {
    // A broker's document: its text as the importers read it, line by line with the page.
    try {
      const { lines } = await readPdf(bytes);
      return { ok: true, preview: { kind: "table", columns: ["page", "line"], rows: lines.slice(0, PREVIEW_ROWS).map((l) => [String(l.page), l.text]) } };
    } catch (error) {
      const message = pdfErrorCode(error) ? (error as Error).message : "the PDF cannot be read";
      return { ok: false, code: "PREVIEW_UNAVAILABLE", message: `The PDF has no readable text: ${message}` };
    }
  }
  return { ok: false, code: "PREVIEW_UNAVAILABLE", message: "The file is not text or a spreadsheet" };
}
