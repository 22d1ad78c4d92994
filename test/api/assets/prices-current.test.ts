import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { expectError } from "../../helpers/client.ts";
import { queryDb } from "../../helpers/seed.ts";
import {
  clearCache, currentPrices, daysAgo, type PricesEnv, seedPricedAsset, seedPrices, startPricesEnv, todayUtc,
} from "./prices-fixtures.ts";

let env: PricesEnv;
let dataDir = "";
const asset = (symbol?: string, currency = "EUR") => seedPricedAsset(dataDir, { symbol, currency }).assetId;
const quote = (symbol: string, price: string, date = todayUtc(), currency = "EUR") => env.upstream.quotes.set(symbol, { price, date, currency });
const todayRow = (assetId: number) =>
  queryDb<Record<string, string | null>>(dataDir, `SELECT open, high, low, close, source_plugin_key FROM price_history WHERE asset_id = ? AND date = ?`, assetId, todayUtc())[0];

beforeAll(async () => {
  env = await startPricesEnv(300);
  dataDir = env.server.dataDir;
});
afterAll(() => env.stop());
beforeEach(() => {
  env.upstream.delayMs = 0;
  env.upstream.failures.clear();
});

describe("one result per requested id, in request order", () => {
  test("duplicates are answered each time and an unknown id keeps its place", async () => {
    const a = asset("R1A");
    const b = asset();
    quote("R1A", "10");
    seedPrices(dataDir, b, [{ date: "2024-01-02", close: "7" }]);
    const body = await currentPrices(env.c, [b, a, 999_999, b]);
    expect(body.results.map((r) => r.asset_id)).toEqual([b, a, 999_999, b]);
    expect(body.results.map((r) => r.value)).toEqual(["7", "10", null, "7"]);
    expect(env.upstream.hits.get("quote:R1A")).toBe(1);
  });
});

describe("a provider is asked, all assets in parallel, 5 calls at a time, answers cached 2 minutes", () => {
  test("a provider answer has source provider:<code>, its currency and a date as as_of_date", async () => {
    const a = asset("R2A", "USD");
    quote("R2A", "123.4500", "2024-05-06", "USD");
    const [item] = (await currentPrices(env.c, [a])).results;
    expect(item).toEqual({ asset_id: a, value: "123.4500", currency: "USD", as_of_date: "2024-05-06", source: "provider:fakequotes", error: null });
  });

  test("never more than 5 provider calls in flight, and as many as 5 (all assets in parallel), with 50 assets", async () => {
    const ids = Array.from({ length: 50 }, (_, i) => { quote(`PAR${i}`, `${i + 1}`); return asset(`PAR${i}`); });
    env.upstream.delayMs = 40;
    env.upstream.maxInFlight = 0;
    const body = await currentPrices(env.c, ids);
    expect(body.success_count).toBe(50);
    expect(body.results.every((r) => r.source === "provider:fakequotes")).toBe(true);
    expect(env.upstream.maxInFlight).toBe(5);
  });

  test("a second ask within 2 minutes is answered from asset_current_fetch without calling the provider", async () => {
    const a = asset("CACHED");
    quote("CACHED", "50", "2024-01-05");
    await currentPrices(env.c, [a]);
    quote("CACHED", "51", "2024-01-05");
    const again = await currentPrices(env.c, [a, a]);
    expect(again.results.map((r) => r.value)).toEqual(["50", "50"]);
    expect(env.upstream.hits.get("quote:CACHED")).toBe(1);
    const status = await (await env.c.get("/settings/cache/status")).json();
    expect(status.items.find((i: { name: string }) => i.name === "asset_current_fetch")).toMatchObject({ maxsize: 300, ttl_seconds: 120 });
    await clearCache(env.c, "asset_current_fetch");
    expect((await currentPrices(env.c, [a])).results[0].value).toBe("51");
    expect(env.upstream.hits.get("quote:CACHED")).toBe(2);
  });

  test("two assets on the same instrument share one provider call", async () => {
    const a = asset("SHARED");
    const b = asset("SHARED");
    quote("SHARED", "3", "2024-01-05");
    const body = await currentPrices(env.c, [a, b]);
    expect(body.results.map((r) => r.value)).toEqual(["3", "3"]);
    expect(env.upstream.hits.get("quote:SHARED")).toBe(1);
  });
});

describe("fallback to the latest stored close with source db:last_known", () => {
  test("a provider failure (500 and 429) falls back, and failures are not cached", async () => {
    const a = asset("FAIL500");
    const b = asset("FAIL429");
    seedPrices(dataDir, a, [{ date: "2024-03-01", close: "9.5" }, { date: "2024-03-04", close: "9.75" }]);
    seedPrices(dataDir, b, [{ date: "2024-02-01", close: "1" }]);
    env.upstream.failures.set("FAIL500", 500);
    env.upstream.failures.set("FAIL429", 429);
    const body = await currentPrices(env.c, [a, b]);
    expect(body.results[0]).toEqual({ asset_id: a, value: "9.75", currency: "EUR", as_of_date: "2024-03-04", source: "db:last_known", error: null });
    expect(body.results[1]).toMatchObject({ value: "1", source: "db:last_known" });
    await currentPrices(env.c, [a]);
    expect(env.upstream.hits.get("quote:FAIL500")).toBe(2);
  });

  test("a provider slower than its time limit (300 ms in this test's plugin config) falls back", async () => {
    const a = asset("SLOW");
    quote("SLOW", "99");
    seedPrices(dataDir, a, [{ date: "2024-03-01", close: "42" }]);
    env.upstream.delayMs = 1_500;
    const [item] = (await currentPrices(env.c, [a])).results;
    expect(item).toMatchObject({ value: "42", source: "db:last_known", error: null });
    expect(env.upstream.hits.get("quote:SLOW")).toBe(1);
  });

  test("no usable provider (none assigned, or the assigned plugin is not loaded) falls back without calling out", async () => {
    const manual = asset();
    const gone = seedPricedAsset(dataDir, { symbol: "GONE", provider: "no-such-provider" }).assetId;
    seedPrices(dataDir, manual, [{ date: "2024-01-01", close: "5" }]);
    seedPrices(dataDir, gone, [{ date: "2024-01-02", close: "6" }]);
    const body = await currentPrices(env.c, [manual, gone]);
    expect(body.results.map((r) => [r.value, r.source])).toEqual([["5", "db:last_known"], ["6", "db:last_known"]]);
    expect(env.upstream.hits.get("quote:GONE")).toBeUndefined();
  });
});

