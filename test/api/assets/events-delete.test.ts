import { beforeAll, describe, expect, test } from "bun:test";
import { ApiClient, expectError } from "../../helpers/client.ts";
import { queryDb, seedAsset, seedAssetEvent } from "../../helpers/seed.ts";
import { type TestServer, useApi } from "../../helpers/server.ts";
import { looseBroker } from "../transactions/fixtures.ts";

const api = useApi();
let server: TestServer;
let c: ApiClient;
let broker = 0;
let assetId = 0;

beforeAll(async () => {
  server = api.server;
  c = new ApiClient(server.base);
  await c.signUp("deleter");
  broker = await looseBroker(c, "Deletes");
  assetId = seedAsset(server.dataDir, { name: "Delete asset", currency: "EUR" });
});

const manual = (date = "2024-01-01") => seedAssetEvent(server.dataDir, { assetId, date, type: "DIVIDEND", value: "1", currency: "EUR" });
const exists = (id: number) => queryDb(server.dataDir, "SELECT id FROM asset_events WHERE id = ?", id).length === 1;
const link = (eventId: number) => queryDb(server.dataDir, `INSERT INTO transactions (broker_id, type, date, quantity, amount, currency, asset_id, asset_event_id)
  VALUES (?, 'DIVIDEND', '2024-01-01', '0', '1', 'EUR', ?, ?)`, broker, assetId, eventId);
const del = async (ids: number[]) => {
  const res = await c.delete(`/assets/events?${ids.map((id) => `ids=${id}`).join("&")}`);
  expect(res.status).toBe(200);
  return res.json();
};

describe("DELETE /assets/events deletes manual events", () => {
  test("a manual event without transactions is deleted", async () => {
    const id = manual();
    expect(await del([id])).toEqual({ results: [{ event_id: id, status: "deleted" }], deleted_count: 1, not_found_count: 0, in_use_count: 0 });
    expect(exists(id)).toBe(false);
  });

  test("an event used by a transaction is reported as in_use and kept", async () => {
    const id = manual();
    link(id);
    const body = await del([id]);
    expect(body.results).toEqual([{ event_id: id, status: "in_use", message: expect.any(String) }]);
    expect(body.in_use_count).toBe(1);
    expect(exists(id)).toBe(true);
  });

  test("an unknown id is not_found", async () => {
    expect((await del([987_654])).results).toEqual([{ event_id: 987_654, status: "not_found" }]);
  });

  test("a provider event is read-only: reported not_found with a message, and kept", async () => {
    const auto = seedAssetEvent(server.dataDir, { assetId, date: "2024-01-01", type: "DIVIDEND", value: "1", currency: "EUR", providerAssignmentId: 8 });
    expect((await del([auto])).results).toEqual([{ event_id: auto, status: "not_found", message: expect.stringContaining("provider") }]);
    expect(exists(auto)).toBe(true);
  });

  test("mixed ids: one result per distinct id in request order, with the three counts", async () => {
    const [gone, used] = [manual("2024-02-01"), manual("2024-02-02")];
    link(used);
    const body = await del([gone, 555_555, used, gone]);
    expect(body.results.map((r: { event_id: number; status: string }) => [r.event_id, r.status]))
      .toEqual([[gone, "deleted"], [555_555, "not_found"], [used, "in_use"]]);
    expect([body.deleted_count, body.not_found_count, body.in_use_count]).toEqual([1, 1, 1]);
  });

  test("more than 1,000 ids are handled across slices", async () => {
    queryDb(server.dataDir, `WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < 1500)
      INSERT INTO asset_events (asset_id, date, type, value, currency) SELECT ?, '2020-01-01', 'SPLIT', '2', 'EUR' FROM k`, assetId);
    const ids = queryDb<{ id: number }>(server.dataDir, "SELECT id FROM asset_events WHERE type = 'SPLIT' AND asset_id = ? ORDER BY id", assetId).map((r) => r.id);
    const body = await del(ids);
    expect(body.deleted_count).toBe(1500);
    expect(queryDb(server.dataDir, "SELECT id FROM asset_events WHERE type = 'SPLIT' AND asset_id = ?", assetId)).toEqual([]);
  });

  test("ids are required; the session is required", async () => {
    await expectError(await c.delete("/assets/events"), 422, "VALIDATION_ERROR");
    await expectError(await c.delete("/assets/events?ids=abc"), 422, "VALIDATION_ERROR");
    await expectError(await new ApiClient(server.base).delete("/assets/events?ids=1"), 401);
  });
});
