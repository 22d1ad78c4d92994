import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { queryDb, seedAssetEvent } from "../../helpers/seed.ts";
import { clearCache, type PricesEnv, postJson, seedPricedAsset, seedPrices, startPricesEnv } from "./prices-fixtures.ts";

let env: PricesEnv;
let dataDir = "";
const sync = async (items: unknown[]) => (await postJson(env.c, "/assets/prices/sync", items));
const syncOne = async (assetId: number, start: string, end = "2024-12-31") =>
  (await sync([{ asset_id: assetId, date_range: { start, end } }])).results[0];
const days = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `2024-01-${String(from + i).padStart(2, "0")}`);
const history = (symbol: string, dates: string[], close = (i: number) => `${10 + i}.5`) =>
  env.upstream.history.set(symbol, dates.map((date, i) => ({ date, open: "10", high: "20", low: "5", close: close(i), volume: "100" })));
const prices = (assetId: number) => queryDb<{ date: string; close: string; source_plugin_key: string; provider_assignment_id: number | null }>(dataDir,
  `SELECT date, close, source_plugin_key, provider_assignment_id FROM price_history WHERE asset_id = ? ORDER BY date`, assetId);
const events = (assetId: number) => queryDb<{ id: number; date: string; type: string; value: string; provider_assignment_id: number | null }>(dataDir,
  `SELECT id, date, type, value, provider_assignment_id FROM asset_events WHERE asset_id = ? ORDER BY id`, assetId);

beforeAll(async () => {
  env = await startPricesEnv();
  dataDir = env.server.dataDir;
});
afterAll(() => env.stop());
beforeEach(async () => {
  env.upstream.failures.clear();
  await clearCache(env.c, "asset_history_fetch");
});

describe("price sync rule: resume is the day after the last stored price, full history when none", () => {
  test("resume without stored prices fetches the full history", async () => {
    const { assetId, assignmentId } = seedPricedAsset(dataDir, { symbol: "FULL" });
    history("FULL", ["1999-12-31", "2024-01-02", "2024-01-03"]);
    const result = await syncOne(assetId, "resume");
    expect(result).toMatchObject({ asset_id: assetId, status: "ok", provider_used: "fakequotes", points_fetched: 3, points_changed: 3, inserted_count: 3, updated_count: 0, errors: [] });
    expect(prices(assetId).map((p) => p.date)).toEqual(["1999-12-31", "2024-01-02", "2024-01-03"]);
    expect(prices(assetId)[0]).toMatchObject({ source_plugin_key: "fakequotes", provider_assignment_id: assignmentId });
  });

  test("resume fetches from the day after the last stored price: earlier stored days are left alone", async () => {
    const { assetId } = seedPricedAsset(dataDir, { symbol: "RESUME" });
    seedPrices(dataDir, assetId, [{ date: "2024-01-05", close: "7" }, { date: "2024-01-10", close: "8" }]);
    history("RESUME", days(1, 15));
    const result = await syncOne(assetId, "resume");
    expect(result).toMatchObject({ status: "ok", points_fetched: 5, inserted_count: 5 });
    const rows = prices(assetId);
    expect(rows.find((r) => r.date === "2024-01-05")).toMatchObject({ close: "7", source_plugin_key: "manual" });
    expect(rows.map((r) => r.date)).toEqual(["2024-01-05", "2024-01-10", ...days(11, 15)]);
  });

  test("min fetches the full history and overwrites stored days with the provider's values", async () => {
    const { assetId } = seedPricedAsset(dataDir, { symbol: "MIN" });
    seedPrices(dataDir, assetId, [{ date: "2024-01-02", close: "7" }]);
    history("MIN", days(1, 3));
    const result = await syncOne(assetId, "min");
    expect(result).toMatchObject({ status: "ok", points_fetched: 3, inserted_count: 2, updated_count: 1, points_changed: 3 });
    expect(prices(assetId).map((p) => [p.date, p.close, p.source_plugin_key])).toEqual([
      ["2024-01-01", "10.5", "fakequotes"], ["2024-01-02", "11.5", "fakequotes"], ["2024-01-03", "12.5", "fakequotes"],
    ]);
  });

  test("an explicit range stores only its days; an unchanged re-sync changes nothing", async () => {
    const { assetId } = seedPricedAsset(dataDir, { symbol: "RANGE" });
    history("RANGE", days(1, 20));
    expect(await syncOne(assetId, "2024-01-05", "2024-01-09")).toMatchObject({ points_fetched: 5, inserted_count: 5 });
    await clearCache(env.c, "asset_history_fetch");
    expect(await syncOne(assetId, "2024-01-05", "2024-01-09")).toMatchObject({ points_fetched: 5, points_changed: 0, inserted_count: 0, updated_count: 0 });
    expect(prices(assetId)).toHaveLength(5);
  });
});

