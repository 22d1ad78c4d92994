import { withTimeout } from "../../core/async/with-timeout.ts";
import { pathToFileURL } from "node:url";
import {
  describeZodError,
  isPlugin,
  missingMembers,
  type Plugin,
  type PluginContext,
  type PluginKind,
  type PluginLogger,
  type PluginManifest,
  PluginManifestSchema,
} from "../../sdk/index.ts";
import type { PluginDiagnostic, PluginSource } from "./diagnostics.ts";
import { discoverExternal, provideSdk } from "./discovery.ts";
import { type LoadedPlugin, PluginRegistry } from "./registry.ts";

/** Default limit for a plugin's import and for its create(), in milliseconds. */
export const DEFAULT_CREATE_TIMEOUT_MS = 5000;

/**
 * Options of `loadPlugins`. `configFor` returns a plugin's raw config (undefined when none; `false`
 * disables the plugin). `createTimeoutMs` limits both the import of an external plugin and each
 * create(). `provideSdk` (default true) links the host's SDK into `pluginsDir/node_modules`.
 */
export interface LoadPluginsOptions {
  acceptedApiVersions: readonly number[];
  builtins: readonly unknown[];
  configFor: (pluginId: string, kind: PluginKind) => unknown;
  createContext: (manifest: PluginManifest, config: unknown) => PluginContext;
  createTimeoutMs?: number;
  logger: PluginLogger;
  pluginsDir?: string;
  provideSdk?: boolean;
}

interface Candidate {
  load(): Promise<unknown>;
  path: string | null;
  source: PluginSource;
}

/** A plugin that passed every static check and waits for create(). */
interface Accepted {
  config: unknown;
  diagnostic: PluginDiagnostic;
  manifest: PluginManifest;
  plugin: Plugin;
}

/** Thrown by a step to end one plugin's load with a status other than "failed". */
class Verdict extends Error {
  constructor(readonly status: "disabled" | "incompatible", message: string) {
    super(message);
  }
}

function messageOf(error: unknown): string {
  try {
    return error instanceof Error ? error.message : String(error);
  } catch {
    return "unprintable error";
  }
}

// Best-effort identity for diagnostics of plugins whose manifest is invalid.
function identify(value: unknown, diagnostic: PluginDiagnostic): void {
  try {
    const raw = (value as { manifest?: Record<string, unknown> } | null)?.manifest ?? {};
    for (const key of ["id", "kind", "name", "version"] as const) {
      if (typeof raw[key] === "string") diagnostic[key] = raw[key];
    }
  } catch {
    // a throwing getter leaves the identity unknown
  }
}

interface Session {
  claimed: Map<string, string>;
  options: LoadPluginsOptions;
  timeoutMs: number;
}

/** Brand → manifest → apiVersion → duplicate id → enabled → config (docs/plugins.md "Lifecycle and diagnostics"). Throws why not. */
async function inspect(candidate: Candidate, diagnostic: PluginDiagnostic, session: Session): Promise<Accepted> {
  const value = await candidate.load();
  identify(value, diagnostic);
  if (!isPlugin(value)) throw new Error("the default export is not a plugin made by definePlugin() (no plugin brand)");
  const parsed = PluginManifestSchema.safeParse(value.manifest);
  if (!parsed.success) throw new Error(`invalid manifest: ${describeZodError(parsed.error)}`);
  const manifest = parsed.data;
  const { acceptedApiVersions } = session.options;
  for (const version of new Set([value.apiVersion, manifest.apiVersion])) {
    if (!acceptedApiVersions.includes(version)) {
      const accepted = acceptedApiVersions.join(", ");
      throw new Verdict("incompatible", `built for SDK API version ${version}; this host accepts ${accepted}`);
    }
  }
  const key = `${manifest.kind}/${manifest.id}`;
  const owner = session.claimed.get(key);
  if (owner) throw new Error(`duplicate id: ${manifest.kind} "${manifest.id}" is already provided by ${owner}`);
  session.claimed.set(key, candidate.path ?? "a built-in plugin");
  const raw = session.options.configFor(manifest.id, manifest.kind);
  if (raw === false) throw new Verdict("disabled", "disabled in the plugin configuration");
  if (!manifest.configSchema) return { config: {}, diagnostic, manifest, plugin: value };
  const config = manifest.configSchema.safeParse(raw ?? {});
  if (!config.success) throw new Error(`invalid config: ${describeZodError(config.error)}`);
  return { config: config.data, diagnostic, manifest, plugin: value };
}

