import { createHash, randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { type AssetHint, candidateIndex, findCandidates, type KnownAsset } from "../../../../core/brim/asset-candidates.calc.ts";
import type { LedgerFact } from "../../../../core/brim/duplicates.calc.ts";
import type { ParseRun } from "../../../../core/brim/import-plugins.ts";
import type { AssetMappingDoc, TxCreateDoc } from "../../../../core/brim/parse-result.ts";
import { type BatchDocument, interestCoveredByNotices } from "../../../../core/brim/pdf-batch.calc.ts";
import { previewOf, type PreviewRun } from "../../../../core/brim/preview.calc.ts";
import { refusalOf, type UnpackRefusal, unpackRefusal } from "../../../../core/brim/unpack-check.calc.ts";
import { sniffUpload, type SniffResult } from "../../../../core/uploads/mime-sniff.ts";
import { ASSETS_SQL, buildParseResult, duplicateReport, LEDGER_SQL, ledgerParams, type PipelineData, type PipelineMeta } from "../../../../core/brim/pipeline.ts";
import type { SqlReader } from "../../../../core/db/sql-reader.ts";
import type { DatabaseTarget } from "../../../db/dialect.ts";
import { withReadSnapshot } from "../../../db/read-snapshot.ts";
import { type ImportFileMeta, type ImportPlugin, type ImportSheetHead, isPluginError } from "../../../../sdk/index.ts";
import { describeWorkbook } from "../../../../sdk/import/meta.ts";
import { pdfErrorCode } from "../../../../sdk/import/pdf.ts";
import type { ZipEntry } from "../../../../sdk/import/zip.ts";
import type { ImportedTransaction, ImportResult, ImportWarning } from "../../../../sdk/index.ts";
import type { PdfDocumentText, PdfHead } from "../../../../core/brim/import-plugins.ts";
import { anonymise } from "../../../../core/brim/pdf-anonymise.ts";
import { workerPluginInstance } from "../../../plugins/instance.ts";
import { type StoredPdf, storedPdfs, textOrThrow } from "./pdf-text-store.ts";
import { DuplicatesBody, duplicatesRequest, MAX_DUPLICATE_ROWS } from "./brim.schema.ts";
import { type Issue, issuesOf } from "../../../../core/errors/validation-issues.ts";
import { handOver } from "../../../workers/hand-over.ts";

/**
 * Input of the worker's `brimParse`: which plugin (a built-in id, or an external plugin's entry
 * file), the stored file's path, its meta, the pipeline's meta and the database file it reads candidates and the
 * ledger from (a read-only connection of its own).
 */
export interface BrimParseInput {
  code: string;
  db: DatabaseTarget;
  file: ImportFileMeta;
  /** The stored file: read here, so its bytes are neither read nor copied by the request thread. */
  filePath: string;
  meta: PipelineMeta;
  options?: Record<string, unknown>;
  path: string | null;
  /** The plugin's raw configuration from the plugin configuration file, parsed by its schema in the worker. */
  config?: unknown;
}

export type BrimParseOutput = ParseRun;

/** The pipeline's reads on a reader of the worker's own connection (host/db/read-snapshot.ts). */
function readsOf(reader: SqlReader): PipelineData {
  return {
    assets: () => reader.all<KnownAsset>(ASSETS_SQL),
    ledger: (brokerId, from, to) => reader.all<LedgerFact>(LEDGER_SQL, ledgerParams(brokerId, from, to)),
  };
}

/** The importer of a parse, made once per worker thread by the one in-worker loader (host/plugins/instance.ts). */
async function pluginFor(code: string, path: string | null, config: unknown): Promise<ImportPlugin> {
  return workerPluginInstance("import-plugin", { id: code, path, config }, { network: true });
}

/**
 * Runs one import plugin's `parse` and the BRIM pipeline in a pool worker, and answers the parse
 * result as gzipped JSON: the request thread only moves bytes. A `PluginError` (the plugin's
 * verdict on a bad file) comes back as its message; anything else as a generic message, since an
 * exception's text may quote the file. The pool's time limit ends a run that never finishes.
 */
export async function brimParse(input: BrimParseInput): Promise<BrimParseOutput> {
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(readFileSync(input.filePath));
  } catch {
    return { ok: false, message: "the stored file could not be read" };
  }
  // A ZIP beyond the unpacking limits never reaches a plugin (which could unpack it whole).
  const refusal = await unpackRefusal(bytes, input.file.filename);
  if (refusal) return { ok: false, message: refusal.message, refusal };
  let result;
  try {
    const plugin = await pluginFor(input.code, input.path, input.config);
    // A PDF's text, or each of a ZIP's, as detection read it (docs/import.md "Text read once").
    const pdfs = input.file.format === "pdf" || input.file.extension === "zip" ? await storedPdfs(input.filePath, { bytes }) : null;
    if (pdfs?.entries) {
      const bundle = await parseDocuments(plugin, pdfs.entries, pdfs.documents, input);
      if (!bundle.ok) return bundle;
      result = bundle.result;
    } else {
      const pdf = pdfs?.pdf ? pdfs.documents[0]?.text : null;
      result = await plugin.parse({ bytes, file: input.file, options: input.options, ...(pdf ? { pdf } : {}) });
    }
  } catch (error) {
    // A sheet the reader refused after unpacking it (its table spans too many cells).
    const refused = refusalOf(error);
    if (refused) return { ok: false, message: refused.message, refusal: refused };
    // A PDF without readable text says why (encrypted, a scan, damaged), as a code the API answers.
    const reason = pdfErrorCode(error);
    if (isPluginError(error)) return reason ? { ok: false, message: error.message, reason } : { ok: false, message: error.message };
    return { ok: false, message: "the file could not be read (the importer failed unexpectedly)" };
  }
  const doc = await withReadSnapshot(input.db, (reader) => buildParseResult(result, input.meta, readsOf(reader), randomUUID));
  return { ok: true, gzipped: Bun.gzipSync(JSON.stringify(doc)), transactions: doc.transactions.length };
}

