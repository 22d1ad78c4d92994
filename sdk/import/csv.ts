import Papa from "papaparse";
import { decodeText, type DecodedText, type Separator, sniffSeparator } from "./text.ts";

/**
 * A delimited report read into rows of strings: the decoding and separator found, every row as
 * written (quotes removed, `""` unescaped), blank lines dropped. Cells are never typed: amounts stay
 * text until `parseDecimal` reads them.
 */
export interface CsvTable {
  readonly encoding: DecodedText["encoding"];
  /** The 1-based line of the file each row starts on (quoted line breaks counted), for messages. */
  readonly lines: readonly number[];
  readonly rows: readonly (readonly string[])[];
  readonly separator: Separator;
}

/**
 * Options of {@link readCsv}: force a `separator` instead of sniffing it; `keepEmptyLines` (since
 * 1.10) keeps blank lines and lines of empty cells as rows, so a row's index + 1 is its line number
 * even below a title block with blank lines (quoted line breaks aside).
 */
export interface ReadCsvOptions {
  readonly keepEmptyLines?: boolean;
  readonly separator?: Separator;
}

/**
 * Decodes (see `decodeText`) and splits a delimited file with papaparse. Quoted fields may hold
 * separators and line breaks. Accepts the bytes or already-decoded text.
 * Example: `readCsv(bytes).rows[0]` is the header row.
 */
export function readCsv(input: Uint8Array | string, options: ReadCsvOptions = {}): CsvTable {
  const decoded = typeof input === "string" ? { encoding: "utf-8" as const, text: input.replace(/^\uFEFF/, "") } : decodeText(input);
  const separator = options.separator ?? sniffSeparator(decoded.text);
  const text = decoded.text;
  const rows: string[][] = [];
  const lines: number[] = [];
  const newline = text.includes("\n") ? "\n" : "\r";
  let line = 1;
  let counted = 0;
  // Row by row, so each row keeps the line it starts on; rows of blank cells are dropped, as
  // papaparse's "greedy" option would, unless `keepEmptyLines`.
  Papa.parse<string[]>(text, {
    delimiter: separator, skipEmptyLines: false, dynamicTyping: false,
    step: (result) => {
      const start = counted;
      const end = result.meta.cursor;
      const row = result.data;
      if (options.keepEmptyLines || row.some((cell) => cell.trim() !== "")) {
        rows.push(row);
        lines.push(line);
      }
      for (let i = text.indexOf(newline, start); i >= 0 && i < end; i = text.indexOf(newline, i + 1)) line++;
      counted = end;
    },
  });
  // A file ending in a line break leaves one empty row behind when blank rows are kept.
  if (options.keepEmptyLines && rows.length > 0 && rows.at(-1)!.every((c) => c === "")) {
    rows.pop();
    lines.pop();
  }
  return { encoding: decoded.encoding, lines, rows, separator };
}

/** Lower-cases, strips accents, quotes, brackets and punctuation, and squeezes spaces: `"Datum (UTC)"` → `"datum utc"`. */
export function normalizeHeader(header: string): string {
  return header.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase()
    .replace(/[^a-z0-9%]+/g, " ").trim();
}

/**
 * The index of the first header row within the first `maxScan` rows that contains all `required`
 * names (compared with {@link normalizeHeader}), or -1. Reports often start with a title block.
 */
export function findHeaderRow(rows: readonly (readonly string[])[], required: readonly string[], maxScan = 30): number {
  const want = required.map(normalizeHeader);
  for (let i = 0; i < Math.min(rows.length, maxScan); i++) {
    const have = new Set(rows[i]!.map(normalizeHeader));
    if (want.every((w) => have.has(w))) return i;
  }
  return -1;
}

/**
 * A row reader over a header: `get(row, ...names)` gives the trimmed cell of the first of `names`
 * present in the header (normalised), or `""`. Example: `cols.get(row, "Date", "Datum")`.
 */
export interface Columns {
  get(row: readonly string[], ...names: string[]): string;
  has(...names: string[]): boolean;
  index(...names: string[]): number;
  readonly names: readonly string[];
}

/** Builds {@link Columns} over `header`; the first occurrence of a repeated name wins. */
export function columns(header: readonly string[]): Columns {
  const at = new Map<string, number>();
  header.forEach((h, i) => {
    const key = normalizeHeader(h);
    if (!at.has(key)) at.set(key, i);
  });
  const index = (...names: string[]) => {
    for (const n of names) {
      const i = at.get(normalizeHeader(n));
      if (i !== undefined) return i;
    }
    return -1;
  };
  return {
    get: (row, ...names) => {
      const i = index(...names);
      return i < 0 ? "" : (row[i] ?? "").trim();
    },
    has: (...names) => index(...names) >= 0,
    index,
    names: header,
  };
}

/** One data row of a table, as {@link eachRecord} hands it over. */
export interface TableRecord {
  /** The trimmed cell of the first of `names` present in the header, or `""`. */
  get(...names: string[]): string;
  /** The raw cells. */
  readonly cells: readonly string[];
  /** 1-based line number of the row in the file, for warnings. */
  readonly row: number;
}

/**
 * Calls `each` for every row below the header row `at` of `rows`, read through `cols` (built
 * over that header). Rows are numbered from `firstLine` (default `at + 2`: the line after the
 * header when no blank line was dropped above), or by `lines`, the line of every row (a
 * {@link CsvTable}'s `lines`: exact even when blank lines were dropped). Example:
 * `eachRecord(rows, at, columns(rows[at]!), ({ get, row }) => { ... get("Date") ... }, table.lines)`.
 */
export function eachRecord(
  rows: readonly (readonly string[])[], at: number, cols: Columns, each: (record: TableRecord) => void,
  firstLine: number | readonly number[] = at + 2,
): void {
  for (let i = at + 1; i < rows.length; i++) {
    const cells = rows[i]!;
    const row = typeof firstLine === "number" ? firstLine + i - at - 1 : firstLine[i] ?? at + 1 + i;
    each({ get: (...names) => cols.get(cells, ...names), cells, row });
  }
}