async function instantiate(accepted: Accepted, session: Session): Promise<LoadedPlugin | undefined> {
  const { config, diagnostic, manifest, plugin } = accepted;
  try {
    const instance = await withTimeout(session.timeoutMs, () =>
      plugin.create(session.options.createContext(manifest, config)), () => new Error(`did not finish within ${session.timeoutMs} ms`));
    const missing = missingMembers(manifest.kind, instance);
    if (missing.length) throw new Error(`returned an instance without ${missing.join(", ")}`);
    diagnostic.status = "loaded";
    return { instance, manifest, path: diagnostic.path, source: diagnostic.source };
  } catch (error) {
    diagnostic.status = "failed";
    diagnostic.reason = `create() failed: ${messageOf(error)}`;
    return undefined;
  }
}

function externalCandidate(folder: string, entry: () => Promise<string>, timeoutMs: number): Candidate {
  const candidate: Candidate = {
    load: async () => {
      const file = await entry();
      candidate.path = file;
      const module = await withTimeout(timeoutMs, () => import(pathToFileURL(file).href), () => new Error(`did not finish within ${timeoutMs} ms`)).catch((error: unknown) => {
        throw new Error(`import failed: ${messageOf(error)}`);
      });
      if (!("default" in module)) throw new Error("the module has no default export");
      return module.default;
    },
    path: folder,
    source: "external",
  };
  return candidate;
}

async function candidatesOf(options: LoadPluginsOptions, timeoutMs: number): Promise<Candidate[]> {
  const candidates: Candidate[] = options.builtins.map((value) => ({
    load: async () => value,
    path: null,
    source: "builtin",
  }));
  if (options.pluginsDir === undefined) return candidates;
  if (options.provideSdk !== false) await provideSdk(options.pluginsDir, options.logger);
  for (const found of await discoverExternal(options.pluginsDir, options.logger)) {
    candidates.push(externalCandidate(found.folder, found.entry, timeoutMs));
  }
  return candidates;
}

/**
 * Loads the built-ins, then every plugin folder in `pluginsDir` (sorted by name), each inside its
 * own try/catch so nothing a plugin does stops boot. Checks run one candidate at a time so
 * duplicate ids resolve deterministically (first wins); create() calls then run in parallel, each
 * with a timeout. Returns the registry with one diagnostic per candidate. Never throws for a
 * plugin's fault. Caveat: a plugin that blocks the event loop synchronously cannot be timed out.
 */
export async function loadPlugins(options: LoadPluginsOptions): Promise<PluginRegistry> {
  const session: Session = {
    claimed: new Map(),
    options,
    timeoutMs: options.createTimeoutMs ?? DEFAULT_CREATE_TIMEOUT_MS,
  };
  const diagnostics: PluginDiagnostic[] = [];
  const accepted: Accepted[] = [];
  for (const candidate of await candidatesOf(options, session.timeoutMs)) {
    const diagnostic: PluginDiagnostic = {
      id: null, kind: null, name: null, path: null, reason: null, source: candidate.source, status: "failed", version: null,
    };
    diagnostics.push(diagnostic);
    try {
      accepted.push(await inspect(candidate, diagnostic, session));
    } catch (error) {
      diagnostic.status = error instanceof Verdict ? error.status : "failed";
      diagnostic.reason = error instanceof Verdict ? error.message : messageOf(error);
    } finally {
      diagnostic.path = candidate.path;
    }
  }
  const loaded = await Promise.all(accepted.map((entry) => instantiate(entry, session)));
  for (const d of diagnostics) report(options.logger, d);
  return new PluginRegistry(loaded.filter((entry) => entry !== undefined), diagnostics);
}

function report(logger: PluginLogger, d: PluginDiagnostic): void {
  const fields = { id: d.id, kind: d.kind, path: d.path, reason: d.reason, source: d.source, status: d.status };
  if (d.status === "loaded" || d.status === "disabled") logger.info(`plugin ${d.status}`, fields);
  else logger.warn(`plugin ${d.status}`, fields);
}
