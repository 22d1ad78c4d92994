/**
 * The one CSV writer of the server (RFC 4180, CRLF). Every `text/csv` answer goes through it.
 *
 * Spreadsheet formula injection (OWASP "CSV Injection"): a spreadsheet runs a cell that starts
 * with `=`, `+`, `-`, `@`, a tab or a carriage return as a formula, so a note such as
 * `=HYPERLINK(...)` written by one user could run in another's spreadsheet. Text cells starting so
 * are prefixed with a single quote `'`, which spreadsheets show as text. Whether a cell is text is
 * decided by its column's kind, never by looking at the value: `number` columns (decimals, ids)
 * are written exactly as stored, so `-12.50` stays `-12.50`.
 */

/** How a column's cells are written: `number` as stored, `text` neutralised. */
export type CsvKind = "number" | "text";

const FORMULA_START = /^[=+\-@\t\r]/;

/** `text` with a leading `'` when a spreadsheet would read it as a formula; otherwise unchanged. */
export function neutraliseFormula(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/**
 * One CSV field: null and undefined are empty; a `text` cell is neutralised (see above); quotes,
 * commas and line breaks are quoted.
 */
export function csvField(value: unknown, kind: CsvKind = "text"): string {
  if (value === null || value === undefined) return "";
  const text = kind === "text" ? neutraliseFormula(String(value)) : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One CSV line of the given fields, CRLF-terminated; `kinds[i]` is field i's kind (text when absent). */
export function csvLine(fields: readonly unknown[], kinds: readonly CsvKind[] = []): string {
  return `${fields.map((field, i) => csvField(field, kinds[i] ?? "text")).join(",")}\r\n`;
}
