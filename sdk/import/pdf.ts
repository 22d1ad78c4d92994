import { PluginError } from "../errors.ts";
import type { ImportParseParams, PdfLine, PdfText } from "../kinds/import-plugin.ts";

export type { PdfLine, PdfText };

/** Why a PDF gives no text: encrypted, no text layer (a scan), beyond the page or time bound, or not a readable PDF. */
export type PdfTextErrorCode = "PDF_ENCRYPTED" | "PDF_NO_TEXT" | "PDF_TOO_LONG" | "PDF_TIMEOUT" | "PDF_UNREADABLE";

/**
 * A PDF that {@link pdfText} cannot read, as a `PluginError` `invalid-input` (a plugin lets it
 * propagate) with `code` naming the reason, which the host answers as `params.reason`.
 */
export class PdfTextError extends PluginError {
  readonly code: PdfTextErrorCode;

  constructor(code: PdfTextErrorCode, message: string) {
    super("invalid-input", message);
    this.code = code;
  }
}

/** The code of a {@link PdfTextError}, also from another copy of the SDK (checked by shape), else null. */
export function pdfErrorCode(error: unknown): PdfTextErrorCode | null {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && /^PDF_[A-Z_]+$/.test(code) ? (code as PdfTextErrorCode) : null;
}

/** Options of {@link pdfText}: at most `maxPages` pages (default 50) and `timeoutMs` of reading (default 20 s), checked page by page. */
export interface PdfTextOptions {
  readonly maxPages?: number;
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
}

/** A broker's document has a few pages; a longer file is not a contract note and would hold a worker for seconds. */
export const PDF_MAX_PAGES = 50;
export const PDF_TIMEOUT_MS = 20_000;

interface TextItem {
  str: string;
  transform: number[];
  width: number;
  height: number;
}

/** Items whose baselines are this close (in points) are one line. */
const SAME_LINE = 2;

function looksLikePdf(bytes: Uint8Array): boolean {
  // The header may follow up to 1 KiB of junk, as readers accept.
  const head = new TextDecoder("latin1").decode(bytes.subarray(0, 1024));
  return head.includes("%PDF-");
}

/** One page's items as lines, top to bottom and left to right; a gap wider than a space becomes two spaces, so columns stay apart. */
function linesOf(items: readonly TextItem[], page: number): PdfLine[] {
  const placed = items
    .filter((i) => i.str.trim() !== "")
    .map((i) => ({ str: i.str, x: i.transform[4] ?? 0, y: i.transform[5] ?? 0, width: i.width, size: Math.abs(i.transform[0] ?? 0) || i.height || 10 }))
    .sort((a, b) => b.y - a.y || a.x - b.x);
  const rows: (typeof placed)[] = [];
  for (const item of placed) {
    const row = rows[rows.length - 1];
    if (row && Math.abs(row[0]!.y - item.y) <= SAME_LINE) row.push(item);
    else rows.push([item]);
  }
  return rows.map((row) => {
    row.sort((a, b) => a.x - b.x);
    let text = "";
    let end = -Infinity;
    for (const item of row) {
      const gap = item.x - end;
      if (text !== "") text += gap > item.size * 0.6 ? "  " : gap > item.size * 0.15 && !text.endsWith(" ") ? " " : "";
      text += item.str;
      end = item.x + item.width;
    }
    return { page, text: text.replace(/\s+$/, ""), x: Math.round(row[0]!.x * 10) / 10, y: Math.round(row[0]!.y * 10) / 10 };
  });
}

/**
 * The text of a PDF (a contract note, a dividend notice) as lines in reading order, each with its
 * page and position, so an importer is a pure parser over text. Runs where the plugin's parse runs
 * (the host's worker pool). The PDF library (`unpdf`, a build of PDF.js without native parts) loads
 * on first use. Throws a {@link PdfTextError}: `PDF_ENCRYPTED` (a password is needed),
 * `PDF_NO_TEXT` (only images, e.g. a scan), `PDF_TOO_LONG` (more than `maxPages` pages),
 * `PDF_TIMEOUT` (reading took longer than `timeoutMs`), `PDF_UNREADABLE` (not a PDF, or damaged).
 */
export async function pdfText(bytes: Uint8Array, options: PdfTextOptions = {}): Promise<PdfText> {
  const maxPages = options.maxPages ?? PDF_MAX_PAGES;
  const deadline = Date.now() + (options.timeoutMs ?? PDF_TIMEOUT_MS);
  if (!looksLikePdf(bytes)) throw new PdfTextError("PDF_UNREADABLE", "the file is not a PDF");
  const { getDocumentProxy } = await import("unpdf");
  let doc: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    // A copy: PDF.js takes ownership of (detaches) the buffer it is given.
    doc = await getDocumentProxy(bytes.slice(), { verbosity: 0, isEvalSupported: false, disableFontFace: true, useSystemFonts: false, stopAtErrors: false });
  } catch (error) {
    const name = (error as { name?: string } | null)?.name;
    if (name === "PasswordException") throw new PdfTextError("PDF_ENCRYPTED", "the PDF is protected by a password; save it without protection and upload it again");
    throw new PdfTextError("PDF_UNREADABLE", "the PDF is damaged or not a PDF and cannot be read");
  }
  try {
    if (doc.numPages > maxPages) throw new PdfTextError("PDF_TOO_LONG", `the PDF has ${doc.numPages} pages; at most ${maxPages} are read (a broker's document has a few)`);
    const lines: PdfLine[] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      if (options.signal?.aborted || Date.now() > deadline) throw new PdfTextError("PDF_TIMEOUT", `reading the PDF's text took longer than ${Math.round((options.timeoutMs ?? PDF_TIMEOUT_MS) / 1000)} s and was stopped`);
      let items: TextItem[];
      try {
        const page = await doc.getPage(n);
        items = (await page.getTextContent()).items.filter((i): i is TextItem & typeof i => "str" in i) as TextItem[];
      } catch {
        throw new PdfTextError("PDF_UNREADABLE", `page ${n} of the PDF is damaged and cannot be read`);
      }
      lines.push(...linesOf(items, n));
    }
    if (lines.length === 0) throw new PdfTextError("PDF_NO_TEXT", "the PDF holds no text (only images, e.g. a scan); download the original document from the broker");
    let text = "";
    lines.forEach((line, i) => {
      if (i > 0) text += line.page !== lines[i - 1]!.page ? "\n\f\n" : "\n";
      text += line.text;
    });
    return { lines, pages: doc.numPages, text };
  } finally {
    await doc.destroy().catch(() => undefined);
  }
}

/**
 * The text of the PDF a `parse` was given: the host's reading of it (`params.pdf`, read once per
 * stored file and kept beside it) when there is one, else {@link pdfText} of `params.bytes` (a host
 * before 1.15, or a test calling `parse` directly). The same lines either way.
 */
export async function pdfTextOf(params: Pick<ImportParseParams, "bytes" | "pdf">, options?: PdfTextOptions): Promise<PdfText> {
  return params.pdf ?? pdfText(params.bytes, options);
}