/**
 * Asset candidates of each hint (`POST /brokers/import/asset-candidates`) against every asset, read on
 * the worker's own connection and indexed once, answered as gzipped JSON `{items: [{candidates}]}`.
 */
export async function brimCandidates(input: { db: DatabaseTarget; hints: AssetHint[] }): Promise<Uint8Array> {
  const index = candidateIndex(await withReadSnapshot(input.db, (reader) => readsOf(reader).assets()));
  return Bun.gzipSync(JSON.stringify({ items: input.hints.map((h) => ({ candidates: findCandidates(h, index) })) }), { level: 6 });
}

/** Input of the worker's `brimDuplicates`: the broker, and the rows and mappings as the bytes of one JSON text (moved to the worker, not copied). */
export interface BrimDuplicatesInput {
  brokerId: number;
  db: DatabaseTarget;
  /** `{creates, mappings}` as UTF-8 */
  json: Uint8Array;
}

/**
 * The duplicate report of edited rows against the broker's ledger (`POST /brokers/import/duplicates`),
 * read through the worker's own connection and answered as gzipped JSON: 50,000 rows cost the
 * request thread neither the ledger read, the matching nor the answer's serialisation, and the
 * answer's bytes go back moved, not copied.
 */
export async function brimDuplicates(input: BrimDuplicatesInput): Promise<Uint8Array> {
  const { creates, mappings } = JSON.parse(new TextDecoder().decode(input.json)) as {
    creates: TxCreateDoc[]; mappings: Pick<AssetMappingDoc, "fake_asset_id" | "selected_asset_id">[];
  };
  const report = await withReadSnapshot(input.db, (reader) =>
    duplicateReport(creates, mappings, (from, to) => readsOf(reader).ledger(input.brokerId, from, to)));
  const gzipped = Bun.gzipSync(JSON.stringify(report));
  return handOver(gzipped, [gzipped.buffer]);
}

/** A duplicates body read by {@link brimDuplicatesBody}: not JSON (null), over a limit (413), its 422 issues, or the check's input. */
export type DuplicatesBodyRead = null | { over: { limit: number; requested: number; unit: string } } | { issues: Issue[] } | { brokerId: number; json: Uint8Array<ArrayBuffer> };

