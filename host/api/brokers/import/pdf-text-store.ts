import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { readFile, rename, unlink, writeFile } from "node:fs/promises";
import { pdfTextPath } from "../../../../core/brim/import-plugins.ts";
import type { PdfText } from "../../../../sdk/index.ts";
import { sniffFormat } from "../../../../sdk/import/magic.ts";
import { pdfErrorCode, pdfText, PdfTextError, type PdfTextErrorCode } from "../../../../sdk/import/pdf.ts";
import { looksLikeZip, unpackZip, WORKBOOK_LIMITS, type ZipEntry } from "../../../../sdk/import/zip.ts";

/**
 * The text of a stored import file's PDFs, read once per file and kept beside it
 * (`<id>.pdf-text.jsonl`, docs/import.md "Text read once"): detection at upload and at each parse,
 * the parse itself and the text view all read that artefact. A stored file never changes, so the
 * artefact never goes stale; it goes with the file (delete, sweep).
 */

/** One PDF of a stored file: its text, or why it has none (`reason` a `PdfTextErrorCode`). `name` is the ZIP entry's, null for the file itself. */
export interface StoredPdf {
  readonly message: string | null;
  readonly name: string | null;
  readonly reason: string | null;
  readonly text: PdfText | null;
}

/** The PDFs of a stored file as a parse reads them: the file itself, or each PDF of a ZIP sorted by name (with its bytes when they were unpacked). */
export interface StoredPdfs {
  /** Whether the file is a PDF or a ZIP holding PDFs (else its one "document" is the file itself, unreadable as a PDF). */
  readonly pdf: boolean;
  readonly documents: readonly StoredPdf[];
  /** The ZIP's PDF entries (same order as `documents`), null for a file that is not a ZIP of PDFs. */
  readonly entries: readonly ZipEntry[] | null;
}

/** First line of an artefact: what it is and its layout's version (another version is read again and rewritten). */
const HEADER = { format: "pdf-text", version: 1 } as const;

/**
 * The PDF documents of a ZIP upload (a broker's contract notes and dividend notices, one event each),
 * unpacked within the import's limits and sorted by name, or null when it is no ZIP holding a PDF.
 */
export async function pdfDocuments(bytes: Uint8Array): Promise<ZipEntry[] | null> {
  if (!looksLikeZip(bytes)) return null;
  let entries: ZipEntry[];
  try {
    entries = await unpackZip(bytes, WORKBOOK_LIMITS, "the ZIP file");
  } catch {
    return null;
  }
  const pdfs = entries.filter((e) => !e.name.endsWith("/") && !/(^|\/)(__MACOSX|\.)/.test(e.name)
    && (sniffFormat(e.data) === "pdf" || e.name.toLowerCase().endsWith(".pdf")));
  return pdfs.length > 0 ? pdfs.sort((a, b) => a.name.localeCompare(b.name)) : null;
}

/** How the text is read: `pdfText`, or a stand-in of a test that counts the readings. */
export type PdfExtract = (bytes: Uint8Array) => Promise<PdfText>;

/**
 * The PDFs of the stored file at `filePath` with their text: from its artefact when there is one,
 * else read now (each document once) and the artefact written. `bytes`: the file's content when the
 * caller has read it already. Null when the file cannot be read.
 */
export async function storedPdfs(filePath: string, opts: { bytes?: Uint8Array; extract?: PdfExtract } = {}): Promise<StoredPdfs | null> {
  let bytes = opts.bytes;
  if (!bytes) {
    try {
      bytes = new Uint8Array(readFileSync(filePath));
    } catch {
      return null;
    }
  }
  const entries = await pdfDocuments(bytes);
  const pdf = entries !== null || sniffFormat(bytes) === "pdf";
  const count = entries?.length ?? 1;
  const kept = pdf ? await readArtefact(filePath, count) : null;
  if (kept) return { pdf, documents: kept, entries };
  const extract = opts.extract ?? pdfText;
  const documents: StoredPdf[] = [];
  for (const entry of entries ?? [{ name: null, data: bytes }]) documents.push(await textOf(entry.name, entry.data, extract));
  // A document stopped by the time bound may read on a quieter machine: its file is read again next time.
  if (pdf && !documents.some((d) => d.reason === "PDF_TIMEOUT")) await writeArtefact(filePath, documents);
  return { pdf, documents, entries };
}

/** A stored document's text, or its reading's failure thrown again as the `PdfTextError` it was. */
export function textOrThrow(doc: StoredPdf | undefined): PdfText {
  if (doc?.text) return doc.text;
  throw new PdfTextError((doc?.reason ?? "PDF_UNREADABLE") as PdfTextErrorCode, doc?.message ?? "the PDF is damaged or not a PDF and cannot be read");
}

async function textOf(name: string | null, data: Uint8Array, extract: PdfExtract): Promise<StoredPdf> {
  try {
    return { name, text: await extract(data), reason: null, message: null };
  } catch (error) {
    const reason = pdfErrorCode(error);
    return reason && error instanceof Error
      ? { name, text: null, reason, message: error.message }
      : { name, text: null, reason: "PDF_UNREADABLE", message: "the PDF is damaged or not a PDF and cannot be read" };
  }
}

/** The artefact's documents, or null when there is none, it is of another version or it does not hold `count` documents. */
async function readArtefact(filePath: string, count: number): Promise<StoredPdf[] | null> {
  let raw: string;
  try {
    raw = await readFile(pdfTextPath(filePath), "utf8");
  } catch {
    return null;
  }
  try {
    const [head, ...rest] = raw.split("\n").filter((l) => l !== "");
    const header = JSON.parse(head ?? "null") as { format?: unknown; version?: unknown; documents?: unknown } | null;
    if (header?.format !== HEADER.format || header.version !== HEADER.version || header.documents !== count || rest.length !== count) return null;
    return rest.map((line) => JSON.parse(line) as StoredPdf);
  } catch {
    return null;
  }
}

/** Written under a temporary name and renamed: a reader never sees half an artefact, and two writers of the same file write the same text. */
async function writeArtefact(filePath: string, documents: readonly StoredPdf[]): Promise<void> {
  const path = pdfTextPath(filePath);
  const temporary = `${path}.${randomUUID()}.tmp`;
  const body = [JSON.stringify({ ...HEADER, documents: documents.length }), ...documents.map((d) => JSON.stringify(d))].join("\n") + "\n";
  try {
    await writeFile(temporary, body, { flag: "wx", mode: 0o600 });
    await rename(temporary, path);
  } catch {
    // Without an artefact the text is read again next time: slower, never wrong.
    await unlink(temporary).catch(() => undefined);
  }
}
