import { pathToFileURL } from "node:url";
import { builtinPlugins } from "../../plugins/index.ts";
import {
  type ImportFileMeta, type ImportPlugin, type ImportResult, isPlugin, isPluginError, type Plugin, type PluginLogger,
} from "../../sdk/index.ts";
import { createPluginContext } from "../plugins/context.ts";

/** Input of the worker's `brimParse`: which plugin (a built-in id, or an external plugin's entry file), the file and its meta. */
export interface BrimParseInput {
  bytes: Uint8Array;
  code: string;
  file: ImportFileMeta;
  options?: Record<string, unknown>;
  path: string | null;
}

export type BrimParseOutput = { ok: true; result: ImportResult } | { message: string; ok: false };

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
 * Runs one import plugin's `parse` in a pool worker. A `PluginError` (the plugin's verdict on a bad
 * file) comes back as its message; anything else as a generic message, since an exception's text
 * may quote the file. The pool's time limit ends a run that never finishes.
 */
export async function brimParse(input: BrimParseInput): Promise<BrimParseOutput> {
  try {
    const plugin = await pluginFor(input.code, input.path);
    const result = await plugin.parse({ bytes: input.bytes, file: input.file, options: input.options });
    return { ok: true, result: { transactions: [...result.transactions], warnings: [...result.warnings] } };
  } catch (error) {
    if (isPluginError(error)) return { ok: false, message: error.message };
    return { ok: false, message: "the file could not be read (the importer failed unexpectedly)" };
  }
}