/**
 * Parses and validates the bytes of a `POST /brokers/import/duplicates` body (50,000 rows are
 * ~5 MB: 0.2 s of JSON parsing and schema checks the request thread no longer spends) with the
 * route's schema, and renders a refusal's issues as the 422 lists them (core/errors/validation-issues.ts).
 * The body's bytes come moved and the check's input goes back moved: neither 5 MB is copied by the
 * request thread (docs/import.md "Performance").
 */
export function brimDuplicatesBody(input: { bytes: Uint8Array }): DuplicatesBodyRead {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder().decode(input.bytes));
  } catch {
    return null;
  }
  for (const key of ["transactions", "asset_mappings"] as const) {
    const list = (value as Record<string, unknown> | null)?.[key];
    if (Array.isArray(list) && list.length > MAX_DUPLICATE_ROWS) return { over: { limit: MAX_DUPLICATE_ROWS, requested: list.length, unit: key.replace("_", " ") } };
  }
  const parsed = DuplicatesBody.safeParse(value);
  if (!parsed.success) return { issues: issuesOf("body", DuplicatesBody, parsed.error.issues) };
  const request = duplicatesRequest(parsed.data);
  return handOver(request, [request.json.buffer]);
}

/** The preview of a stored file (`GET /brokers/import/files/{id}/preview`); null when it cannot be read. */
export async function brimPreview(input: { filePath: string; sheetName?: string }): Promise<PreviewRun | null> {
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(readFileSync(input.filePath));
  } catch {
    return null;
  }
  // A PDF's preview is its text: the one read for detection (docs/import.md "Text read once").
  return previewOf(bytes, input.sheetName, async (pdf) => textOrThrow((await storedPdfs(input.filePath, { bytes: pdf }))?.documents[0]));
}

/**
 * An uploaded file's sniffed type (executables, scripts and HTML refused), SHA-256 and, for a ZIP
 * (an XLSX), whether it is beyond the unpacking limits, from the stored bytes.
 */
export async function brimInspect(input: { filePath: string; filename: string }): Promise<{ sha256: string; sniffed: SniffResult; unpack: UnpackRefusal | null }> {
  const bytes = new Uint8Array(readFileSync(input.filePath));
  const sniffed = sniffUpload(bytes, input.filename);
  const unpack = sniffed.blocked ? null : await unpackRefusal(bytes, input.filename);
  return { sha256: createHash("sha256").update(bytes).digest("hex"), sniffed, unpack };
}

/** The first rows of each sheet of a stored workbook, for detection; null when it is no readable workbook. */
export async function brimSheets(input: { filePath: string }): Promise<ImportSheetHead[] | null> {
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(readFileSync(input.filePath));
  } catch {
    return null;
  }
  const meta = await describeWorkbook(bytes, "workbook");
  return meta.sheets ? [...meta.sheets] : null;
}

const baseName = (name: string) => name.slice(name.lastIndexOf("/") + 1);

/**
 * Parses each PDF of a ZIP with `plugin` into one result: every row carries its document's number in
 * the ZIP (`row`, 1-based, documents sorted by name) and the document's name (the importer names it in
 * the description), rows ordered by date. A document that cannot be read, or is the same bytes as an
 * earlier one, is left out with a warning and a skipped row; the others still parse. None readable:
 * the first document's message (and reason). `texts[i]` is the stored text of `documents[i]`.
 */
