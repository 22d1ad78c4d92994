/** One CSV field (RFC 4180): null and undefined are empty; quotes, commas and line breaks are quoted. */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return "";
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One CSV line of the given fields, CRLF-terminated (RFC 4180). */
export function csvLine(fields: readonly unknown[]): string {
  return `${fields.map(csvField).join(",")}\r\n`;
}
