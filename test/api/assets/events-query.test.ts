import { beforeAll, describe, expect, test } from "bun:test";
import { ApiClient, expectError } from "../../helpers/client.ts";
import { queryDb, seedAsset, seedAssetEvent } from "../../helpers/seed.ts";
import { type TestServer, useApi } from "../../helpers/server.ts";

const api = useApi();
let server: TestServer;
let c: ApiClient;
let assetId = 0;
const ids: Record<string, number> = {};

beforeAll(async () => {
  server = api.server;
  c = new ApiClient(server.base);
  await c.signUp("reader");
  assetId = seedAsset(server.dataDir, { name: "Query asset", currency: "EUR" });
  const seed = (date: string, type: string, value: string, providerAssignmentId: number | null = null) =>
    seedAssetEvent(server.dataDir, { assetId, date, type, value, currency: "EUR", providerAssignmentId });
  ids.late = seed("2024-06-01", "DIVIDEND", "0.75");
  ids.auto = seed("2024-03-01", "DIVIDEND", "0.5", 11);
  ids.split = seed("2024-03-01", "SPLIT", "2");
  ids.outside = seed("2023-12-31", "INTEREST", "1");
  queryDb(server.dataDir, "UPDATE asset_events SET notes = 'manual note' WHERE id = ?", ids.split);
});

const query = async (body: unknown) => {
  const res = await c.post("/assets/events/query", body);
  expect(res.status).toBe(200);
  return res.json();
};

describe("POST /assets/events/query", () => {
  test("events within the inclusive range, by date then id, with value {code, amount}, is_auto and no original_value", async () => {
    const body = await query([{ asset_id: assetId, date_range: { start: "2024-01-01", end: "2024-06-01" } }]);
    expect(body).toEqual({
      items: [{
        asset_id: assetId,
        errors: [],
        events: [
          { id: ids.auto, date: "2024-03-01", type: "DIVIDEND", value: { code: "EUR", amount: "0.5" }, notes: null, is_auto: true },
          { id: ids.split, date: "2024-03-01", type: "SPLIT", value: { code: "EUR", amount: "2" }, notes: "manual note", is_auto: false },
          { id: ids.late, date: "2024-06-01", type: "DIVIDEND", value: { code: "EUR", amount: "0.75" }, notes: null, is_auto: false },
        ],
      }],
    });
  });

  test("a range without end is the start day only", async () => {
    const [item] = (await query([{ asset_id: assetId, date_range: { start: "2023-12-31" } }])).items;
    expect(item.events.map((e: { id: number }) => e.id)).toEqual([ids.outside]);
  });

  test("an unknown asset answers in its item's errors", async () => {
    expect((await query([{ asset_id: 424_242, date_range: { start: "2024-01-01" } }])).items)
      .toEqual([{ asset_id: 424_242, events: [], errors: ["Asset 424242 not found"] }]);
  });

  test("a target currency without an FX conversion keeps the stored values, omits original_value and says so in errors", async () => {
    const [item] = (await query([{ asset_id: assetId, date_range: { start: "2024-06-01" }, target_currency: "USD" }])).items;
    expect(item.events).toEqual([{ id: ids.late, date: "2024-06-01", type: "DIVIDEND", value: { code: "EUR", amount: "0.75" }, notes: null, is_auto: false }]);
    expect(item.errors).toEqual([expect.stringContaining("EUR to USD")]);
  });

  test("an end before the start is a 422", async () => {
    await expectError(await c.post("/assets/events/query", [{ asset_id: assetId, date_range: { start: "2024-02-01", end: "2024-01-01" } }]), 422, "VALIDATION_ERROR");
  });
});

describe("GET /assets/events?ids=", () => {
  test("events by id in request order with their asset; unknown ids skipped", async () => {
    const res = await c.get(`/assets/events?ids=${ids.late}&ids=999999&ids=${ids.auto}`);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.items.map((e: { id: number; asset_id: number; is_auto: boolean }) => [e.id, e.asset_id, e.is_auto]))
      .toEqual([[ids.late, assetId, false], [ids.auto, assetId, true]]);
  });

  test("a single id works too; the session is required", async () => {
    expect((await (await c.get(`/assets/events?ids=${ids.split}`)).json()).items[0].type).toBe("SPLIT");
    await expectError(await new ApiClient(server.base).get(`/assets/events?ids=${ids.split}`), 401);
  });
});
