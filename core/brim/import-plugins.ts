import type { ImportFileMeta, ImportPlugin, ImportSheetHead } from "../../sdk/index.ts";
import type { Issue } from "../errors/validation-issues.ts";
import type { SniffResult } from "../uploads/mime-sniff.ts";
import type { PipelineMeta } from "./pipeline.ts";
import type { PreviewRun } from "./preview.calc.ts";
import type { UnpackRefusal } from "./unpack-check.calc.ts";
import type { AssetHint } from "./asset-candidates.calc.ts";

/** DI token of the {@link ImportPluginDirectory} port (registered by the host, in host/api/brokers/import/brim-port.ts). */
export const IMPORT_PLUGINS = Symbol("ImportPluginDirectory");

/** One loaded import plugin as the BRIM service sees it. */
export interface ImportPluginInfo {
  readonly code: string;
  readonly description: string;
  readonly detectionPriority: number;
  readonly docsUrl: string | null;
  readonly iconUrl: string | null;
  readonly instance: ImportPlugin;
  readonly name: string;
  readonly supportedExtensions: readonly string[];
  readonly version: string;
}

/**
 * What one parse run gave: the parse result as gzipped JSON (built and compressed off the request
 * thread, so a 50,000-row result never blocks it) with its transaction count, or a message for
 * the user (bad file, time limit); `refusal` when the file is beyond the unpacking limits (no
 * other importer is tried: none could read it).
 */
export type ParseRun = { gzipped: Uint8Array; ok: true; transactions: number } | { message: string; ok: false; reason?: string; refusal?: UnpackRefusal };

/** A PDF's text head for detection, or the reason it has none (`PDF_ENCRYPTED`, `PDF_NO_TEXT`, ...) with a message. */
export type PdfHead = { head: string; ok: true } | { message: string; ok: false; reason: string };

/**
 * Where the text of a stored PDF (or of each PDF of a stored ZIP) is kept once read: beside the file
 * (`<file>.pdf-text.jsonl`), so its name starts with the file's id and it goes with the file.
 */
export function pdfTextPath(filePath: string): string {
  return `${filePath}.pdf-text.jsonl`;
}

/** One PDF's text (anonymised on request), or why it has none (`reason`: a `PdfTextErrorCode`). */
export interface PdfDocumentText {
  readonly message: string | null;
  readonly name: string;
  readonly reason: string | null;
  readonly text: string | null;
}

/**
 * The first half of an import commit, made off the request thread from the stored parse: the plan
 * (`CommitPlan` of commit-plan.calc.ts as JSON, its `rows` apart in slices of JSON the request
 * thread reads a turn of the event loop each) with the SHA-256 of the stored parse it was made
 * from; the decisions' references the parse does not have (answered as a 422); or no stored parse.
 */
export type CommitPlanRun =
  | { ok: false; missing: true }
  | { issues: Issue[]; ok: false }
  | { ok: true; parseToken: string; plan: string; rows: string[] };

/**
 * The import plugins and how to run one, and the rest of the file work kept off the request
 * thread (inspecting an upload, previews, duplicate checks). `parse` runs off the request thread (the host uses its
 * worker pool) and ends a run that exceeds the plugin's time limit: a hostile file cannot stall
 * requests.
 */
export interface ImportPluginDirectory {
  /**
   * Asset candidates of each hint (`POST /brokers/import/asset-candidates`) against every asset, as
   * gzipped JSON `{items: [{candidates}]}`, computed off the request thread (1,000 hints against
   * thousands of assets).
   */
  candidates(hints: readonly AssetHint[]): Promise<Uint8Array>;
  /**
   * The duplicate report of `request`'s creates against broker `brokerId`'s ledger, as gzipped JSON,
   * computed off the request thread (50,000 rows take hundreds of ms to read, match and serialise).
   * `request`: `{creates, mappings}` as UTF-8 JSON (creates are `TxCreateDoc`s of the broker, mappings
   * `{fake_asset_id, selected_asset_id}`) in a buffer of its own, handed over: moved to the worker, so
   * the caller must not read it afterwards.
   */
  duplicates(brokerId: number, request: Uint8Array<ArrayBuffer>): Promise<Uint8Array>;
  /** The plan of an import commit of the parse stored at `parsePath` under `decisions` (`CommitDecisions` as JSON), off the request thread. */
  commitPlan(input: { decisions: string; parsePath: string }): Promise<CommitPlanRun>;
  get(code: string): ImportPluginInfo | undefined;
  /**
   * An uploaded file's content type (or refusal) from its whole content, its SHA-256, and for a ZIP
   * whether it is beyond the unpacking limits (`unpack`), read off the request thread.
   */
  inspect(filePath: string, filename: string): Promise<{ sha256: string; sniffed: SniffResult; unpack: UnpackRefusal | null }>;
  /** The preview of the stored file at `filePath`, made off the request thread; null when the file is gone. */
  preview(filePath: string, sheetName?: string): Promise<PreviewRun | null>;
  list(): ImportPluginInfo[];
  /**
   * The first rows of each sheet of the workbook at `filePath` (detection reads a spreadsheet by its
   * content), read off the request thread; null when it is no readable workbook. Optional: a
   * directory without it leaves spreadsheets to be told apart by trying the plugins.
   */
  sheets?(filePath: string): Promise<ImportSheetHead[] | null>;
  /**
   * The text of the PDF at `filePath` (its first 4 KiB, detection reads a PDF by its content), or
   * why it has none (`reason`: a `PdfTextErrorCode` of `@portfolio-tracker/sdk/import`), read off the
   * request thread. Optional: a directory without it leaves PDFs to the plugins a user names.
   */
  pdfHead?(filePath: string): Promise<PdfHead>;
  /**
   * The text of each PDF of the stored file (itself when a PDF, each PDF of a ZIP sorted by name, as
   * a parse reads them), anonymised when `anonymise`; null when it is neither (or is gone). Read off
   * the request thread. Optional, as `pdfHead`.
   */
  pdfTexts?(filePath: string, filename: string, anonymise: boolean): Promise<PdfDocumentText[] | null>;
  /** `filePath`: the stored file, read where the plugin runs (never by the request thread). */
  parse(code: string, input: { file: ImportFileMeta; filePath: string; meta: PipelineMeta; options?: Record<string, unknown> }): Promise<ParseRun>;
}

/** The fallback plugin of `plugin_code: "auto"` when nothing claims a file. */
export const GENERIC_PLUGIN_CODE = "broker_generic_csv";
