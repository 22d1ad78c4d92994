import { builtinPlugins } from "../../plugins/index.ts";
import {
  isPlugin, type KindInstance, type Plugin, type PluginContext, type PluginKind, type PluginLogger, toIsoDate,
} from "../../sdk/index.ts";
import { createPluginContext } from "./context.ts";

/**
 * Which plugin a worker task runs: a built-in by id, or a PLUGINS_DIR plugin by its entry file (the
 * registry's `path`), with its raw configuration from the plugin configuration file.
 */
export interface WorkerPluginRef {
  readonly id: string;
  readonly path: string | null;
  readonly config?: unknown;
}

/** Plugins in a worker log nothing: their lines could quote a file's or a portfolio's content. */
const QUIET: PluginLogger = { debug: () => undefined, error: () => undefined, info: () => undefined, warn: () => undefined };

/** The HTTP client of a plugin that must not reach the network (calculation and risk tools are pure). */
const NO_NETWORK = {
  fetch: () => Promise.reject(new Error("this plugin has no network in the worker pool")),
  getJson: () => Promise.reject(new Error("this plugin has no network in the worker pool")),
} as unknown as PluginContext["http"];

const instances = new Map<string, unknown>();

/**
 * The one in-worker plugin loader, for every worker task that runs a plugin: finds the plugin
 * (built-in list, or the entry file loaded once per thread), checks the brand, the kind and the id
 * as the host's loader did at start, parses the configuration with the plugin's `configSchema`, and
 * creates the instance on a quiet context: without network unless `network` (an importer keeps the
 * context the host gives plugins). Instances are kept per thread. Throws when the plugin cannot be
 * loaded; the task answers that as its own failure.
 */
export function workerPluginInstance<K extends PluginKind>(
  kind: K, ref: WorkerPluginRef, options: { network?: boolean } = {},
): KindInstance<K> | Promise<KindInstance<K>> {
  const key = `${kind}\u0000${ref.id}\u0000${ref.path ?? ""}`;
  const cached = instances.get(key) as KindInstance<K> | Promise<KindInstance<K>> | undefined;
  if (cached !== undefined) return cached;
  const candidate = ref.path === null
    ? builtinPlugins.find((p) => p.manifest.kind === kind && p.manifest.id === ref.id)
    // Synchronous on purpose: risk analytics run as synchronous tasks. Bun's require loads ES modules.
    : (require(ref.path) as { default?: unknown }).default;
  if (!isPlugin(candidate) || candidate.manifest.kind !== kind || candidate.manifest.id !== ref.id) {
    throw new Error(`${kind} '${ref.id}' cannot be loaded in the worker pool`);
  }
  const plugin = candidate as Plugin<K>;
  const config = plugin.manifest.configSchema ? plugin.manifest.configSchema.parse(ref.config ?? {}) : {};
  const context = options.network
    ? createPluginContext(plugin.manifest, config, QUIET)
    : { clock: { now: () => new Date(), today: () => toIsoDate(new Date()) }, config, http: NO_NETWORK, logger: QUIET };
  const created = plugin.create(context as PluginContext<never>);
  instances.set(key, created);
  if (created instanceof Promise) created.catch(() => instances.delete(key));
  return created;
}
