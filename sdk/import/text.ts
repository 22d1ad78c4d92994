/**
 * Bytes to text for broker reports: the encoding is sniffed (BOMs, UTF-16 without a BOM, strict
 * UTF-8, else Windows-1252), the separator guessed from the first lines. No dependencies: Bun's
 * `TextDecoder` knows every WHATWG encoding.
 */

/** Encodings {@link decodeText} can report. `windows-1252` is also what ISO-8859-1 files decode as (WHATWG). */
export type TextEncodingName = "utf-8" | "utf-16le" | "utf-16be" | "windows-1252";

/** A decoded file: `text` without BOM, the `encoding` it was read with, whether a BOM was present. */
export interface DecodedText {
  readonly bom: boolean;
  readonly encoding: TextEncodingName;
  readonly text: string;
}

/** UTF-16 without BOM: NULs in most odd (LE) or even (BE) positions of the first bytes. */
export function utf16Without(bytes: Uint8Array): "utf-16le" | "utf-16be" | null {
  const n = Math.min(bytes.length - (bytes.length % 2), 512);
  if (n < 4) return null;
  let evenNul = 0;
  let oddNul = 0;
  for (let i = 0; i < n; i += 2) {
    if (bytes[i] === 0) evenNul++;
    if (bytes[i + 1] === 0) oddNul++;
  }
  const pairs = n / 2;
  if (oddNul > pairs * 0.6 && evenNul < pairs * 0.1) return "utf-16le";
  if (evenNul > pairs * 0.6 && oddNul < pairs * 0.1) return "utf-16be";
  return null;
}

/**
 * Decodes a report. Order: a UTF-8 or UTF-16 BOM decides; UTF-16 text without a BOM is recognised
 * by its NUL pattern; bytes that are valid UTF-8 are UTF-8; anything else is Windows-1252 (a
 * superset of ISO-8859-1's printable range, as browsers read "latin1").
 * Example: `decodeText(new Uint8Array([0xef, 0xbb, 0xbf, 0x41])).text` is `"A"`.
 */
export function decodeText(bytes: Uint8Array): DecodedText {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    return { bom: true, encoding: "utf-8", text: new TextDecoder("utf-8").decode(bytes.subarray(3)) };
  }
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { bom: true, encoding: "utf-16le", text: new TextDecoder("utf-16le").decode(bytes.subarray(2)) };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { bom: true, encoding: "utf-16be", text: new TextDecoder("utf-16be").decode(bytes.subarray(2)) };
  const utf16 = utf16Without(bytes);
  if (utf16) return { bom: false, encoding: utf16, text: new TextDecoder(utf16).decode(bytes) };
  try {
    return { bom: false, encoding: "utf-8", text: new TextDecoder("utf-8", { fatal: true }).decode(bytes) };
  } catch {
    return { bom: false, encoding: "windows-1252", text: new TextDecoder("windows-1252").decode(bytes) };
  }
}

/** Separators {@link sniffSeparator} chooses from. */
export type Separator = "," | ";" | "\t" | "|";
const SEPARATORS: readonly Separator[] = [";", ",", "\t", "|"];

/** Counts `sep` outside double-quoted fields. */
function countOutsideQuotes(line: string, sep: string): number {
  let count = 0;
  let quoted = false;
  for (const ch of line) {
    if (ch === '"') quoted = !quoted;
    else if (ch === sep && !quoted) count++;
  }
  return count;
}

/**
 * The field separator of delimited text: among `;` `,` tab and `|`, the one whose most common
 * non-zero count per line (outside quotes) is shared by the most of the first 30 non-empty lines,
 * ties broken by the larger count. Lines of a title block above the table (no separator) do not
 * count against it. `,` when nothing fits (a one-column file).
 * Example: `sniffSeparator("a;b\n1,5;2")` is `";"`.
 */
export function sniffSeparator(text: string): Separator {
  const lines = text.split(/\r\n|\n|\r/, 60).filter((l) => l.trim() !== "").slice(0, 30);
  let best: { sep: Separator; score: number; count: number } = { sep: ",", score: 0, count: 0 };
  for (const sep of SEPARATORS) {
    const freq = new Map<number, number>();
    for (const l of lines) {
      const c = countOutsideQuotes(l, sep);
      if (c > 0) freq.set(c, (freq.get(c) ?? 0) + 1);
    }
    for (const [count, score] of freq) {
      if (score > best.score || (score === best.score && count > best.count)) best = { sep, score, count };
    }
  }
  return best.sep;
}
