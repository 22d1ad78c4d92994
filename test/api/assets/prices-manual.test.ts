import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { expectError } from "../../helpers/client.ts";
import { queryDb, seedAssetEvent, seedTransactions } from "../../helpers/seed.ts";
import { createBroker } from "../transactions/fixtures.ts";
import { type PricesEnv, postJson, seedPricedAsset, startPricesEnv } from "./prices-fixtures.ts";

let env: PricesEnv;
let dataDir = "";
const asset = (currency = "EUR") => seedPricedAsset(dataDir, { currency }).assetId;
const upsert = (body: unknown, status = 200) => postJson(env.c, "/assets/prices", body, status);
const query = async (assetId: number, start: string, end: string, extra: Record<string, unknown> = {}) =>
  (await postJson(env.c, "/assets/prices/query", [{ asset_id: assetId, date_range: { start, end }, ...extra }])).items[0];
const stored = (assetId: number) =>
  queryDb<Record<string, unknown>>(dataDir, `SELECT date, open, high, low, close, volume, currency, source_plugin_key, provider_assignment_id
    FROM price_history WHERE asset_id = ? ORDER BY date`, assetId);

beforeAll(async () => {
  env = await startPricesEnv();
  dataDir = env.server.dataDir;
});
afterAll(() => env.stop());

describe("POST /assets/prices stores manual prices", () => {
  test("inserted and updated rows are counted; rows are manual, in the asset's currency, decimals kept exactly", async () => {
    const a = asset("USD");
    const first = await upsert([{ asset_id: a, prices: [
      { date: "2024-01-03", close: "101.250", open: "100", high: "102.5", low: "99.75", volume: "1200" },
      { date: "2024-01-02", close: "0.1" },
    ] }]);
    expect(first).toEqual({ results: [{ asset_id: a, count: 2, message: expect.any(String) }], success_count: 1, errors: [], inserted_count: 2, updated_count: 0 });
    const second = await upsert([{ asset_id: a, prices: [{ date: "2024-01-02", close: "0.2" }, { date: "2024-01-04", close: 3 }] }]);
    expect([second.inserted_count, second.updated_count]).toEqual([1, 1]);
    expect(stored(a)).toEqual([
      { date: "2024-01-02", open: null, high: null, low: null, close: "0.2", volume: null, currency: "USD", source_plugin_key: "manual", provider_assignment_id: null },
      { date: "2024-01-03", open: "100", high: "102.5", low: "99.75", close: "101.250", volume: "1200", currency: "USD", source_plugin_key: "manual", provider_assignment_id: null },
      { date: "2024-01-04", open: null, high: null, low: null, close: "3", volume: null, currency: "USD", source_plugin_key: "manual", provider_assignment_id: null },
    ]);
  });

  test("a JSON number is stored from its shortest form (0.1 stays \"0.1\")", async () => {
    const a = asset();
    await upsert([{ asset_id: a, prices: [{ date: "2024-02-01", close: 0.1, high: 0.30000000000000004 }] }]);
    expect(stored(a)[0]).toMatchObject({ close: "0.1", high: "0.30000000000000004" });
  });

  test("volume: absent or null keeps the stored volume, -1 clears it, 0 or more is written", async () => {
    const a = asset();
    await upsert([{ asset_id: a, prices: [{ date: "2024-01-02", close: "1", volume: "500" }] }]);
    await upsert([{ asset_id: a, prices: [{ date: "2024-01-02", close: "2" }] }]);
    expect(stored(a)[0]!.volume).toBe("500");
    await upsert([{ asset_id: a, prices: [{ date: "2024-01-02", close: "2", volume: null }] }]);
    expect(stored(a)[0]!.volume).toBe("500");
    await upsert([{ asset_id: a, prices: [{ date: "2024-01-02", close: "2", volume: -1 }] }]);
    expect(stored(a)[0]!.volume).toBeNull();
  });

  test("close is required and must be greater than 0 (422)", async () => {
    const a = asset();
    for (const point of [{ date: "2024-01-02" }, { date: "2024-01-02", close: "0" }, { date: "2024-01-02", close: "-1" },
      { date: "2024-01-02", close: "1e3" }, { date: "2024-02-30", close: "1" }]) {
      await expectError(await env.c.post("/assets/prices", [{ asset_id: a, prices: [point] }]), 422, "VALIDATION_ERROR");
    }
    expect(stored(a)).toEqual([]);
  });

  test("a currency other than the asset's refuses the whole request with 400 PRICE_CURRENCY_MISMATCH", async () => {
    const a = asset("EUR");
    const b = asset("EUR");
    const res = await env.c.post("/assets/prices", [
      { asset_id: a, prices: [{ date: "2024-01-02", close: "1", currency: "EUR" }] },
      { asset_id: b, prices: [{ date: "2024-01-02", close: "1", currency: "USD" }] },
    ]);
    await expectError(res, 400, "PRICE_CURRENCY_MISMATCH");
    expect([...stored(a), ...stored(b)]).toEqual([]);
    await upsert([{ asset_id: a, prices: [{ date: "2024-01-02", close: "1", currency: "eur" }] }]);
    expect(stored(a)).toHaveLength(1);
  });

  test("an unknown asset is a per-item error; the other items are stored", async () => {
    const a = asset();
    const body = await upsert([{ asset_id: 987_654, prices: [{ date: "2024-01-02", close: "1" }] }, { asset_id: a, prices: [{ date: "2024-01-02", close: "1" }] }]);
    expect(body.results[0]).toEqual({ asset_id: 987_654, count: 0, message: "Asset not found" });
    expect(body.success_count).toBe(1);
    expect(stored(a)).toHaveLength(1);
  });
});

