import { existsSync } from "node:fs";
import { lstat, mkdir, readdir, readFile, readlink, stat, symlink, unlink } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { PluginLogger } from "../../sdk/index.ts";

/** A folder found in PLUGINS_DIR; `entry` resolves its entry file or throws why there is none. */
export interface ExternalCandidate {
  entry(): Promise<string>;
  folder: string;
}

const SDK_DIR = fileURLToPath(new URL("../../sdk", import.meta.url));
const ENTRY_FILES = ["index.ts", "index.js"];

async function entryOf(folder: string): Promise<string> {
  const manifestPath = join(folder, "package.json");
  if (existsSync(manifestPath)) {
    const main = (JSON.parse(await readFile(manifestPath, "utf8")) as { main?: unknown }).main;
    if (typeof main === "string" && main.length > 0) {
      const file = resolve(folder, main);
      if (!existsSync(file)) throw new Error(`package.json main "${main}" does not exist`);
      return file;
    }
  }
  const found = ENTRY_FILES.map((name) => join(folder, name)).find((file) => existsSync(file));
  if (!found) throw new Error(`no entry point: expected ${ENTRY_FILES.join(" or ")}, or a package.json main`);
  return found;
}

/**
 * Every sub-folder of `dir` (symlinks to folders included), sorted by name; hidden folders and
 * node_modules are skipped. A missing or unreadable `dir` is logged and yields nothing.
 */
export async function discoverExternal(dir: string, logger: PluginLogger): Promise<ExternalCandidate[]> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((name) => !name.startsWith(".") && name !== "node_modules").sort();
  } catch (error) {
    logger.warn("plugins folder cannot be read; no external plugins loaded", { dir, error: String(error) });
    return [];
  }
  const folders: ExternalCandidate[] = [];
  for (const name of names) {
    const folder = join(dir, name);
    const isFolder = await stat(folder).then((s) => s.isDirectory(), () => false);
    if (isFolder) folders.push({ entry: () => entryOf(folder), folder });
  }
  return folders;
}

/**
 * Makes `@portfolio-tracker/sdk` resolvable from `dir` by linking `dir/node_modules/@portfolio-tracker/sdk`
 * to the host's sdk/. External plugins then share the host's SDK (one zod, one PluginError class)
 * without bundling it, and Bun never tries to auto-install it. A real folder already there (a copy
 * the self-hoster installed) is left alone. Failure (e.g. a read-only mount) is logged, not fatal:
 * plugins that bundle their own SDK still load.
 */
export async function provideSdk(dir: string, logger: PluginLogger): Promise<void> {
  const link = join(dir, "node_modules", "@portfolio-tracker", "sdk");
  if (!(await stat(dir).then((s) => s.isDirectory(), () => false))) return; // never create PLUGINS_DIR itself
  try {
    const current = await lstat(link).catch(() => undefined);
    if (current && !current.isSymbolicLink()) return;
    if (current && (await readlink(link)) === SDK_DIR) return;
    if (current) await unlink(link);
    await mkdir(dirname(link), { recursive: true });
    await symlink(SDK_DIR, link, "dir");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return; // another process linked it first
    logger.warn("could not provide the SDK to external plugins", { dir, error: String(error) });
  }
}
