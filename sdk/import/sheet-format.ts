import type { ImportFileMeta } from "../kinds/import-plugin.ts";
import { isPluginError, PluginError } from "../errors.ts";
import { type Columns, columns, eachRecord, findHeaderRow, type TableRecord } from "./csv.ts";
import { readWorkbook, type Sheet } from "./xlsx.ts";

/**
 * What a one-table workbook report looks like, for {@link sheetFormat}: the sheet that holds the
 * table, the header names that identify it, how far down the header may sit, and the messages when
 * a workbook is not it.
 */
export interface SheetFormatSpec {
  /** How sure `accepts()` is when the sheet and its header are found (default 0.95). */
  readonly confidence?: number;
  /** How many rows the header may be down from the top of the sheet; default 1 (the first row). */
  readonly headerWithin?: number;
  /** The `PluginError` message of `read()` when the header is not found in the sheet, e.g. "The Account Activity table lacks Date, Type or Amount". */
  readonly headerNotFound: string;
  /**
   * The header names `read()` needs (default `required`): a report without a column only
   * recognition relies on is still read.
   */
  readonly readRequired?: readonly string[];
  /** Header names that must all be in the header row for `accepts()`, compared with `normalizeHeader`. */
  readonly required: readonly string[];
  /** The sheet's name, compared trimmed and ignoring case, e.g. "Account Activity". */
  readonly sheet: string;
  /** The `PluginError` message of `read()` when the workbook has no such sheet, e.g. 'No sheet "Account Activity" (is it an eToro account statement?)'. */
  readonly sheetNotFound: string;
}

/**
 * A workbook report read by a {@link SheetFormat}: the rows of its sheet as text (empty cells
 * `""`), the index of the header row `at`, its columns, and every sheet of the workbook (for a
 * report that reads a second table, e.g. closed positions).
 */
export interface SheetFormatTable {
  readonly at: number;
  readonly cols: Columns;
  readonly rows: readonly (readonly string[])[];
  readonly sheets: readonly Sheet[];
}

/** A one-table workbook report format: recognise it, read it, walk its records. See {@link sheetFormat}. */
export interface SheetFormat {
  /**
   * For a workbook (XLSX/XLS): `confidence` when its sheet is there with the header, else 0; 0.05
   * when the host gave no `sheets` (the content is unknown: `auto` tries plugins in turn). 0 for
   * anything else, so an importer that also reads a CSV variant checks that itself.
   */
  accepts(file: ImportFileMeta): number;
  /**
   * Reads the workbook; a `PluginError` (`invalid-input`) when it cannot be read (cut short,
   * damaged, not XLSX or XLS), lacks the sheet, or its header. A workbook beyond the reader's
   * limits keeps the reader's message, which names the limit.
   */
  read(bytes: Uint8Array): Promise<SheetFormatTable>;
  /** Calls `mapRow` for every row below the header, each with its row number in the sheet; returns what the calls returned, in order. */
  walk<T>(table: SheetFormatTable, mapRow: (record: TableRecord) => T): T[];
  readonly spec: SheetFormatSpec;
}

const sameName = (name: string, wanted: string) => name.trim().toLowerCase() === wanted.trim().toLowerCase();

/**
 * The declarative shape of a one-table workbook importer, as {@link csvFormat} is for CSV: the
 * sheet and its header are the report, so `accepts()` (on the host's `sheets`) and `read()` (on
 * the whole workbook) come from one description.
 * Example:
 * ```ts
 * const SHEET = sheetFormat({ sheet: "Account Activity", required: ["date", "type", "amount"],
 *   sheetNotFound: 'No sheet "Account Activity" (is it an Acme statement?)', headerNotFound: "The Account Activity table lacks Date, Type or Amount" });
 * export const acceptsAcme = SHEET.accepts;
 * export async function parseAcme({ bytes }: ImportParseParams): Promise<ImportResult> {
 *   const table = await SHEET.read(bytes);
 *   SHEET.walk(table, ({ get, row }) => { ... get("Date") ... });
 * }
 * ```
 */
export function sheetFormat(spec: SheetFormatSpec): SheetFormat {
  const confidence = spec.confidence ?? 0.95;
  const within = spec.headerWithin ?? 1;
  return {
    accepts(file) {
      if (file.format !== "xlsx" && file.format !== "xls") return 0;
      if (!file.sheets) return 0.05;
      const sheet = file.sheets.find((s) => sameName(s.name, spec.sheet));
      return sheet && findHeaderRow(sheet.rows, spec.required, within) >= 0 ? confidence : 0;
    },
    async read(bytes) {
      if (bytes.length === 0) throw new PluginError("invalid-input", "The file is empty");
      let sheets: Sheet[];
      try {
        sheets = await readWorkbook(bytes);
      } catch (error) {
        if (isPluginError(error)) throw error;
        throw new PluginError("invalid-input", "This spreadsheet cannot be read: it is cut short or damaged, or not an XLSX or XLS workbook (export the report again)");
      }
      const sheet = sheets.find((s) => sameName(s.name, spec.sheet));
      if (!sheet) throw new PluginError("invalid-input", spec.sheetNotFound);
      const rows = sheet.rows.map((r) => r.map((c) => c ?? ""));
      const at = findHeaderRow(rows, spec.readRequired ?? spec.required, within);
      if (at < 0) throw new PluginError("invalid-input", spec.headerNotFound);
      return { at, cols: columns(rows[at]!), rows, sheets };
    },
    walk(table, mapRow) {
      const out: ReturnType<typeof mapRow>[] = [];
      eachRecord(table.rows, table.at, table.cols, (record) => out.push(mapRow(record)));
      return out;
    },
    spec,
  };
}
