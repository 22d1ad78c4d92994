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
