import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import type { QuotesUpstream } from "../../fakes/quotes-upstream.ts";
import { ApiClient, expectError } from "../../helpers/client.ts";
import type { TestServer } from "../../helpers/server.ts";
import { startAssetsServer } from "./assets-helpers.ts";

const SLOW_MS = 700;

let server: TestServer;
let upstream: QuotesUpstream;
let c: ApiClient;

beforeAll(async () => {
  ({ server, upstream } = await startAssetsServer({ slowSearchMs: SLOW_MS }));
  upstream.searchResults = [{ identifier: "AAPL", name: "Apple Inc.", currency: "USD" }, { identifier: "APC.DE", name: "Apple (Xetra)" }];
  c = new ApiClient(server.base);
  await c.signUp("searcher");
});
afterAll(async () => {
  await server.stop(true);
  upstream.stop();
});
afterEach(() => {
  upstream.delayMs = 0;
  upstream.failures.clear();
});

const searchHits = () => upstream.hits.get("search:") ?? 0;

async function search(query: string) {
  const res = await c.get(`/assets/provider/search?${query}`);
  expect(res.status).toBe(200);
  return res.json();
}

describe("GET /assets/provider/search", () => {
  test("named providers are searched in parallel and answer together, each result tagged with its provider", async () => {
    upstream.delayMs = SLOW_MS;
    const started = performance.now();
    const body = await search("q=apple-parallel&providers=fakequotes,slowquotes");
    const elapsed = performance.now() - started;
    expect(elapsed).toBeLessThan(2 * SLOW_MS - 100);
    expect(body.results).toEqual([
      { provider_code: "fakequotes", identifier: "AAPL", name: "Apple Inc.", currency: "USD", identifier_type: "TICKER" },
      { provider_code: "fakequotes", identifier: "APC.DE", name: "Apple (Xetra)", currency: null, identifier_type: "TICKER" },
      { provider_code: "slowquotes", identifier: "IE00B4L5Y983", name: "Slow apple-parallel", currency: "EUR", identifier_type: "ISIN" },
    ]);
    expect(body.providers.map((p: any) => [p.provider_code, p.success, p.result_count])).toEqual([["fakequotes", true, 2], ["slowquotes", true, 1]]);
    expect(body).toMatchObject({ query: "apple-parallel", total_results: 3 });
  });

  test("a failing provider gives an error entry, never a failed request", async () => {
    upstream.failures.set("", 500);
    const body = await search("q=failing&providers=fakequotes,slowquotes,nosuch,fakeschedule");
    expect(body.providers).toEqual([
      { provider_code: "fakequotes", success: false, result_count: 0, cached: false, error: expect.stringContaining("HTTP 500"), reason: "unavailable" },
      { provider_code: "slowquotes", success: true, result_count: 1, cached: false, error: null, reason: null },
      { provider_code: "nosuch", success: false, result_count: 0, cached: false, error: "Provider 'nosuch' not found", reason: "not-found" },
      { provider_code: "fakeschedule", success: false, result_count: 0, cached: false, error: "Provider 'fakeschedule' does not support search", reason: "not-found" },
    ]);
    expect(body.results.map((r: any) => r.provider_code)).toEqual(["slowquotes"]);
    const boom = await search("q=boom&providers=slowquotes");
    expect(boom.providers[0]).toMatchObject({ success: false, error: "slow upstream is down", reason: "unavailable" });
  });

  test("answers are cached per provider and query (search_queries, search_results): the upstream is asked once", async () => {
    const before = searchHits();
    const first = await search("q=MSFT&providers=fakequotes");
    const second = await search("q=%20msft%20&providers=fakequotes");
    expect(searchHits()).toBe(before + 1);
    expect(first.providers[0].cached).toBe(false);
    expect(second.providers[0].cached).toBe(true);
    expect(second.results).toEqual(first.results);
    const status = await (await c.get("/settings/cache/status")).json();
    const names = status.items.map((i: any) => i.name);
    expect(names).toEqual(expect.arrayContaining(["search_queries", "search_results"]));
    expect(status.items.find((i: any) => i.name === "search_queries")).toMatchObject({ maxsize: 500, ttl_seconds: 900 });
    expect(status.items.find((i: any) => i.name === "search_results")).toMatchObject({ maxsize: 5000, ttl_seconds: 86400 });
  });

  test("a failed answer is not cached: the next search asks again", async () => {
    upstream.failures.set("", 503);
    const before = searchHits();
    expect((await search("q=retry-me&providers=fakequotes")).providers[0].success).toBe(false);
    upstream.failures.clear();
    expect((await search("q=retry-me&providers=fakequotes")).providers[0]).toMatchObject({ success: true, cached: false });
    expect(searchHits()).toBe(before + 2);
  });

  test("an empty or missing query is 422", async () => {
    await expectError(await c.get("/assets/provider/search?q="), 422, "VALIDATION_ERROR");
    await expectError(await c.get("/assets/provider/search"), 422, "VALIDATION_ERROR");
  });
});

/** The events of a text/event-stream body, in order. */
function parseEvents(text: string): { event: string; data: any }[] {
  return text.split("\n\n").filter((block) => block.trim() !== "").map((block) => {
    const lines = block.split("\n");
    const event = lines.find((l) => l.startsWith("event: "))!.slice(7);
    const data = lines.filter((l) => l.startsWith("data: ")).map((l) => l.slice(6)).join("\n");
    return { event, data: JSON.parse(data) };
  });
}

describe("GET /assets/provider/search/stream (server-sent events)", () => {
  test("one provider_results or provider_error event per provider as it answers, the fastest first, then done", async () => {
    upstream.failures.set("", 500);
    const res = await c.get("/assets/provider/search/stream?q=stream&providers=slowquotes,fakequotes,nosuch");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toStartWith("text/event-stream");
    const events = parseEvents(await res.text());
    expect(events.map((e) => [e.event, e.data.provider_code ?? null])).toEqual([
      ["provider_error", "nosuch"], ["provider_error", "fakequotes"], ["provider_results", "slowquotes"], ["done", null],
    ]);
    expect(events[2]!.data).toEqual({
      provider_code: "slowquotes", cached: false,
      results: [{ provider_code: "slowquotes", identifier: "IE00B4L5Y983", name: "Slow stream", currency: "EUR", identifier_type: "ISIN" }],
    });
    expect(events[1]!.data).toMatchObject({ reason: "unavailable", error: expect.stringContaining("HTTP 500") });
    expect(events[3]!.data).toEqual({ query: "stream", total_results: 1, provider_count: 3, error_count: 2 });
  });

  test("results arrive before the slowest provider has answered", async () => {
    const res = await c.get("/assets/provider/search/stream?q=early&providers=slowquotes,fakequotes");
    const reader = res.body!.getReader();
    const started = performance.now();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(performance.now() - started).toBeLessThan(SLOW_MS - 200);
    expect(parseEvents(first)[0]).toMatchObject({ event: "provider_results", data: { provider_code: "fakequotes" } });
    let rest = "";
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) rest += new TextDecoder().decode(chunk.value);
    expect(parseEvents(rest).map((e) => e.event)).toEqual(["provider_results", "done"]);
  });

  test("the stream validates its query like the search: 422 without q", async () => {
    await expectError(await c.get("/assets/provider/search/stream"), 422, "VALIDATION_ERROR");
  });
});
