import type { ImportFileMeta } from "../kinds/import-plugin.ts";
import { sniffFormat } from "./magic.ts";
import { decodeText } from "./text.ts";
import { readWorkbook } from "./xlsx.ts";

/** How many rows of each sheet `describeWorkbook` puts in `sheets`: enough for a preamble and a header. */
export const SHEET_HEAD_ROWS = 30;

/** How much of a file `describeFile` decodes into `head`. */
export const HEAD_BYTES = 4096;

/** The lower-cased last extension of a file name, without the dot; `""` when none. */
export function extensionOf(filename: string): string {
  const base = filename.replace(/[. ]+$/, "");
  const dot = base.lastIndexOf(".");
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : "";
}

/**
 * The {@link ImportFileMeta} the host gives `accepts()` for `bytes` named `filename`: the format
 * from the magic bytes, and for text and XML the first 4 KiB decoded with the sniffed encoding (a
 * character cut at the edge is dropped). Plugin tests build their metas with it, as the host does.
 */
export function describeFile(bytes: Uint8Array, filename: string): ImportFileMeta {
  const format = sniffFormat(bytes);
  let head = "";
  if (format === "text" || format === "xml") {
    head = decodeText(bytes.subarray(0, HEAD_BYTES)).text;
    if (bytes.length > HEAD_BYTES) head = head.replace(/\uFFFD$/, "");
  }
  return { extension: extensionOf(filename), filename, format, head, sizeBytes: bytes.length };
}

/**
 * {@link describeFile} plus, for a workbook (XLSX/XLS), `sheets`: each sheet's name and its first
 * {@link SHEET_HEAD_ROWS} rows as text, so `accepts()` sees the content (an account block, the
 * header). A workbook that cannot be read has no `sheets`. It parses the workbook, so the host calls
 * it off the request thread. Example: `(await describeWorkbook(bytes, "x.xlsx")).sheets?.[0]?.name`.
 */
export async function describeWorkbook(bytes: Uint8Array, filename: string): Promise<ImportFileMeta> {
  const meta = describeFile(bytes, filename);
  if (meta.format !== "xlsx" && meta.format !== "xls") return meta;
  try {
    const sheets = await readWorkbook(bytes, SHEET_HEAD_ROWS);
    return { ...meta, sheets: sheets.map((s) => ({ name: s.name, rows: s.rows.map((r) => r.map((c) => c ?? "")) })) };
  } catch {
    return meta;
  }
}