describe("events: provider events under the assignment, updated in place, others untouched", () => {
  test("an event returned again updates the stored event of the same date and type, keeping its id", async () => {
    const { assetId, assignmentId } = seedPricedAsset(dataDir, { symbol: "EVT" });
    env.upstream.events.set("EVT", [{ date: "2024-03-01", type: "DIVIDEND", value: "0.50", currency: "USD" }, { date: "2024-06-01", type: "SPLIT", value: "4" }]);
    const first = await syncOne(assetId, "2024-01-01");
    expect(first).toMatchObject({ events_fetched: 2, events_changed: 2 });
    const before = events(assetId);
    expect(before.map((e) => [e.date, e.type, e.value, e.provider_assignment_id])).toEqual([
      ["2024-03-01", "DIVIDEND", "0.50", assignmentId], ["2024-06-01", "SPLIT", "4", assignmentId],
    ]);
    expect(queryDb(dataDir, `SELECT currency FROM asset_events WHERE asset_id = ? ORDER BY id`, assetId)).toEqual([{ currency: "USD" }, { currency: "EUR" }]);
    env.upstream.events.set("EVT", [{ date: "2024-03-01", type: "DIVIDEND", value: "0.55", currency: "USD" }, { date: "2024-06-01", type: "SPLIT", value: "4" }]);
    await clearCache(env.c, "asset_history_fetch");
    expect(await syncOne(assetId, "2024-01-01")).toMatchObject({ events_fetched: 2, events_changed: 1 });
    expect(events(assetId).map((e) => [e.id, e.value])).toEqual([[before[0]!.id, "0.55"], [before[1]!.id, "4"]]);
  });

  test("a stored provider event the provider no longer returns is kept", async () => {
    const { assetId } = seedPricedAsset(dataDir, { symbol: "GONEEVT" });
    env.upstream.events.set("GONEEVT", [{ date: "2024-03-01", type: "DIVIDEND", value: "1" }, { date: "2024-04-01", type: "DIVIDEND", value: "1" }]);
    await syncOne(assetId, "2024-01-01");
    env.upstream.events.set("GONEEVT", [{ date: "2024-04-01", type: "DIVIDEND", value: "1" }]);
    await clearCache(env.c, "asset_history_fetch");
    await syncOne(assetId, "2024-01-01");
    expect(events(assetId).map((e) => e.date)).toEqual(["2024-03-01", "2024-04-01"]);
  });

  test("manual events and other assignments' events of the same date and type are never touched", async () => {
    const { assetId, assignmentId } = seedPricedAsset(dataDir, { symbol: "MIXED" });
    const manual = seedAssetEvent(dataDir, { assetId, date: "2024-03-01", type: "DIVIDEND", value: "9", currency: "EUR" });
    const foreign = seedAssetEvent(dataDir, { assetId, date: "2024-03-01", type: "DIVIDEND", value: "8", currency: "EUR", providerAssignmentId: assignmentId! + 1000 });
    env.upstream.events.set("MIXED", [{ date: "2024-03-01", type: "DIVIDEND", value: "0.5" }]);
    expect(await syncOne(assetId, "2024-01-01")).toMatchObject({ events_changed: 1 });
    const rows = events(assetId);
    expect(rows.map((e) => [e.id, e.value, e.provider_assignment_id])).toEqual([
      [manual, "9", null], [foreign, "8", assignmentId! + 1000], [expect.any(Number), "0.5", assignmentId],
    ]);
  });
});

describe("sync outcomes per asset", () => {
  test("an asset without assignment is skipped; an unknown asset fails; results keep request order", async () => {
    const manual = seedPricedAsset(dataDir).assetId;
    const body = await sync([{ asset_id: manual, date_range: { start: "resume", end: "2024-12-31" } }, { asset_id: 999_001, date_range: { start: "min", end: "2024-12-31" } }]);
    expect(body.results.map((r: any) => [r.asset_id, r.status])).toEqual([[manual, "skipped"], [999_001, "failed"]]);
    expect(body.errors).toEqual([]);
  });

  test("a provider failure is a failed item with its error, never an HTTP error", async () => {
    const { assetId } = seedPricedAsset(dataDir, { symbol: "BROKEN" });
    env.upstream.failures.set("BROKEN", 500);
    const result = await syncOne(assetId, "min");
    expect(result).toMatchObject({ status: "failed", provider_used: "fakequotes", points_changed: 0 });
    expect(result.errors.length).toBeGreaterThan(0);
    expect(prices(assetId)).toEqual([]);
  });

  test("provider history answers are cached in asset_history_fetch (a second sync does not call out)", async () => {
    const { assetId } = seedPricedAsset(dataDir, { symbol: "HCACHE" });
    history("HCACHE", days(1, 3));
    await syncOne(assetId, "2024-01-01");
    await syncOne(assetId, "2024-01-01");
    expect([env.upstream.hits.get("history:HCACHE"), env.upstream.hits.get("events:HCACHE")]).toEqual([1, 1]);
  });

  test("the sync sets the assignment's last fetch time", async () => {
    const { assetId, assignmentId } = seedPricedAsset(dataDir, { symbol: "FETCHED" });
    history("FETCHED", days(1, 2));
    await syncOne(assetId, "2024-01-01");
    const [row] = queryDb<{ last_fetch_at: string | null }>(dataDir, `SELECT last_fetch_at FROM asset_provider_assignments WHERE id = ?`, assignmentId);
    expect(row!.last_fetch_at).not.toBeNull();
  });

  test("start must be a date, min or resume, and a date start not after end (422)", async () => {
    const res = await env.c.post("/assets/prices/sync", [{ asset_id: 1, date_range: { start: "latest", end: "2024-01-01" } }]);
    expect(res.status).toBe(422);
    const backwards = await env.c.post("/assets/prices/sync", [{ asset_id: 1, date_range: { start: "2024-02-01", end: "2024-01-01" } }]);
    expect(backwards.status).toBe(422);
  });
});
