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