async function parseDocuments(plugin: ImportPlugin, documents: readonly ZipEntry[], texts: readonly StoredPdf[], input: BrimParseInput): Promise<{ ok: true; result: ImportResult } | { message: string; ok: false; reason?: string }> {
  const transactions: ImportedTransaction[] = [];
  const warnings: ImportWarning[] = [];
  const skippedRows: { line: number; reason: string }[] = [];
  const parsedDocs: BatchDocument[] = [];
  const seen = new Map<string, string>();
  let first: { message: string; reason?: string } | null = null;
  for (const [index, entry] of documents.entries()) {
    const row = index + 1;
    const name = baseName(entry.name);
    const sha = createHash("sha256").update(entry.data).digest("hex");
    const twin = seen.get(sha);
    if (twin !== undefined) {
      const reason = `${name} is the same document as ${twin}; left out`;
      warnings.push({ code: "duplicateDocument", message: reason, row, severity: "info" });
      skippedRows.push({ line: row, reason });
      continue;
    }
    seen.set(sha, name);
    try {
      const file: ImportFileMeta = { extension: "pdf", filename: name, format: "pdf", head: "", sizeBytes: entry.data.length };
      const pdf = texts[index]?.text;
      const parsed = await plugin.parse({ bytes: entry.data, file, options: input.options, ...(pdf ? { pdf } : {}) });
      parsedDocs.push({ name, row, transactions: parsed.transactions, ...(parsed.detectedFormat ? { format: parsed.detectedFormat } : {}) });
      for (const w of parsed.warnings) warnings.push({ ...w, row });
      // A document's own skipped lines (an account statement's trades left to their contract notes) stay visible.
      for (const s of parsed.skippedRows ?? []) skippedRows.push({ line: row, reason: `${name}: ${s.reason}` });
      if (parsed.transactions.length === 0) skippedRows.push({ line: row, reason: `${name}: no transactions in the document` });
    } catch (error) {
      const code = pdfErrorCode(error);
      const message = isPluginError(error) ? error.message : "the document could not be read (the importer failed unexpectedly)";
      first ??= code ? { message, reason: code } : { message };
      warnings.push({ code: "documentUnreadable", message: `${name}: ${message}`, row, severity: "warning" });
      skippedRows.push({ line: row, reason: `${name}: ${message}` });
    }
  }
  // A statement's interest row that an interest notice of the batch books (gross and taxes) is left out.
  const covered = interestCoveredByNotices(parsedDocs);
  for (const doc of parsedDocs) {
    doc.transactions.forEach((tx, index) => {
      const cover = covered.find((c) => c.document === doc.row && c.index === index);
      if (!cover) return transactions.push({ ...tx, row: doc.row });
      warnings.push({ code: "interestInNotice", message: cover.reason, row: doc.row, severity: "info" });
      skippedRows.push({ line: doc.row, reason: cover.reason });
    });
  }
  if (transactions.length === 0 && first) return { ok: false, ...first };
  // Stable: the rows of one document keep their order.
  transactions.sort((a, b) => a.date.localeCompare(b.date));
  return { ok: true, result: { transactions, warnings, skippedRows, detectedFormat: `pdf-documents/${documents.length}` } };
}

/** The first 4 KiB of a stored PDF's text (of a ZIP of PDFs: its first readable document's), for detection, or why it has none. */
export async function brimPdfHead(input: { filePath: string }): Promise<PdfHead> {
  const pdfs = await storedPdfs(input.filePath);
  if (!pdfs) return { ok: false, reason: "PDF_UNREADABLE", message: "the stored file could not be read" };
  const read = pdfs.documents.find((d) => d.text !== null);
  if (read) return { ok: true, head: read.text!.text.slice(0, 4096) };
  const failed = pdfs.documents[0]!;
  return { ok: false, reason: failed.reason ?? "PDF_UNREADABLE", message: failed.message ?? "the PDF is damaged or not a PDF and cannot be read" };
}

/**
 * The text of each PDF of a stored file (`GET /brokers/import/files/{id}/pdf-text`), as importers
 * read it: the file itself when a PDF, each PDF of a ZIP (sorted by name, as a parse reads them);
 * anonymised when asked. Null when the file is gone or is neither.
 */
export async function brimPdfTexts(input: { anonymise: boolean; filePath: string; filename: string }): Promise<PdfDocumentText[] | null> {
  const pdfs = await storedPdfs(input.filePath);
  if (!pdfs?.pdf) return null;
  return pdfs.documents.map((d) => {
    const text = d.text === null ? null : input.anonymise ? anonymise(d.text.text) : d.text.text;
    return { name: baseName(d.name ?? input.filename), text, reason: d.reason, message: d.message };
  });
}
