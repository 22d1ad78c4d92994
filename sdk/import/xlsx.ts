import { Decimal } from "../money.ts";

/** A cell of {@link readWorkbook}: text, a decimal string for numbers, an ISO day for dates, or null. */
export type SheetCell = string | null;

/** One worksheet: its name and rows of cells as text (numbers and dates normalised, see {@link readWorkbook}). */
export interface Sheet {
  readonly name: string;
  readonly rows: readonly (readonly SheetCell[])[];
}

/**
 * Reads an XLSX or legacy XLS workbook into text rows with SheetJS (`@e965/xlsx`, loaded on the
 * first call so plugins that never read spreadsheets never load it). Numbers become exact decimal
 * strings through `toPrecision(15)` (never a float's artefacts); cells formatted as dates become
 * `YYYY-MM-DD` from the raw serial in UTC (SheetJS's own dates are local midnight and shift days);
 * `maxRows` caps each sheet. Throws when the bytes are not a workbook.
 */
export async function readWorkbook(bytes: Uint8Array, maxRows = 1_000_000): Promise<Sheet[]> {
  const XLSX = await import("@e965/xlsx");
  // sheetRows stops SheetJS reading a sheet past the rows asked for (a head is cheap to read).
  const book = XLSX.read(bytes, { type: "array", cellDates: false, cellNF: true, ...(maxRows < 1_000_000 ? { sheetRows: maxRows } : {}) });
  return book.SheetNames.map((name) => {
    const sheet = book.Sheets[name]!;
    const range = XLSX.utils.decode_range(sheet["!ref"] ?? "A1:A1");
    const rows: SheetCell[][] = [];
    for (let r = range.s.r; r <= Math.min(range.e.r, range.s.r + maxRows - 1); r++) {
      const row: SheetCell[] = [];
      for (let c = range.s.c; c <= range.e.c; c++) {
        const cell = sheet[XLSX.utils.encode_cell({ r, c })] as { t: string; v: unknown; z?: string; w?: string } | undefined;
        row.push(cellText(XLSX, cell));
      }
      rows.push(row);
    }
    return { name, rows };
  });
}

function cellText(XLSX: typeof import("@e965/xlsx"), cell: { t: string; v: unknown; z?: string; w?: string } | undefined): SheetCell {
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
