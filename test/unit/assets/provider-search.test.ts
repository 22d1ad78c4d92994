import "reflect-metadata";
import { describe, expect, test } from "bun:test";
import type { QuoteProvider, QuoteSearchParams, QuoteSearchResult } from "../../../sdk/index.ts";
import { CacheRegistry } from "../../../core/cache/cache-registry.ts";
import type { ProviderDirectory, ProviderEntry } from "../../../core/assets/provider-assignment.service.ts";
import { ProviderSearchService } from "../../../core/assets/provider-search.service.ts";

type Search = (p: QuoteSearchParams) => Promise<readonly QuoteSearchResult[]>;

function quote(code: string, search: Search, extra: Partial<ProviderEntry> = {}): ProviderEntry {
  const instance: QuoteProvider = { search, getQuotes: async () => [], getHistory: async () => [], identifierType: "TICKER" };
  return { code, name: code, description: code, hidden: false, kind: "quote-provider", instance, ...extra } as ProviderEntry;
}

const parametric: ProviderEntry = {
  code: "param", name: "param", description: "param", hidden: false, kind: "scheduled-investment-provider",
  instance: { paramsSchema: {} as never, generateEvents: () => [], generatePrices: () => [] },
};

function service(entries: ProviderEntry[], caches = new CacheRegistry()) {
  const directory: ProviderDirectory = { list: () => entries, find: (code) => entries.find((e) => e.code === code) };
  return new ProviderSearchService(caches, directory);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const answering = (ms: number, identifier: string): Search => async () => {
  await sleep(ms);
  return [{ identifier, name: identifier }];
};

describe("provider search", () => {
  test("providers are asked in parallel: two 300 ms providers answer in well under 600 ms", async () => {
    const s = service([quote("a", answering(300, "A")), quote("b", answering(300, "B"))]);
    const started = performance.now();
    const outcomes = await s.search({ query: "x", providerCodes: ["a", "b"] });
    expect(performance.now() - started).toBeLessThan(550);
    expect(outcomes.map((o) => (o.ok ? o.hits.map((h) => h.identifier) : o.error))).toEqual([["A"], ["B"]]);
  });

  test("a provider slower than the timeout is aborted and becomes an error entry with reason timeout", async () => {
    let signal: AbortSignal | undefined;
    const stuck: Search = (p) => {
      signal = p.signal;
      return new Promise(() => {});
    };
    const s = service([quote("stuck", stuck), quote("fast", answering(0, "F"))]);
    const [slow, fast] = await s.search({ query: "x", providerCodes: ["stuck", "fast"], timeoutMs: 50 });
    expect(slow).toEqual({ ok: false, providerCode: "stuck", error: "No answer within 50 ms", reason: "timeout" });
    expect(signal?.aborted).toBe(true);
    expect(fast).toMatchObject({ ok: true, hits: [{ identifier: "F" }] });
  });

  test("without named providers, every visible quote provider is asked; hidden and parametric ones are not", async () => {
    const asked: string[] = [];
    const track = (code: string): Search => async () => (asked.push(code), []);
    const s = service([quote("shown", track("shown")), quote("hidden", track("hidden"), { hidden: true }), parametric]);
    expect((await s.search({ query: "x" })).map((o) => o.providerCode)).toEqual(["shown"]);
    expect(asked).toEqual(["shown"]);
    const named = await s.search({ query: "x", providerCodes: ["hidden", "param"] });
    expect(named.map((o) => [o.providerCode, o.ok])).toEqual([["hidden", true], ["param", false]]);
  });

  test("the stream yields each provider's outcome as soon as it answers", async () => {
    const s = service([quote("slow", answering(150, "S")), quote("fast", answering(10, "F"))]);
    const order: string[] = [];
    for await (const outcome of s.stream({ query: "x", providerCodes: ["slow", "fast"] })) order.push(outcome.providerCode);
    expect(order).toEqual(["fast", "slow"]);
  });

  test("a cached query is answered without the provider until its instruments leave search_results", async () => {
    let calls = 0;
    const counting: Search = async () => (calls++, [{ identifier: "A", name: "A" }]);
    const caches = new CacheRegistry();
    const s = service([quote("p", counting)], caches);
    await s.search({ query: "Apple", providerCodes: ["p"] });
    const [again] = await s.search({ query: " apple ", providerCodes: ["p"] });
    expect([calls, again!.ok && again!.cached]).toEqual([1, true]);
    caches.clear("search_results");
    await s.search({ query: "apple", providerCodes: ["p"] });
    expect(calls).toBe(2);
  });

  test("malformed answers: a non-list is an error entry; entries without identifier or name are dropped", async () => {
    const notAList: Search = async () => ({ results: [] }) as never;
    const sloppy: Search = async () => [{ identifier: "OK", name: "Fine" }, { name: "no id" }, { identifier: "X" }] as never;
    const [bad, partial] = await service([quote("bad", notAList), quote("sloppy", sloppy)]).search({ query: "x", providerCodes: ["bad", "sloppy"] });
    expect(bad).toMatchObject({ ok: false, reason: "bad-response" });
    expect(partial!.ok && partial!.hits.map((h) => h.identifier)).toEqual(["OK"]);
  });
});