describe("DELETE /assets/prices deletes by date ranges (JSON body)", () => {
  test("inclusive ranges; an absent end is the single start day; counts per asset and in total", async () => {
    const a = asset();
    await upsert([{ asset_id: a, prices: ["01", "02", "03", "04", "05", "06"].map((d) => ({ date: `2024-03-${d}`, close: "1" })) }]);
    const res = await env.c.request("DELETE", "/assets/prices", [
      { asset_id: a, date_ranges: [{ start: "2024-03-02", end: "2024-03-03" }, { start: "2024-03-05" }] },
      { asset_id: 987_655, date_ranges: [{ start: "2024-03-01" }] },
    ]);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.results[0]).toMatchObject({ asset_id: a, success: true, deleted_count: 3 });
    expect(body.results[1]).toMatchObject({ asset_id: 987_655, success: false, deleted_count: 0, message: "Asset not found" });
    expect([body.success_count, body.total_deleted]).toEqual([1, 3]);
    expect(stored(a).map((r) => r.date)).toEqual(["2024-03-01", "2024-03-04", "2024-03-06"]);
  });

  test("an end before the start is refused (422)", async () => {
    await expectError(await env.c.request("DELETE", "/assets/prices", [{ asset_id: 1, date_ranges: [{ start: "2024-03-02", end: "2024-03-01" }] }]), 422);
  });
});

