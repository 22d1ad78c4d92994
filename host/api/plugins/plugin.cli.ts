import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { describeZodError, isPlugin, PLUGIN_KINDS, PluginIdSchema, PluginManifestSchema, SDK_API_VERSION } from "../../../sdk/index.ts";
import rootPackage from "../../../package.json" with { type: "json" };
import sdkPackage from "../../../sdk/package.json" with { type: "json" };
import { loadConfig } from "../../config.ts";
import { discoverExternal, provideSdk } from "../../plugins/discovery.ts";
import { TEMPLATES } from "./templates.ts";

/** A refusal of the plugin commands: printed, exit code 1. */
export class PluginCliError extends Error {}

const ROOT = resolve(import.meta.dir, "../../..");
/** `npm run` starts us in the package root; relative paths mean the caller's directory. */
const here = (path: string) => resolve(process.env.INIT_CWD ?? process.cwd(), path);
const silent = { debug() {}, error() {}, info() {}, warn() {} };

function sh(cmd: string[], cwd: string): string {
  const p = Bun.spawnSync(cmd, { cwd, env: process.env });
  const out = p.stdout.toString() + p.stderr.toString();
  if (p.exitCode !== 0) throw new PluginCliError(`${cmd.join(" ")} failed:\n${out.trim()}`);
  return out;
}

/** The parsers `@portfolio-tracker/sdk/import` loads (optional peers of the SDK): an importer project tests with them. */
const IMPORT_PEERS = { "fast-xml-parser": sdkPackage.peerDependencies["fast-xml-parser"], papaparse: sdkPackage.peerDependencies.papaparse };

const titleOf = (id: string) => id.split(/[-_]/).map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(" ");

/**
 * `plugin new <kind> <id> [dir] [--sdk <tarball|folder>]`: writes a plugin project that passes its own
 * contract test and type-check (`npm install && npm test && npm run typecheck`). The SDK is copied into
 * the project as `vendor/<tarball>` and referenced relatively, so the project can be moved or committed.
 * Without `--sdk`, the SDK is packed from this checkout; a folder is packed as it is.
 */