describe("no price at all, or no such asset", () => {
  test("no stored price gives value null and `No price data available`; an unknown id gives `Asset not found`", async () => {
    const a = asset("NOPRICE");
    env.upstream.failures.set("NOPRICE", 500);
    const body = await currentPrices(env.c, [a, 424_242]);
    expect(body.results).toEqual([
      { asset_id: a, value: null, currency: null, as_of_date: null, source: null, error: "No price data available" },
      { asset_id: 424_242, value: null, currency: null, as_of_date: null, source: null, error: "Asset not found" },
    ]);
  });

  test("success_count counts items with a value; errors is always empty", async () => {
    const a = asset("COUNT");
    quote("COUNT", "2", "2024-01-01");
    const body = await currentPrices(env.c, [a, 424_243, a]);
    expect(body.success_count).toBe(2);
    expect(body.errors).toEqual([]);
  });
});

describe("a quote dated today creates or extends today's row; nothing else is written", () => {
  test("a quote dated today creates today's row with open, high, low and close equal to the quote", async () => {
    const a = asset("TODAY1");
    quote("TODAY1", "0.1");
    await currentPrices(env.c, [a]);
    expect(todayRow(a)).toEqual({ open: "0.1", high: "0.1", low: "0.1", close: "0.1", source_plugin_key: "fakequotes" });
  });

  test("an existing row is extended: high widened, open set when missing, low kept, close replaced (exact strings)", async () => {
    const a = asset("TODAY2");
    seedPrices(dataDir, a, [{ date: todayUtc(), open: null, high: "101", low: "100.5", close: "100.75" }]);
    quote("TODAY2", "101.25");
    await currentPrices(env.c, [a]);
    expect(todayRow(a)).toMatchObject({ open: "101.25", high: "101.25", low: "100.5", close: "101.25" });
  });

  test("a lower quote widens low and keeps a stored open", async () => {
    const a = asset("TODAY3");
    seedPrices(dataDir, a, [{ date: todayUtc(), open: "100.00", high: "101", low: "100.5", close: "100.75" }]);
    quote("TODAY3", "99.50");
    await currentPrices(env.c, [a]);
    expect(todayRow(a)).toMatchObject({ open: "100.00", high: "101", low: "99.50", close: "99.50" });
  });

  test("a quote dated another day writes nothing", async () => {
    const a = asset("OLDQUOTE");
    quote("OLDQUOTE", "8", daysAgo(3));
    const [item] = (await currentPrices(env.c, [a])).results;
    expect(item).toMatchObject({ value: "8", as_of_date: daysAgo(3), source: "provider:fakequotes" });
    expect(queryDb(dataDir, `SELECT * FROM price_history WHERE asset_id = ?`, a)).toEqual([]);
  });

  test("a database fallback is never written back", async () => {
    const a = asset("NOWRITE");
    seedPrices(dataDir, a, [{ date: daysAgo(2), close: "4" }]);
    env.upstream.failures.set("NOWRITE", 500);
    await currentPrices(env.c, [a]);
    expect(queryDb<{ date: string }>(dataDir, `SELECT date FROM price_history WHERE asset_id = ?`, a).map((r) => r.date)).toEqual([daysAgo(2)]);
  });
});

describe("request body: a JSON array of 1 to 1000 integer asset ids", () => {
  test.each([
    ["an empty array", []],
    ["a string id", ["1"]],
    ["a fractional id", [1.5]],
    ["an object", { ids: [1] }],
  ])("%s gives 422", async (_, body) => {
    await expectError(await env.c.post("/assets/prices/current", body), 422, "VALIDATION_ERROR");
  });

  test("1001 ids are over the limit: 413 LIMIT_EXCEEDED naming it", async () => {
    const body = await expectError(await env.c.post("/assets/prices/current", Array.from({ length: 1001 }, (_, i) => i + 1)), 413, "LIMIT_EXCEEDED");
    expect(body.detail).toContain("at most 1,000 items per request; this one asks for 1,001");
    expect(body.params).toEqual({ limit: 1000, requested: 1001, unit: "items" });
  });
});

describe("a failure of the whole call is HTTP 500", () => {
  test("with the price table unreadable the call answers 500 with the generic error body", async () => {
    const a = asset();
    queryDb(dataDir, `ALTER TABLE price_history RENAME TO price_history_away`);
    try {
      await expectError(await env.c.post("/assets/prices/current", [a]), 500, "INTERNAL_ERROR");
    } finally {
      queryDb(dataDir, `ALTER TABLE price_history_away RENAME TO price_history`);
    }
    expect((await currentPrices(env.c, [a])).results[0].error).toBe("No price data available");
  });

  test("without a session the call is 401", async () => {
    const res = await fetch(`${env.server.base}/assets/prices/current`, { method: "POST", headers: { "content-type": "application/json" }, body: "[1]" });
    await expectError(res, 401, "NOT_AUTHENTICATED");
  });
});
