import { afterAll, describe, expect, test } from "bun:test";
import { createHttpClient as createClient, DEFAULT_HTTP_TIMEOUT_MS, PluginError, z } from "../../sdk/index.ts";

const seen: string[] = [];
const upstream = Bun.serve({
  port: 0,
  async fetch(request) {
    const url = new URL(request.url);
    seen.push(`${url.pathname}${url.search}`);
    if (url.pathname.endsWith("/slow")) await Bun.sleep(Number(url.searchParams.get("ms") ?? 1000));
    if (url.pathname.endsWith("/status")) return new Response("x", { status: Number(url.searchParams.get("code")) });
    if (url.pathname.endsWith("/text")) return new Response("<html>not json</html>");
    return Response.json({ path: url.pathname, rate: "1.0850" });
  },
});
afterAll(() => upstream.stop(true));
const origin = upstream.url.origin;
/** The client with the local fake upstream (and only it) on the allow-list. */
const createHttpClient = (options: Parameters<typeof createClient>[0] = {}) =>
  createClient({ allowedDestinations: () => [upstream.url.host], ...options });

async function caught(promise: Promise<unknown>): Promise<PluginError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(PluginError);
  return error as PluginError;
}

describe("timeouts", () => {
  test("a call that outlives the client's timeout fails with PluginError reason timeout", async () => {
    const http = createHttpClient({ baseUrl: origin, timeoutMs: 100 });
    const started = Date.now();
    const error = await caught(http.fetch("/slow?ms=2000"));
    expect([error.reason, error.retryable]).toEqual(["timeout", true]);
    expect(error.message).toBe(`${origin}/slow gave no answer within 100 ms`);
    expect(Date.now() - started).toBeLessThan(1500);
  });

  test("a per-call timeoutMs overrides the client's default", async () => {
    const http = createHttpClient({ baseUrl: origin, timeoutMs: 50 });
    expect((await http.fetch("/slow?ms=150", { timeoutMs: 2000 })).status).toBe(200);
    expect((await caught(http.getJson("/slow?ms=2000", { timeoutMs: 80 }))).reason).toBe("timeout");
  });

  test("the default timeout is ten seconds", () => {
    expect(DEFAULT_HTTP_TIMEOUT_MS).toBe(10_000);
  });

  test("the caller's own abort cancels the call with the caller's reason, not a timeout", async () => {
    const http = createHttpClient({ baseUrl: origin, timeoutMs: 5000 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("user cancelled")), 30);
    const error = await http.fetch("/slow?ms=2000", { signal: controller.signal }).catch((e: unknown) => e);
    expect(error).toEqual(new Error("user cancelled"));
  });
});

describe("base URL resolution", () => {
  test("relative paths are appended to the base URL's path, with or without slashes", async () => {
    seen.length = 0;
    const http = createHttpClient({ baseUrl: `${origin}/api/v1/` });
    await http.fetch("/rates?day=2024-01-02");
    await http.fetch("rates");
    await createHttpClient({ baseUrl: `${origin}/api/v1` }).fetch("/rates");
    expect(seen).toEqual(["/api/v1/rates?day=2024-01-02", "/api/v1/rates", "/api/v1/rates"]);
  });

  test("absolute URLs bypass the base URL", async () => {
    const http = createHttpClient({ baseUrl: "http://127.0.0.1:1/elsewhere" });
    expect(await http.getJson(`${origin}/direct`)).toEqual({ path: "/direct", rate: "1.0850" });
  });

  test("a relative path without a base URL is invalid-input", async () => {
    expect((await caught(createHttpClient().fetch("/rates"))).reason).toBe("invalid-input");
  });

  test("a base URL that is not absolute http(s) is refused when the client is made", () => {
    for (const baseUrl of ["api.example.com", "ftp://example.com", "file:///tmp"]) {
      expect(() => createHttpClient({ baseUrl })).toThrow(PluginError);
    }
  });
});

describe("failures become PluginErrors", () => {
  test("an unreachable upstream is unavailable and retryable", async () => {
    const closed = Bun.serve({ fetch: () => new Response("bye"), port: 0 });
    const url = closed.url.origin;
    closed.stop(true);
    const error = await caught(createHttpClient({ allowedDestinations: () => [closed.url.host], baseUrl: url }).fetch("/x"));
    expect([error.reason, error.retryable]).toEqual(["unavailable", true]);
  });

  test("getJson maps 404, 429, 408/5xx and other statuses to reasons", async () => {
    const http = createHttpClient({ baseUrl: origin });
    const reasons = [];
    for (const code of [404, 429, 408, 503, 400, 401]) reasons.push((await caught(http.getJson(`/status?code=${code}`))).reason);
    expect(reasons).toEqual(["not-found", "rate-limited", "unavailable", "unavailable", "bad-response", "bad-response"]);
  });

  test("fetch returns non-2xx responses as they are", async () => {
    expect((await createHttpClient({ baseUrl: origin }).fetch("/status?code=404")).status).toBe(404);
  });

  test("getJson refuses a body that is not JSON, or not the schema's shape, as bad-response", async () => {
    const http = createHttpClient({ baseUrl: origin });
    expect((await caught(http.getJson("/text"))).reason).toBe("bad-response");
    const error = await caught(http.getJson("/json", { schema: z.object({ rate: z.number() }) }));
    expect(error.reason).toBe("bad-response");
    expect(error.message).toContain("rate: Invalid input: expected number, received string");
  });

  test("getJson returns the schema's parsed output", async () => {
    const schema = z.object({ rate: z.string().transform((s) => `rate ${s}`) });
    expect(await createHttpClient({ baseUrl: origin }).getJson("/json", { schema })).toEqual({ rate: "rate 1.0850" });
  });

  test("error messages leave out the query string, where API keys live", async () => {
    const http = createHttpClient({ baseUrl: origin });
    const error = await caught(http.getJson("/status?code=500&apikey=SECRET"));
    expect(error.message).toBe(`${origin}/status answered HTTP 500`);
  });
});

describe("getText", () => {
  test("reads a text body whole with its status and final URL", async () => {
    const answer = await createHttpClient({ baseUrl: origin }).getText("/text");
    expect(answer).toMatchObject({ status: 200, text: "<html>not json</html>", url: `${origin}/text` });
  });

  test("statuses map as in getJson, except those passed through for the caller", async () => {
    const http = createHttpClient({ baseUrl: origin });
    expect((await caught(http.getText("/status?code=404"))).reason).toBe("not-found");
    expect((await caught(http.getText("/status?code=429"))).reason).toBe("rate-limited");
    expect((await caught(http.getText("/status?code=503"))).reason).toBe("unavailable");
    expect((await http.getText("/status?code=401", { passStatuses: [401] })).status).toBe(401);
  });

  test("the time limit covers the body", async () => {
    expect((await caught(createHttpClient({ baseUrl: origin, timeoutMs: 50 }).getText("/slow?ms=400"))).reason).toBe("timeout");
  });
});