function newPlugin(args: string[], out: (line: string) => void): void {
  const sdkAt = args.indexOf("--sdk");
  const sdkSpec = sdkAt >= 0 ? args.splice(sdkAt, 2)[1] : undefined;
  const [kind, id, dirArg] = args;
  if (!kind || !id || args.length > 3) throw new PluginCliError("Expected: plugin new <kind> <id> [dir] [--sdk <tarball|folder>]");
  if (!(PLUGIN_KINDS as readonly string[]).includes(kind)) throw new PluginCliError(`Unknown kind '${kind}'; kinds: ${PLUGIN_KINDS.join(", ")}`);
  const template = TEMPLATES[kind];
  if (!template) {
    throw new PluginCliError(`No template for ${kind} yet (templates: ${Object.keys(TEMPLATES).join(", ")}); start from the ${kind} contract in docs/plugins.md`);
  }
  if (!PluginIdSchema.safeParse(id).success) throw new PluginCliError(`Invalid id '${id}': lower-case words joined by - or _, at most 64 characters`);
  const dir = here(dirArg ?? id);
  if (existsSync(dir) && readdirSync(dir).length > 0) throw new PluginCliError(`${dir} exists and is not empty`);
  const sdkSource = sdkSpec ? here(sdkSpec) : sh([process.execPath, join(ROOT, "host/api/plugins/sdk-pack.ts")], ROOT).trim().split("\n").at(-1)!;
  if (!existsSync(sdkSource)) throw new PluginCliError(`${sdkSource} does not exist`);
  mkdirSync(join(dir, "vendor"), { recursive: true });
  const vendored = vendorSdk(sdkSource, join(dir, "vendor"));
  const files: Record<string, string> = {
    "package.json": `${JSON.stringify({
      name: id, version: "0.1.0", description: `${titleOf(id)}: a portfolio-tracker ${kind} plugin`, type: "module", main: "index.ts",
      scripts: { test: "bun test", typecheck: "tsc --noEmit" },
      peerDependencies: { "@portfolio-tracker/sdk": `^${sdkPackage.version}` },
      // Bun runs the tests (`npm test`) and the TypeScript entry, as it does in the host. The SDK is the
      // tarball in vendor/, a path relative to this folder.
      devDependencies: {
        "@portfolio-tracker/sdk": `file:vendor/${vendored}`, bun: rootPackage.dependencies.bun, "decimal.js": "^10.6.0",
        typescript: rootPackage.devDependencies.typescript, zod: "^4.6.7",
        ...(kind === "import-plugin" ? IMPORT_PEERS : {}),
      },
    }, null, 2)}\n`,
    "tsconfig.json": `${JSON.stringify({
      compilerOptions: {
        target: "ES2022", module: "ESNext", moduleResolution: "bundler", lib: ["ES2022", "DOM"], strict: true,
        noEmit: true, allowImportingTsExtensions: true, skipLibCheck: true, types: [],
      },
      include: ["*.ts"],
    }, null, 2)}\n`,
    ".gitignore": "node_modules/\n",
    // The packed plugin needs no SDK of its own: the host provides it.
    ".npmignore": "node_modules/\nvendor/\n",
    ...template.files(id, titleOf(id)),
    "README.md": `# ${titleOf(id)}\n\nA portfolio-tracker \`${kind}\` plugin (id \`${id}\`).\n\n`
      + "```sh\nnpm install        # the SDK (vendor/), zod, decimal.js, TypeScript and Bun\n"
      + "npm test           # the kind's contract suite and the plugin's own tests (bun test)\n"
      + "npm run typecheck  # tsc --noEmit\n```\n\n"
      + `Install it into a server with \`npm run cli -- plugin install <this folder>\` in the portfolio-tracker checkout, then restart.\n`
      + `\`vendor/${vendored}\` is the SDK this project was made with; replace it (and the path in package.json) to upgrade.\n`
      + "The author's guide is `docs/plugins.md` of portfolio-tracker.\n",
  };
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  out(`Created ${kind} plugin '${id}' in ${dir}`);
  out(`Next: cd ${dir} && npm install && npm test && npm run typecheck`);
}

/** Copies the SDK tarball (or packs the SDK folder) `from` into `vendor`; returns the tarball's file name. */
function vendorSdk(from: string, vendor: string): string {
  if (statSync(from).isDirectory()) return sh(["npm", "pack", "--silent", "--pack-destination", vendor], from).trim().split("\n").at(-1)!;
  if (!/\.(tgz|tar\.gz)$/.test(from)) throw new PluginCliError(`--sdk expects a tarball (.tgz) or a folder: ${from}`);
  copyFileSync(from, join(vendor, basename(from)));
  return basename(from);
}

/** Brand, manifest and API version of the plugin in `folder`, checked the way the loader checks them. */
async function validate(folder: string): Promise<{ id: string; kind: string }> {
  const main = existsSync(join(folder, "package.json")) ? JSON.parse(readFileSync(join(folder, "package.json"), "utf8")).main : undefined;
  const entry = [main, "index.ts", "index.js"].filter((f): f is string => typeof f === "string").map((f) => join(folder, f)).find(existsSync);
  if (!entry) throw new PluginCliError(`${folder} has no entry point (package.json main, index.ts or index.js)`);
  let value: unknown;
  try {
    value = (await import(pathToFileURL(entry).href)).default;
  } catch (error) {
    throw new PluginCliError(`importing ${entry} failed: ${(error as Error).message}`);
  }
  if (!isPlugin(value)) throw new PluginCliError("the default export is not a plugin made by definePlugin()");
  const manifest = PluginManifestSchema.safeParse(value.manifest);
  if (!manifest.success) throw new PluginCliError(`invalid manifest: ${describeZodError(manifest.error)}`);
  if (value.apiVersion !== SDK_API_VERSION) {
    throw new PluginCliError(`built for SDK API version ${value.apiVersion}; this host accepts ${SDK_API_VERSION}`);
  }
  return { id: manifest.data.id, kind: manifest.data.kind };
}

