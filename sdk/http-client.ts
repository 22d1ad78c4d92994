import type { HttpRequestInit, PluginHttpClient } from "./context.ts";
import { describeZodError, PluginError } from "./errors.ts";

/** Default time limit of one HTTP call, in milliseconds (10 s). */
export const DEFAULT_HTTP_TIMEOUT_MS = 10_000;

/**
 * Options of `createHttpClient`: `baseUrl?` (absolute http(s) URL that relative
 * paths are appended to), `fetch?` (the fetch implementation, default the
 * global one; tests may inject one), `timeoutMs?` (default time limit per
 * call, default {@link DEFAULT_HTTP_TIMEOUT_MS}).
 */
export interface HttpClientOptions {
  baseUrl?: string;
  fetch?: (input: string, init?: RequestInit) => Promise<Response>;
  timeoutMs?: number;
}

type Schema<T> = { safeParse(data: unknown): { data?: T; error?: unknown; success: boolean } };

// Messages name origin and path only: query strings often carry API keys.
function describe(url: URL): string {
  return `${url.origin}${url.pathname}`;
}

function resolve(baseUrl: string | undefined, pathOrUrl: string): URL {
  if (/^[a-z][a-z0-9+.-]*:/i.test(pathOrUrl)) return new URL(pathOrUrl);
  if (baseUrl === undefined) throw new PluginError("invalid-input", `relative path "${pathOrUrl}" needs a baseUrl`);
  return new URL(`${baseUrl.replace(/\/+$/, "")}/${pathOrUrl.replace(/^\/+/, "")}`);
}

function statusError(url: URL, status: number): PluginError {
  const where = `${describe(url)} answered HTTP ${status}`;
  if (status === 404) return new PluginError("not-found", where);
  if (status === 429) return new PluginError("rate-limited", where);
  if (status === 408 || status >= 500) return new PluginError("unavailable", where);
  return new PluginError("bad-response", where);
}

function parseBody<T>(url: URL, text: string, schema: Schema<T> | undefined): T {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (cause) {
    throw new PluginError("bad-response", `${describe(url)} did not answer JSON`, { cause });
  }
  if (!schema) return data as T;
  const parsed = schema.safeParse(data);
  if (parsed.success) return parsed.data as T;
  const detail = describeZodError(parsed.error as Parameters<typeof describeZodError>[0]);
  throw new PluginError("bad-response", `${describe(url)} answered an unexpected shape: ${detail}`);
}

/**
 * Makes the {@link PluginHttpClient} that plugin contexts carry; the host and
 * `sdk/testing` use this same code. Throws a `PluginError` (`invalid-input`)
 * when `baseUrl` isn't an absolute http(s) URL.
 * Example: `createHttpClient({ baseUrl: "http://127.0.0.1:4010", timeoutMs: 500 })`.
 */
export function createHttpClient(options: HttpClientOptions = {}): PluginHttpClient {
  const { baseUrl, timeoutMs = DEFAULT_HTTP_TIMEOUT_MS } = options;
  if (baseUrl !== undefined && !/^https?:$/.test(URL.canParse(baseUrl) ? new URL(baseUrl).protocol : "")) {
    throw new PluginError("invalid-input", `baseUrl must be an absolute http(s) URL, got "${baseUrl}"`);
  }
  const fetchImpl = options.fetch ?? ((input, init) => fetch(input, init));

  async function send<T>(pathOrUrl: string, init: HttpRequestInit, read: (response: Response, url: URL) => Promise<T>) {
    const url = resolve(baseUrl, pathOrUrl);
    const { signal: callerSignal, timeoutMs: callTimeoutMs, ...rest } = init;
    const limitMs = callTimeoutMs ?? timeoutMs;
    const timer = AbortSignal.timeout(limitMs);
    const signal = callerSignal ? AbortSignal.any([callerSignal, timer]) : timer;
    try {
      return await read(await fetchImpl(url.href, { ...rest, signal }), url);
    } catch (error) {
      if (error instanceof PluginError) throw error;
      if (callerSignal?.aborted) throw callerSignal.reason;
      if (timer.aborted) {
        throw new PluginError("timeout", `${describe(url)} gave no answer within ${limitMs} ms`, { cause: error });
      }
      const message = error instanceof Error ? error.message : String(error);
      throw new PluginError("unavailable", `${describe(url)} could not be reached: ${message}`, { cause: error });
    }
  }

  return Object.freeze({
    baseUrl,
    fetch: (pathOrUrl: string, init: HttpRequestInit = {}) => send(pathOrUrl, init, async (response) => response),
    getJson: <T>(pathOrUrl: string, init: HttpRequestInit & { schema?: Schema<T> } = {}) => {
      const { schema, ...rest } = init;
      return send(pathOrUrl, rest, async (response, url) => {
        if (!response.ok) throw statusError(url, response.status);
        return parseBody(url, await response.text(), schema);
      });
    },
    getText: (pathOrUrl: string, init: HttpRequestInit & { passStatuses?: readonly number[] } = {}) => {
      const { passStatuses = [], ...rest } = init;
      return send(pathOrUrl, rest, async (response, url) => {
        if (!response.ok && !passStatuses.includes(response.status)) {
          await response.body?.cancel().catch(() => undefined);
          throw statusError(url, response.status);
        }
        return { headers: response.headers, status: response.status, text: await response.text(), url: response.url || url.href };
      });
    },
  });
}
