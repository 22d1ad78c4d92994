import type { ImportFileMeta } from "../kinds/import-plugin.ts";
import { PluginError } from "../errors.ts";
import { type Columns, columns, type CsvTable, eachRecord, findHeaderRow, readCsv, type TableRecord } from "./csv.ts";
import type { Separator } from "./text.ts";

/**
 * What a one-table CSV report looks like, for {@link csvFormat}: the header names that identify it,
 * how far down the header may sit, its separator(s), and the message when a file is not it.
 */
export interface CsvFormatSpec {
  /** How sure `accepts()` is when the header is found (default 0.95). */
  readonly confidence?: number;
  /**
   * Text that, found anywhere in the head of a file (case-insensitive), means it is another report
   * with similar columns: `accepts()` gives 0.
   */
  readonly excludeMarkers?: readonly string[];
  /** How many rows (blank lines not counted) the header may be down from the top; default 1 (the first row). */
  readonly headerWithin?: number;
  /**
   * The `PluginError` message of `read()` when the header is not found, e.g. "This is not a Bitvavo
   * transaction export"; `read()` adds the columns it looked for and how far down.
   */
  readonly notFound: string;
  /** Header names that must all be in the header row, compared with `normalizeHeader` ("Fees & Comm" = "fees comm"). */
  readonly required: readonly string[];
  /**
   * The separators the report is written with: one is used as is; several are tried in turn until
   * the header is found; none (the default) means sniffed from the text.
   */
  readonly separators?: readonly Separator[];
}

/** A report read by a {@link CsvFormat}: the table, the index of its header row `at`, and its columns. */
export interface CsvFormatTable extends CsvTable {
  readonly at: number;
  readonly cols: Columns;
}

/** A one-table CSV report format: recognise it, read it, walk its records. See {@link csvFormat}. */
export interface CsvFormat {
  /** `confidence` when the file's head is text whose header is found (and no exclude marker is in it), else 0. */
  accepts(file: ImportFileMeta): number;
  /** Reads the file, or `null` when it is empty or its header is not found: for an importer of several formats. */
  match(input: Uint8Array | string): CsvFormatTable | null;
  /** Reads the file; a `PluginError` (`invalid-input`) when it is empty or its header is not found. */
  read(input: Uint8Array | string): CsvFormatTable;
  /**
   * Calls `mapRow` for every row below the header, each with its true 1-based line in the file
   * (blank lines and quoted line breaks counted); returns what the calls returned, in order.
   */
  walk<T>(table: CsvFormatTable, mapRow: (record: TableRecord) => T): T[];
  readonly spec: CsvFormatSpec;
}

/** The spec's `notFound` message, with the header it looked for and where: what a file of another variant lacks. */
function notFoundMessage(spec: CsvFormatSpec): string {
  const within = spec.headerWithin ?? 1;
  const where = within === 1 ? "as its first line" : `within its first ${within} lines`;
  return `${spec.notFound}: expected a header row with the columns ${spec.required.map((c) => `"${c}"`).join(", ")} ${where}`;
}

/** The table of `text` read with the spec's separator(s), and its header row (-1 when not found). */
function locate(text: Uint8Array | string, spec: CsvFormatSpec): { at: number; table: CsvTable } {
  const within = spec.headerWithin ?? 1;
  const tries: readonly (Separator | undefined)[] = spec.separators && spec.separators.length > 0 ? spec.separators : [undefined];
  let last: { at: number; table: CsvTable } | undefined;
  for (const separator of tries) {
    const table = readCsv(text, separator === undefined ? {} : { separator });
    last = { at: findHeaderRow(table.rows, spec.required, within), table };
    if (last.at >= 0) return last;
  }
  return last!;
}

/**
 * The declarative shape of a one-table CSV importer: the report is its header, so `accepts()` and
 * `read()` come from the same description and agree on what they recognise.
 * Example:
 * ```ts
 * const FORMAT = csvFormat({ required: ["date", "type", "amount"], separators: [","], notFound: "This is not an Acme export" });
 * export const acceptsAcme = FORMAT.accepts;
 * export function parseAcme({ bytes }: ImportParseParams): ImportResult {
 *   const table = FORMAT.read(bytes);
 *   FORMAT.walk(table, ({ get, row }) => { ... get("Date") ... });
 * }
 * ```
 */
export function csvFormat(spec: CsvFormatSpec): CsvFormat {
  const confidence = spec.confidence ?? 0.95;
  const markers = (spec.excludeMarkers ?? []).map((m) => m.toLowerCase());
  // Plain closures, no `this`: `accepts: FORMAT.accepts` and `const { read } = FORMAT` work.
  const match = (input: Uint8Array | string): CsvFormatTable | null => {
    if (input.length === 0) return null;
    const { at, table } = locate(input, spec);
    return at < 0 ? null : { ...table, at, cols: columns(table.rows[at]!) };
  };
  return {
    accepts(file) {
      if ((file.format !== undefined && file.format !== "text") || file.head === "") return 0;
      if (markers.length > 0) {
        const head = file.head.toLowerCase();
        if (markers.some((m) => head.includes(m))) return 0;
      }
      return locate(file.head, spec).at >= 0 ? confidence : 0;
    },
    match,
    read(input) {
      if (input.length === 0) throw new PluginError("invalid-input", "The file is empty");
      const found = match(input);
      if (!found) throw new PluginError("invalid-input", notFoundMessage(spec));
      return found;
    },
    walk(table, mapRow) {
      const out: ReturnType<typeof mapRow>[] = [];
      eachRecord(table.rows, table.at, table.cols, (record) => out.push(mapRow(record)), table.lines);
      return out;
    },
    spec,
  };
}