/**
 * Refuses `kind`/`id` when a built-in plugin or a plugin installed in another folder of `pluginsDir`
 * has it: the server would load only the first and report the other as a duplicate. The folder
 * `target` is the one `--force` replaces, so its plugin does not count.
 */
async function refuseTakenId(kind: string, id: string, pluginsDir: string, target: string): Promise<void> {
  const { builtinPlugins } = await import("../../../plugins/index.ts");
  if (builtinPlugins.some((p) => p.manifest.kind === kind && p.manifest.id === id)) {
    throw new PluginCliError(`the id '${id}' is taken by a built-in ${kind} plugin; choose another id in the plugin's definePlugin() (ids are forever: stored data is keyed by them)`);
  }
  for (const { folder } of await discoverExternal(pluginsDir, silent)) {
    if (folder === target) continue;
    const installed = await validate(folder).catch(() => undefined); // a broken plugin claims no id at boot either
    if (installed?.kind === kind && installed.id === id) {
      throw new PluginCliError(`the id '${id}' is taken by the ${kind} plugin installed in ${folder}; remove that folder first, or choose another id`);
    }
  }
}

/**
 * `plugin install <folder|tarball> [--force]`: copies the plugin into PLUGINS_DIR with its runtime
 * dependencies (the SDK is the host's), validates it there (an id a built-in or another installed
 * plugin of the kind has is refused), and only then puts it in place.
 */
async function installPlugin(args: string[], out: (line: string) => void): Promise<void> {
  const force = args.includes("--force");
  const [source] = args.filter((a) => a !== "--force");
  if (!source) throw new PluginCliError("Expected: plugin install <folder|tarball> [--force]");
  const pluginsDir = loadConfig().pluginsDir;
  if (!pluginsDir) throw new PluginCliError("PLUGINS_DIR is not set: set it to the folder the server loads extra plugins from");
  mkdirSync(pluginsDir, { recursive: true });
  let from = here(source);
  if (!existsSync(from)) throw new PluginCliError(`${from} does not exist`);
  const unpacked = /\.(tgz|tar\.gz)$/.test(from) ? mkdtempSync(join(tmpdir(), "pt-plugin-")) : undefined;
  const staging = join(pluginsDir, `.install-${process.pid}`);
  try {
    if (unpacked) {
      sh(["tar", "-xzf", from, "-C", unpacked], unpacked);
      from = existsSync(join(unpacked, "package")) ? join(unpacked, "package") : unpacked;
    }
    rmSync(staging, { recursive: true, force: true });
    cpSync(from, staging, { recursive: true, filter: (src) => !src.includes(`${from}/node_modules`) && basename(src) !== ".git" });
    const pkg = existsSync(join(staging, "package.json")) ? JSON.parse(readFileSync(join(staging, "package.json"), "utf8")) : {};
    if (Object.keys(pkg.dependencies ?? {}).length) {
      sh(["npm", "install", "--omit=dev", "--omit=peer", "--no-audit", "--no-fund", "--prefer-offline"], staging);
    }
    await provideSdk(pluginsDir, silent);
    const { id, kind } = await validate(staging);
    const target = join(pluginsDir, id);
    await refuseTakenId(kind, id, pluginsDir, target);
    if (existsSync(target)) {
      if (!force) throw new PluginCliError(`${target} exists; add --force to replace it`);
      rmSync(target, { recursive: true, force: true });
    }
    renameSync(staging, target);
    out(`Installed ${kind} plugin '${id}' into ${target}; restart the server to load it`);
  } finally {
    rmSync(staging, { recursive: true, force: true });
    if (unpacked) rmSync(unpacked, { recursive: true, force: true });
  }
}

export async function runPlugin(command: string | undefined, args: string[], out: (line: string) => void): Promise<number> {
  if (command === "new") newPlugin([...args], out);
  else if (command === "install") await installPlugin([...args], out);
  else throw new PluginCliError("Expected: plugin new <kind> <id> [dir] | plugin install <folder|tarball>");
  return 0;
}
