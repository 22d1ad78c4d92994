import { utf16Without } from "./text.ts";

/**
 * What a file is, from its first bytes (four magic checks; the extension is never trusted):
 * `xlsx` (a zip: OOXML workbooks are zips), `xls` (an OLE compound file), `pdf`, `xml`
 * (text starting with `<`), `text` (no NUL in the first 4 KiB outside UTF-16), else `binary`.
 */
export type FileFormat = "binary" | "pdf" | "text" | "xls" | "xlsx" | "xml";

/** Sniffs {@link FileFormat}. Example: `sniffFormat(new TextEncoder().encode("<?xml ..."))` is `"xml"`. */
export function sniffFormat(bytes: Uint8Array): FileFormat {
  const b = bytes;
  if (b[0] === 0x50 && b[1] === 0x4b && b[2] === 0x03 && b[3] === 0x04) return "xlsx";
  if (b[0] === 0xd0 && b[1] === 0xcf && b[2] === 0x11 && b[3] === 0xe0) return "xls";
  if (b[0] === 0x25 && b[1] === 0x50 && b[2] === 0x44 && b[3] === 0x46) return "pdf";
  const utf16 = (b[0] === 0xff && b[1] === 0xfe) || (b[0] === 0xfe && b[1] === 0xff) || utf16Without(b) !== null;
  const head = b.subarray(0, 4096);
  if (!utf16 && head.includes(0)) return "binary";
  // Control bytes other than tab, CR, LF, FF, ESC and SUB: not a text report.
  let control = 0;
  for (const byte of head) if (byte < 0x09 || (byte > 0x0d && byte < 0x1a) || (byte > 0x1b && byte < 0x20)) control++;
  if (!utf16 && control > head.length * 0.01) return "binary";
  if (utf16) return "text";
  let at = b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf ? 3 : 0;
  while (at < head.length && (head[at] === 0x20 || head[at] === 0x0a || head[at] === 0x0d || head[at] === 0x09)) at++;
  return head[at] === 0x3c ? "xml" : "text";
}
