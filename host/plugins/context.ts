import {
  createHttpClient,
  type LogFields,
  type PluginContext,
  type PluginLogger,
  type PluginManifest,
  toIsoDate,
} from "../../sdk/index.ts";

/**
 * Options of `createPluginContext`: `allowedDestinations` (the admin's outbound allow-list, read on
 * every call; none by default), and test seams for the HTTP client.
 */
export interface PluginContextOptions {
  allowedDestinations?: () => Promise<readonly string[]>;
  fetch?: (input: string, init?: RequestInit) => Promise<Response>;
  timeoutMs?: number;
}

function baseUrlOf(config: unknown): string | undefined {
  const value = (config as { baseUrl?: unknown } | null)?.baseUrl;
  return typeof value === "string" ? value : undefined;
}

/**
 * The host's context for one plugin: the SDK's HTTP client, with the base URL taken from
 * the plugin's config key `baseUrl` when present (so tests point plugins at fakes by config); a
 * logger that prefixes every line with the plugin id; the real clock. `config` is already parsed by
 * the plugin's `configSchema`. Throws a PluginError (invalid-input) when `baseUrl` is not an
 * absolute http(s) URL; the loader reports that as the plugin's failure.
 */
export function createPluginContext(
  manifest: PluginManifest,
  config: unknown,
  logger: PluginLogger,
  options: PluginContextOptions = {},
): PluginContext {
  const prefix = `[${manifest.id}] `;
  const fields = (extra?: LogFields): LogFields => ({ plugin_kind: manifest.kind, ...extra });
  return {
    clock: { now: () => new Date(), today: () => toIsoDate(new Date()) },
    config,
    http: createHttpClient({
      allowedDestinations: options.allowedDestinations,
      baseUrl: baseUrlOf(config),
      fetch: options.fetch,
      // The one log line of a refused destination; the caller reports it per item.
      onRefused: (error) => logger.warn(prefix + error.message, fields({ reason: error.reason })),
      timeoutMs: options.timeoutMs,
    }),
    logger: {
      debug: (message, extra) => logger.debug(prefix + message, fields(extra)),
      error: (message, extra) => logger.error(prefix + message, fields(extra)),
      info: (message, extra) => logger.info(prefix + message, fields(extra)),
      warn: (message, extra) => logger.warn(prefix + message, fields(extra)),
    },
  };
}
