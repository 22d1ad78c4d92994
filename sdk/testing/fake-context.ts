import type { HttpClientOptions, LogFields, PluginContext, PluginLogger } from "../context.ts";
import { createHttpClient } from "../context.ts";
import { toIsoDate } from "../dates.ts";
import { isPlugin, type Plugin } from "../define-plugin.ts";
import { describeZodError } from "../errors.ts";
import type { PluginKind } from "../manifest.ts";

/** One line the fake logger recorded. */
export interface LogRecord {
  readonly fields?: LogFields;
  readonly level: "debug" | "error" | "info" | "warn";
  readonly message: string;
}

/**
 * A {@link PluginContext} for tests, plus `logs`: every line the plugin logged,
 * in order, so a test can assert on warnings.
 */
export interface FakePluginContext<C> extends PluginContext<C> {
  readonly logs: LogRecord[];
}

/**
 * Options of {@link createFakeContext}: `allowedDestinations?` (internal
 * hosts the HTTP client may reach, e.g. `["127.0.0.1:4010"]` for a local fake
 * upstream; the destination check stays on for everything else, since 1.2),
 * `baseUrl?` (point the real HTTP client at a fake upstream), `config?` (the config the plugin gets, default
 * `{}`; with a plugin as the first argument, the config before its `configSchema` parses it), `fetch?` (replace fetch entirely), `now?` (the fixed instant of the
 * clock, default 2024-01-02T12:00:00Z), `timeoutMs?` (HTTP time limit, default
 * 2000 ms so a hanging fake fails a test fast).
 */
export interface FakeContextOptions<C> {
  allowedDestinations?: readonly string[];
  baseUrl?: string;
  config?: C;
  fetch?: HttpClientOptions["fetch"];
  now?: Date | string;
  timeoutMs?: number;
}

/**
 * Makes a context for unit and contract tests: the real HTTP client (same code
 * as the host), a clock frozen at `now`, and a logger that records instead of
 * printing. Two forms:
 * - `createFakeContext(plugin, options?)`: `options.config` is the config as a
 *   self-hoster writes it (default `{}`; keys with a `.default()` may be left
 *   out), parsed with the plugin's `configSchema` as the host does, so the
 *   context has the plugin's parsed config type. Throws when the config is invalid.
 *   Example: `plugin.create(createFakeContext(plugin, { baseUrl: fake.url, config: { apiKey: "k" } }))`.
 * - `createFakeContext(options?)`: `options.config` is used as it is.
 *   Example: `createFakeContext({ baseUrl: fake.url, config: { apiKey: "k" } })`.
 */
export function createFakeContext<K extends PluginKind, C, I>(plugin: Plugin<K, C, I>, options?: FakeContextOptions<I>): FakePluginContext<C>;
export function createFakeContext<C = Readonly<Record<string, never>>>(options?: FakeContextOptions<C>): FakePluginContext<C>;
export function createFakeContext(
  first?: Plugin<PluginKind, unknown, unknown> | FakeContextOptions<unknown>,
  second?: FakeContextOptions<unknown>,
): FakePluginContext<unknown> {
  const plugin = isPlugin(first) ? first : undefined;
  const options = (plugin ? second : (first as FakeContextOptions<unknown> | undefined)) ?? {};
  let config: unknown = options.config ?? {};
  const schema = plugin?.manifest.configSchema;
  if (schema) {
    const parsed = schema.safeParse(config);
    if (!parsed.success) throw new Error(`createFakeContext: invalid config for "${plugin.manifest.id}": ${describeZodError(parsed.error)}`);
    config = parsed.data;
  }
  const logs: LogRecord[] = [];
  const record =
    (level: LogRecord["level"]) =>
    (message: string, fields?: LogFields): void => {
      logs.push(fields === undefined ? { level, message } : { fields, level, message });
    };
  const logger: PluginLogger = { debug: record("debug"), error: record("error"), info: record("info"), warn: record("warn") };
  const instant = new Date(options.now ?? "2024-01-02T12:00:00Z");
  return {
    clock: { now: () => new Date(instant), today: () => toIsoDate(instant) },
    config,
    http: createHttpClient({
      allowedDestinations: () => options.allowedDestinations ?? [],
      baseUrl: options.baseUrl,
      fetch: options.fetch,
      timeoutMs: options.timeoutMs ?? 2000,
    }),
    logger,
    logs,
  };
}
