import type { IsoDate } from "./dates.ts";

/**
 * Structured fields attached to a log line, e.g. `{ symbol: "AAPL", ms: 120 }`.
 * Keep them JSON-serialisable and free of secrets.
 */
export type LogFields = Readonly<Record<string, unknown>>;

/**
 * The logger a plugin receives. The host prefixes every line with the plugin
 * id and routes it to its own log. Example: `ctx.logger.warn("quota low", { left: 3 })`.
 */
export interface PluginLogger {
  debug(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
}

/**
 * The clock a plugin must use instead of `new Date()`, so tests can fix time.
 * `now()` is the current instant; `today()` is the current UTC day.
 */
export interface PluginClock {
  now(): Date;
  today(): IsoDate;
}

/**
 * Options of one HTTP call: everything `fetch` takes, plus `timeoutMs`
 * (milliseconds, overrides the client's default for this call). A `signal`
 * passed here cancels the call together with the timeout.
 */
export type HttpRequestInit = RequestInit & { timeoutMs?: number };

/**
 * The HTTP client a plugin receives, made by `createHttpClient`. Relative
 * paths are appended to `baseUrl` (from the plugin's config key `baseUrl`), so
 * tests point a plugin at a fake upstream by config alone. Every call has a
 * timeout.
 */
export interface PluginHttpClient {
  /** The configured base URL, e.g. `"https://api.example.com/v1"`, if any. */
  readonly baseUrl?: string;
  /**
   * Sends a request and returns the raw `Response`, whatever its status. The
   * timeout covers the time until the response headers arrive. Throws a
   * `PluginError` with reason `timeout` when the timeout fires, `unavailable`
   * on a network failure, `invalid-input` for a relative path without
   * `baseUrl`; a caller's own abort rethrows the caller's abort reason.
   * Example: `await ctx.http.fetch("/rates?day=2024-01-02")`.
   */
  fetch(pathOrUrl: string, init?: HttpRequestInit): Promise<Response>;
  /**
   * Sends a request and parses a JSON body, optionally checking it with a zod
   * `schema`. Besides the errors of `fetch` (the timeout also covers reading
   * the body), throws a `PluginError`: `not-found` on 404, `rate-limited` on
   * 429, `unavailable` on 408 or 5xx, `bad-response` on another non-2xx
   * status, a body that isn't JSON, or one the schema rejects.
   * Example: `await ctx.http.getJson("/latest", { schema: RatesSchema })`.
   */
  getJson<T = unknown>(
    pathOrUrl: string,
    init?: HttpRequestInit & { schema?: { safeParse(data: unknown): { data?: T; error?: unknown; success: boolean } } },
  ): Promise<T>;
  /**
   * GETs a text body (HTML, CSV) whole. Statuses map as in `getJson`, except those listed in
   * `passStatuses`, which are returned for the caller to handle (e.g. 401 to renew a token). The
   * time limit also covers a body that stalls (`timeout`). (Since 1.1.)
   * Example: `const page = await ctx.http.getText(url, { passStatuses: [401] })`.
   */
  getText(pathOrUrl: string, init?: HttpRequestInit & { passStatuses?: readonly number[] }): Promise<TextAnswer>;
}

/** A text answer: the body, its status and headers, and the URL it came from after redirects. (Since 1.1.) */
export interface TextAnswer {
  readonly headers: Headers;
  readonly status: number;
  readonly text: string;
  readonly url: string;
}

/**
 * Everything a plugin's `create(ctx)` receives; one fixed shape for all kinds.
 * `config` is the plugin's config after the host parsed it with the
 * manifest's `configSchema` (`{}` when there is no schema).
 */
export interface PluginContext<C = unknown> {
  readonly clock: PluginClock;
  readonly config: C;
  readonly http: PluginHttpClient;
  readonly logger: PluginLogger;
}

export { createHttpClient, DEFAULT_HTTP_TIMEOUT_MS, type HttpClientOptions } from "./http-client.ts";