describe("POST /assets/prices/query", () => {
  test("prices of the range ascending by date, decimals as strings; events with is_auto on request", async () => {
    const a = asset();
    await upsert([{ asset_id: a, prices: [{ date: "2024-04-03", close: "3.30" }, { date: "2024-04-01", close: "1.10" }, { date: "2024-05-01", close: "9" }] }]);
    const manual = seedAssetEvent(dataDir, { assetId: a, date: "2024-04-02", type: "DIVIDEND", value: "0.25", currency: "EUR" });
    const auto = seedAssetEvent(dataDir, { assetId: a, date: "2024-04-02", type: "SPLIT", value: "4", currency: "EUR", providerAssignmentId: 77 });
    seedAssetEvent(dataDir, { assetId: a, date: "2024-06-01", type: "DIVIDEND", value: "1", currency: "EUR" });
    const item = await query(a, "2024-04-01", "2024-04-30", { include_events: true });
    expect(item.prices.map((p: any) => [p.date, p.close, p.source_plugin_key])).toEqual([["2024-04-01", "1.10", "manual"], ["2024-04-03", "3.30", "manual"]]);
    expect(item.events).toEqual([
      { id: manual, date: "2024-04-02", type: "DIVIDEND", value: { code: "EUR", amount: "0.25" }, notes: null, is_auto: false },
      { id: auto, date: "2024-04-02", type: "SPLIT", value: { code: "EUR", amount: "4" }, notes: null, is_auto: true },
    ]);
    expect((await query(a, "2024-04-01", "2024-04-30")).events).toEqual([]);
    expect((await query(a, "2024-04-01", "2024-04-30", { include_prices: false, include_events: true })).prices).toEqual([]);
  });

  test("an unknown asset answers an item with the error and nothing else", async () => {
    expect(await query(987_656, "2024-01-01", "2024-12-31")).toEqual({ asset_id: 987_656, prices: [], events: [], errors: ["Asset not found"] });
  });
});

describe("POST /assets/{asset_id}/market-data/wipe", () => {
  test("deletes every price and every event (manual included) after unlinking transactions, in one write", async () => {
    const a = asset();
    const other = asset();
    await upsert([{ asset_id: a, prices: [{ date: "2024-01-02", close: "1" }] }, { asset_id: other, prices: [{ date: "2024-01-02", close: "1" }] }]);
    const manual = seedAssetEvent(dataDir, { assetId: a, date: "2024-01-02", type: "DIVIDEND", value: "1", currency: "EUR" });
    seedAssetEvent(dataDir, { assetId: a, date: "2024-01-03", type: "DIVIDEND", value: "1", currency: "EUR", providerAssignmentId: 5 });
    const kept = seedAssetEvent(dataDir, { assetId: other, date: "2024-01-02", type: "DIVIDEND", value: "1", currency: "EUR" });
    const broker = await createBroker(env.c, "Wipe broker");
    seedTransactions(dataDir, [
      { brokerId: broker, type: "DIVIDEND", date: "2024-01-02", amount: "1", currency: "EUR", assetId: a },
      { brokerId: broker, type: "DIVIDEND", date: "2024-01-02", amount: "1", currency: "EUR", assetId: other },
    ]);
    const [t1, t2] = queryDb<{ id: number }>(dataDir, `SELECT id FROM transactions WHERE broker_id = ? ORDER BY id`, broker).map((r) => r.id);
    queryDb(dataDir, `UPDATE transactions SET asset_event_id = ? WHERE id = ?`, manual, t1);
    queryDb(dataDir, `UPDATE transactions SET asset_event_id = ? WHERE id = ?`, kept, t2);

    const body = await postJson(env.c, `/assets/${a}/market-data/wipe`, undefined);
    expect(body).toMatchObject({ asset_id: a, prices_deleted: 1, events_deleted: 2, transactions_unlinked: 1 });
    expect(stored(a)).toEqual([]);
    expect(queryDb(dataDir, `SELECT id FROM asset_events WHERE asset_id = ?`, a)).toEqual([]);
    expect(queryDb(dataDir, `SELECT id, asset_event_id FROM transactions WHERE id IN (?, ?) ORDER BY id`, t1, t2))
      .toEqual([{ id: t1, asset_event_id: null }, { id: t2, asset_event_id: kept }]);
    expect(stored(other)).toHaveLength(1);
  });

  test("an unknown asset is 404 ASSET_NOT_FOUND", async () => {
    await expectError(await env.c.post("/assets/987657/market-data/wipe"), 404, "ASSET_NOT_FOUND");
  });
});
