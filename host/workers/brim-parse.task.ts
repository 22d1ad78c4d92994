import { Database } from "bun:sqlite";
import { createHash, randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import type { KnownAsset } from "../../core/brim/asset-candidates.calc.ts";
import type { LedgerFact } from "../../core/brim/duplicates.calc.ts";
import type { ParseRun } from "../../core/brim/import-plugins.ts";
import type { AssetMappingDoc, TxCreateDoc } from "../../core/brim/parse-result.ts";
import { previewOf, type PreviewRun } from "../../core/brim/preview.calc.ts";
import { sniffUpload, type SniffResult } from "../../core/uploads/mime-sniff.ts";
import { ASSETS_SQL, buildParseResult, duplicateReport, LEDGER_SQL, type PipelineData, type PipelineMeta } from "../../core/brim/pipeline.ts";
import { builtinPlugins } from "../../plugins/index.ts";
import { type ImportFileMeta, type ImportPlugin, isPlugin, isPluginError, type Plugin, type PluginLogger } from "../../sdk/index.ts";
import { createPluginContext } from "../plugins/context.ts";

/**
 * Input of the worker's `brimParse`: which plugin (a built-in id, or an external plugin's entry
 * file), the stored file's path, its meta, the pipeline's meta and the database file it reads candidates and the
 * ledger from (a read-only connection of its own).
 */
export interface BrimParseInput {
  code: string;
  dbPath: string;
  file: ImportFileMeta;
  /** The stored file: read here, so its bytes are neither read nor copied by the request thread. */
  filePath: string;
  meta: PipelineMeta;
  options?: Record<string, unknown>;
  path: string | null;
}

export type BrimParseOutput = ParseRun;

const connections = new Map<string, Database>();

function readsOf(dbPath: string): PipelineData {
  let db = connections.get(dbPath);
  if (!db) {
    db = new Database(dbPath, { readonly: true });
    db.exec("PRAGMA busy_timeout = 5000");
    connections.set(dbPath, db);
  }
  const reader = db;
  return {
    assets: () => reader.query(ASSETS_SQL).all() as KnownAsset[],
    ledger: (brokerId, from, to) => reader.query(LEDGER_SQL).all(brokerId, from, to) as LedgerFact[],
  };
}

const instances = new Map<string, Promise<ImportPlugin>>();

// Plugins log nothing of a file's content through the host; inside the worker their lines are dropped.
const quiet: PluginLogger = { debug: () => undefined, error: () => undefined, info: () => undefined, warn: () => undefined };

async function pluginFor(code: string, path: string | null): Promise<ImportPlugin> {
  const key = `${code}\u0000${path ?? ""}`;
  let found = instances.get(key);
  if (!found) {
    found = (async () => {
      const plugin = path === null
        ? builtinPlugins.find((p) => p.manifest.id === code)
        : ((await import(pathToFileURL(path).href)) as { default?: unknown }).default;
      if (!isPlugin(plugin) || plugin.manifest.kind !== "import-plugin") throw new Error(`import plugin ${code} is not available in the worker`);
      const typed = plugin as Plugin<"import-plugin">;
      return typed.create(createPluginContext(typed.manifest, {}, quiet));
    })();
    instances.set(key, found);
    found.catch(() => instances.delete(key));
  }
  return found;
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
  let result;
  try {
    const plugin = await pluginFor(input.code, input.path);
    result = await plugin.parse({ bytes, file: input.file, options: input.options });
  } catch (error) {
    if (isPluginError(error)) return { ok: false, message: error.message };
    return { ok: false, message: "the file could not be read (the importer failed unexpectedly)" };
  }
  const doc = buildParseResult(result, input.meta, readsOf(input.dbPath), randomUUID);
  return { ok: true, gzipped: Bun.gzipSync(JSON.stringify(doc)), transactions: doc.transactions.length };
}

/** Input of the worker's `brimDuplicates`: the broker, and the rows and mappings as one JSON string (a string crosses threads as one copy). */
export interface BrimDuplicatesInput {
  brokerId: number;
  dbPath: string;
  /** `{creates, mappings}` */
  json: string;
}

/**
 * The duplicate report of edited rows against the broker's ledger (`POST /brokers/import/duplicates`),
 * read through the worker's own connection and answered as gzipped JSON: 50,000 rows cost the
 * request thread neither the ledger read, the matching nor the answer's serialisation.
 */
export function brimDuplicates(input: BrimDuplicatesInput): Uint8Array {
  const { creates, mappings } = JSON.parse(input.json) as {
    creates: TxCreateDoc[]; mappings: Pick<AssetMappingDoc, "fake_asset_id" | "selected_asset_id">[];
  };
  const reads = readsOf(input.dbPath);
  const report = duplicateReport(creates, mappings, (from, to) => reads.ledger(input.brokerId, from, to));
  return Bun.gzipSync(JSON.stringify(report));
}

/** The preview of a stored file (`GET /brokers/import/files/{id}/preview`); null when it cannot be read. */
export async function brimPreview(input: { filePath: string; sheetName?: string }): Promise<PreviewRun | null> {
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(readFileSync(input.filePath));
  } catch {
    return null;
  }
  return previewOf(bytes, input.sheetName);
}

/** An uploaded file's sniffed type (executables, scripts and HTML refused) and SHA-256, from the stored bytes. */
export function brimInspect(input: { filePath: string; filename: string }): { sha256: string; sniffed: SniffResult } {
  const bytes = new Uint8Array(readFileSync(input.filePath));
  return { sha256: createHash("sha256").update(bytes).digest("hex"), sniffed: sniffUpload(bytes, input.filename) };
}
