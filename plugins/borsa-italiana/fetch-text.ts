import { type HttpRequestInit, PluginError, type PluginHttpClient } from "../../sdk/index.ts";

/** A text answer: the body, its status and headers, and the URL it came from after redirects. */
export interface TextAnswer {
  readonly headers: Headers;
  readonly status: number;
  readonly text: string;
  readonly url: string;
}

// Messages name origin and path only, as the SDK's client does.
export function where(url: string): string {
  const parsed = new URL(url);
  return `${parsed.origin}${parsed.pathname}`;
}

/** The reason of a non-2xx answer, mapped as the SDK's `getJson` maps it. */
export function statusError(url: string, status: number): PluginError {
  const message = `${where(url)} answered HTTP ${status}`;
  if (status === 404) return new PluginError("not-found", message);
  if (status === 429) return new PluginError("rate-limited", message);
  if (status === 408 || status >= 500) return new PluginError("unavailable", message);
  return new PluginError("bad-response", message);
}

/**
 * GETs `url` through the plugin's HTTP client and reads the whole body as text. The client's timeout
 * covers the headers; its signal also aborts a body that stalls, which becomes `timeout` here too.
 * Non-2xx statuses throw `statusError`, except those listed in `passStatuses`, which are returned.
 */
export async function fetchText(
  http: PluginHttpClient,
  url: string,
  init: HttpRequestInit & { passStatuses?: readonly number[] },
): Promise<TextAnswer> {
  const { passStatuses = [], ...rest } = init;
  const response = await http.fetch(url, rest);
  if (!response.ok && !passStatuses.includes(response.status)) {
    await response.body?.cancel().catch(() => undefined);
    throw statusError(url, response.status);
  }
  try {
    return { headers: response.headers, status: response.status, text: await response.text(), url: response.url || url };
  } catch (error) {
    if (init.signal?.aborted) throw init.signal.reason;
    const timedOut = error instanceof Error && error.name === "TimeoutError";
    throw new PluginError(timedOut ? "timeout" : "unavailable", `${where(url)} broke off its answer: ${String(error)}`, { cause: error });
  }
}
