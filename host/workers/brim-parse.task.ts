import { randomUUID } from "node:crypto";
import { pathToFileURL } from "node:url";
import type { KnownAsset } from "../../core/brim/asset-candidates.calc.ts";
import type { LedgerFact } from "../../core/brim/duplicates.calc.ts";
import type { ParseRun } from "../../core/brim/import-plugins.ts";
import { ASSETS_SQL, buildParseResult, LEDGER_SQL, ledgerParams, type PipelineMeta } from "../../core/brim/pipeline.ts";
import { builtinPlugins } from "../../plugins/index.ts";
import { type ImportFileMeta, type ImportPlugin, isPlugin, isPluginError, type Plugin, type PluginLogger } from "../../sdk/index.ts";
import type { DatabaseTarget } from "../db/dialect.ts";
import { withReadSnapshot } from "../db/read-snapshot.ts";
import { createPluginContext } from "../plugins/context.ts";

/**
 * Input of the worker's `brimParse`: which plugin (a built-in id, or an external plugin's entry
 * file), the file, its meta, the pipeline's meta and the database it reads candidates and the
 * ledger from (a read-only connection of its own, host/db/read-snapshot.ts).
 */
export interface BrimParseInput {
  bytes: Uint8Array;
  code: string;
  db: DatabaseTarget;
  file: ImportFileMeta;
  meta: PipelineMeta;
  options?: Record<string, unknown>;
  path: string | null;
}

export type BrimParseOutput = ParseRun;


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
  let result;
  try {
    const plugin = await pluginFor(input.code, input.path);
    result = await plugin.parse({ bytes: input.bytes, file: input.file, options: input.options });
  } catch (error) {
    if (isPluginError(error)) return { ok: false, message: error.message };
    return { ok: false, message: "the file could not be read (the importer failed unexpectedly)" };
  }
  const doc = await withReadSnapshot(input.db, (reader) => buildParseResult(result, input.meta, {
    assets: () => reader.all<KnownAsset>(ASSETS_SQL),
    ledger: (brokerId, from, to) => reader.all<LedgerFact>(LEDGER_SQL, ledgerParams(brokerId, from, to)),
  }, randomUUID));
  return { ok: true, gzipped: Bun.gzipSync(JSON.stringify(doc)), transactions: doc.transactions.length };
}
