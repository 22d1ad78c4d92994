import type { HttpRequestInit, PluginHttpClient } from "./context.ts";
import { describeZodError, PluginError } from "./errors.ts";
import { parseIp } from "./ip-address.ts";
import { type AllowedDestinations, checkDestination, type HostLookup, pinnedUrl } from "./outbound-guard.ts";

/** Default time limit of one HTTP call, in milliseconds (10 s). */
export const DEFAULT_HTTP_TIMEOUT_MS = 10_000;

/** Redirects followed per call, each one checked like the first request (since 1.2). */
export const MAX_REDIRECTS = 5;

/**
 * Options of `createHttpClient`: `allowedDestinations?` (allow-list of
 * internal hosts, addresses, `host:port` and CIDR ranges the client may reach,
 * read on every call; default none), `baseUrl?` (absolute http(s) URL that
 * relative paths are appended to), `fetch?` (the fetch implementation, default
 * the global one; an injected fetch replaces the network, so host names are
 * resolved only when `lookup` is given too), `lookup?` (host name to
 * addresses, default the runtime's DNS), `onRefused?` (called once per
 * refused request, e.g. to log it), `timeoutMs?` (default time limit per call,
 * default {@link DEFAULT_HTTP_TIMEOUT_MS}).
 */
export interface HttpClientOptions {
  allowedDestinations?: AllowedDestinations;
  baseUrl?: string;
  fetch?: (input: string, init?: RequestInit) => Promise<Response>;
  lookup?: HostLookup;
  onRefused?: (error: PluginError) => void;
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

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** `work`, or the signal's abort reason when it fires first (a DNS lookup takes no signal). */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal | null | undefined): Promise<T> {
  if (!signal) return work;
  signal.throwIfAborted();
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/**
 * Makes the {@link PluginHttpClient} that plugin contexts carry; the host and
 * `sdk/testing` use this same code. Every request and every redirect hop (at
 * most {@link MAX_REDIRECTS}) is checked before it is sent: http(s) only, and
 * no loopback, private, link-local, carrier-grade NAT, multicast, unspecified
 * or reserved address (nor IPv4-mapped forms of them) unless
 * `allowedDestinations` lists it. The host name is resolved once and the
 * client connects to that checked address. A refusal is a `PluginError` with
 * reason `blocked`. Throws a `PluginError` (`invalid-input`) when `baseUrl`
 * isn't an absolute http(s) URL.
 * Example: `createHttpClient({ baseUrl: "http://127.0.0.1:4010", timeoutMs: 500 })`.
 */
export function createHttpClient(options: HttpClientOptions = {}): PluginHttpClient {
  const { baseUrl, timeoutMs = DEFAULT_HTTP_TIMEOUT_MS } = options;
  if (baseUrl !== undefined && !/^https?:$/.test(URL.canParse(baseUrl) ? new URL(baseUrl).protocol : "")) {
    throw new PluginError("invalid-input", `baseUrl must be an absolute http(s) URL, got "${baseUrl}"`);
  }
  const injected = options.fetch !== undefined;
  const fetchImpl = options.fetch ?? ((input, init) => fetch(input, init));
  const guard = { allowed: options.allowedDestinations, lookup: options.lookup, resolve: !injected };

  /** One request, redirects followed by hand so that each hop is checked; answers the last URL too. */
  async function follow(start: URL, init: RequestInit): Promise<{ response: Response; url: URL }> {
    let url = start;
    let request = init;
    for (let hop = 0; ; hop++) {
      const destination = await untilAborted(checkDestination(url, guard), init.signal);
      const headers = new Headers(request.headers);
      if (destination.address && !injected) headers.set("host", url.host);
      const named = destination.address && !injected && url.protocol === "https:" && parseIp(url.hostname) === null;
      const tls = named ? { tls: { serverName: url.hostname } } : {};
      const response = await fetchImpl(injected ? url.href : pinnedUrl(destination), { ...request, ...tls, headers, redirect: "manual" });
      const location = response.headers.get("location");
      if (!REDIRECTS.has(response.status) || location === null || init.redirect === "manual") return { response, url };
      await response.body?.cancel().catch(() => undefined);
      if (init.redirect === "error") throw new PluginError("bad-response", `${describe(url)} redirected`);
      if (hop >= MAX_REDIRECTS) throw new PluginError("blocked", `${describe(start)} redirected more than ${MAX_REDIRECTS} times`);
      url = new URL(location, url);
      if (response.status === 303 || ((response.status === 301 || response.status === 302) && request.method === "POST")) {
        const { body: _body, ...rest } = request;
        request = { ...rest, method: "GET" };
      }
    }
  }

  async function send<T>(pathOrUrl: string, init: HttpRequestInit, read: (response: Response, url: URL) => Promise<T>) {
    const url = resolve(baseUrl, pathOrUrl);
    const { signal: callerSignal, timeoutMs: callTimeoutMs, ...rest } = init;
    const limitMs = callTimeoutMs ?? timeoutMs;
    const timer = AbortSignal.timeout(limitMs);
    const signal = callerSignal ? AbortSignal.any([callerSignal, timer]) : timer;
    try {
      const answer = await follow(url, { ...rest, signal });
      return await read(answer.response, answer.url);
    } catch (error) {
      if (error instanceof PluginError) {
        if (error.reason === "blocked") options.onRefused?.(error);
        throw error;
      }
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
        return { headers: response.headers, status: response.status, text: await response.text(), url: url.href };
      });
    },
  });
}
