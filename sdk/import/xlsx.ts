import { Decimal } from "../money.ts";
import { looksLikeZip, sheetSpanError, unpackZip, WORKBOOK_LIMITS } from "./zip.ts";

/** A cell of {@link readWorkbook}: text, a decimal string for numbers, an ISO day for dates, or null. */
export type SheetCell = string | null;

/** One worksheet: its name and rows of cells as text (numbers and dates normalised, see {@link readWorkbook}). */
export interface Sheet {
  readonly name: string;
  readonly rows: readonly (readonly SheetCell[])[];
}

type XlsxModule = typeof import("@e965/xlsx");
type RawCell = { t: string; v: unknown; z?: string; w?: string };
/** SheetJS's reader of an unpacked workbook (exported by the library, missing from its types). */
type ParseZip = (container: unknown, options: Record<string, unknown>) => import("@e965/xlsx").WorkBook;

/** Rows × columns of a sheet's table that {@link readWorkbook} builds at most: ten cells a real cell (empty ones are cheap). */
const MAX_SHEET_SPAN = WORKBOOK_LIMITS.maxCells * 10;

const LABEL = "the spreadsheet";

/** Zip formats SheetJS would read besides XLSX (OpenDocument, Numbers, XLSB): not broker exports, and not bounded here. */
function otherZipFormat(names: ReadonlySet<string>, contentTypes: string): string | null {
  if (names.has("meta-inf/manifest.xml") || names.has("objectdata.xml")) return "an OpenDocument spreadsheet";
  if (names.has("index/document.iwa") || names.has("index.zip")) return "a Numbers document";
  if (!names.has("[content_types].xml")) return "a ZIP archive, not an XLSX workbook";
  if (names.has("xl/workbook.bin") || /\.bin"[^>]*ContentType="application\/vnd\.ms-excel\.sheet\.binary/i.test(contentTypes)
    || /ContentType="application\/vnd\.ms-excel\.sheet\.binary[^"]*"[^>]*\.bin"/i.test(contentTypes)) {
    return "a binary (XLSB) workbook";
  }
  return null;
}

/**
 * An XLSX workbook unpacked by our own bounded reader (`unpackZip`, within `WORKBOOK_LIMITS`) and
 * handed to SheetJS as an unpacked container: SheetJS never inflates anything itself.
 */
async function readXlsx(XLSX: XlsxModule, bytes: Uint8Array, options: Record<string, unknown>) {
  const entries = await unpackZip(bytes, WORKBOOK_LIMITS, LABEL);
  const names = new Set(entries.map((e) => e.name.toLowerCase()));
  const contentTypes = entries.find((e) => e.name.toLowerCase() === "[content_types].xml");
  const other = otherZipFormat(names, contentTypes ? new TextDecoder().decode(contentTypes.data) : "");
  if (other) throw new Error(`${LABEL} is ${other}; only XLSX and XLS workbooks are read`);
  const container = XLSX.CFB.utils.cfb_new();
  for (const entry of entries) XLSX.CFB.utils.cfb_add(container, entry.name, entry.data, { unsafe: true });
  return ((XLSX as unknown as { parse_zip: ParseZip }).parse_zip)(container, options);
}

/** The rows and columns holding a value in a dense sheet, or null when none does. */
function usedRange(data: readonly (readonly (RawCell | undefined)[] | undefined)[]) {
  let top = -1;
  let bottom = -1;
  let left = Number.MAX_SAFE_INTEGER;
  let right = -1;
  data.forEach((row, r) => {
    if (!row) return;
    row.forEach((cell, c) => {
      if (!cell || cell.v === undefined || cell.v === null) return;
      if (top < 0) top = r;
      bottom = r;
      if (c < left) left = c;
      if (c > right) right = c;
    });
  });
  return top < 0 ? null : { s: { r: top, c: left }, e: { r: bottom, c: right } };
}

/**
 * Reads an XLSX or legacy XLS workbook into text rows with SheetJS (`@e965/xlsx`, loaded on the
 * first call so plugins that never read spreadsheets never load it). Numbers become exact decimal
 * strings through `toPrecision(15)` (never a float's artefacts); cells formatted as dates become
 * `YYYY-MM-DD` from the raw serial in UTC (SheetJS's own dates are local midnight and shift days);
 * `maxRows` caps each sheet. A sheet's rows run from its declared range's top-left corner (or the
 * first value above or left of it) to its last row and column holding a value.
 *
 * Throws when the bytes are not an XLSX (ZIP) or XLS (OLE) workbook, and an `UnpackLimitError`
 * (a `PluginError`, message naming the limit) for a workbook beyond `WORKBOOK_LIMITS` (more than
 * 100 MB unpacked, 2,000,000 cells, ...: checked before SheetJS parses anything) or a sheet whose
 * table would span more than 20,000,000 cells.
 */
export async function readWorkbook(bytes: Uint8Array, maxRows = 1_000_000): Promise<Sheet[]> {
  const XLSX = await import("@e965/xlsx");
  // Dense sheets and no formatted text (`w`) or HTML: what this reader needs, at half the memory;
  // sheetRows stops SheetJS reading a sheet past the rows asked for (a head is cheap to read).
  const options = {
    cellDates: false, cellNF: true, cellText: false, cellHTML: false, dense: true,
    ...(maxRows < 1_000_000 ? { sheetRows: maxRows } : {}),
  };
  let book;
  if (looksLikeZip(bytes)) book = await readXlsx(XLSX, bytes, options);
  else if (bytes[0] === 0xd0 && bytes[1] === 0xcf && bytes[2] === 0x11 && bytes[3] === 0xe0) book = XLSX.read(bytes, { type: "array", ...options });
  else throw new Error(`${LABEL} is not an XLSX or XLS workbook`);
  return book.SheetNames.map((name) => {
    const sheet = book.Sheets[name]!;
    const data = (sheet["!data"] ?? []) as (RawCell | undefined)[][];
    const used = usedRange(data);
    if (!used) return { name, rows: [] };
    const declared = sheet["!ref"] ? XLSX.utils.decode_range(sheet["!ref"]) : used;
    const top = Math.min(declared.s.r, used.s.r);
    const left = Math.min(declared.s.c, used.s.c);
    const bottom = Math.min(used.e.r, top + maxRows - 1);
    const height = bottom - top + 1;
    const width = used.e.c - left + 1;
    if (height * width > MAX_SHEET_SPAN) throw sheetSpanError(name, height, width, MAX_SHEET_SPAN, LABEL);
    const rows: SheetCell[][] = [];
    for (let r = top; r <= bottom; r++) {
      const source = data[r];
      const row: SheetCell[] = [];
      for (let c = left; c <= used.e.c; c++) row.push(cellText(XLSX, source?.[c]));
      rows.push(row);
    }
    return { name, rows };
  });
}

function cellText(XLSX: XlsxModule, cell: RawCell | undefined): SheetCell {
  if (!cell || cell.v === undefined || cell.v === null) return null;
  if (cell.t === "n" && typeof cell.v === "number") {
    if (cell.z && XLSX.SSF.is_date(cell.z)) {
      const d = XLSX.SSF.parse_date_code(cell.v);
      return `${String(d.y).padStart(4, "0")}-${String(d.m).padStart(2, "0")}-${String(d.d).padStart(2, "0")}`;
    }
    return new Decimal(cell.v.toPrecision(15)).toFixed();
  }
  if (cell.t === "b") return cell.v ? "TRUE" : "FALSE";
  if (cell.t === "d" && cell.v instanceof Date) return cell.v.toISOString().slice(0, 10);
  return String(cell.v);
}
