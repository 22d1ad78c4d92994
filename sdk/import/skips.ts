import type { ImportSkippedRow, ImportWarning } from "../kinds/import-plugin.ts";

/**
 * The one way an importer leaves a data line out: `skip(warning)` lists the line in `skippedRows`
 * with the warning's message as its reason, and keeps the warning (an `info` for an expected skip,
 * a `warning` for one the user should look at). Returns the number of warnings, like `push`, so
 * `return skip({...})` ends a row callback as `return warnings.push({...})` did.
 * ```ts
 * const warnings: ImportWarning[] = [];
 * const skippedRows: ImportSkippedRow[] = [];
 * const skip = skipper(warnings, skippedRows);
 * if (!date) return skip({ code: "rowSkipped", message: `Row ${row} has no date`, row, severity: "warning" });
 * return { transactions, warnings, skippedRows };
 * ```
 */
export function skipper(warnings: ImportWarning[], skippedRows: ImportSkippedRow[]): (warning: ImportWarning & { readonly row: number }) => number {
  return (warning) => {
    skippedRows.push({ line: warning.row, reason: warning.message });
    return warnings.push(warning);
  };
}

/**
 * The reason for a line whose cell cannot be read: the line, the column, the value found and what
 * was expected, e.g. `Line 6: Amount "12x4" is not a number` or `Line 9: Date is empty, expected a
 * date (DD/MM/YYYY)`. The value is cut at 40 characters.
 */
export function unreadable(line: number, column: string, value: string, expected: string): string {
  const v = value.trim();
  if (v === "") return `Line ${line}: ${column} is empty, expected ${expected}`;
  return `Line ${line}: ${column} "${v.length > 40 ? `${v.slice(0, 40)}...` : v}" is not ${expected}`;
}

// The reason helpers below are the built-in importers' own (imported from this file), not yet part of
// the SDK's published entry.

/**
 * What a skipped line was, for its reason: its type cell in quotes, then what else the line says
 * that can be read (a description or ticker, the date, the amount), blanks left out and each cut at
 * 40 characters, e.g. `"Swap" (EURUSD, 2024-03-01, -1.20 EUR)`. A line without a type reads
 * `a line without a type (...)`.
 */
export function lineWas(type: string, ...details: (string | null | undefined)[]): string {
  const shown = details.map((d) => (d ?? "").trim()).filter((d) => d !== "").map((d) => (d.length > 40 ? `${d.slice(0, 40)}...` : d));
  const kind = type.trim() === "" ? "a line without a type" : `"${type.trim()}"`;
  return shown.length > 0 ? `${kind} (${shown.join(", ")})` : kind;
}

/**
 * The reason for a line left out on purpose, in the words a user can act on: the line, what it was
 * (`lineWas`), why it is not imported and what to do, e.g. `notImported(12, lineWas("Swap", "EURUSD"),
 * "is the financing of a CFD position, which is not a holding", "enter it by hand as a FEE if you
 * count CFD costs")` reads `Line 12: "Swap" (EURUSD) is the financing of a CFD position, which is
 * not a holding; not imported, enter it by hand as a FEE if you count CFD costs`. For a line that
 * changes nothing, `todo` says so ("nothing to enter: this line moves no cash").
 */
export function notImported(line: number, what: string, why: string, todo: string): string {
  return `Line ${line}: ${what} ${why}; not imported, ${todo}`;
}

/**
 * The reason for a line whose cell cannot be read (`unreadable`), with what the line was and what
 * to do, e.g. `Line 8: Amount "1,2x" is not an amount, so "Deposit" (2024-03-01) is not imported;
 * correct the cell and upload the file again, or enter the row by hand`.
 */
export function unreadableLine(line: number, column: string, value: string, expected: string, what: string): string {
  return `${unreadable(line, column, value, expected)}, so ${what} is not imported; correct the cell and upload the file again, or enter the row by hand`;
}

/**
 * The reason for a line of a type the importer does not read: `Line 7: "Gift" (2024-03-01) is a
 * type the importer does not know, so what it moved cannot be told; not imported, enter it by hand
 * if it moved cash or shares` (`moved` names what the broker holds: "cash or coins" for an exchange).
 */
export function unknownType(line: number, what: string, moved = "cash or shares"): string {
  return notImported(line, what, "is a type the importer does not know, so what it moved cannot be told", `enter it by hand if it moved ${moved}`);
}
