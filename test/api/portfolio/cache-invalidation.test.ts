import { beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { ApiClient } from "../../helpers/client.ts";
import { seedAssetEvent } from "../../helpers/seed.ts";
import { type TestServer, useApi } from "../../helpers/server.ts";
import { buy, commit, commitOk, createAsset, looseBroker } from "../transactions/fixtures.ts";

const api = useApi();
let server: TestServer;
let c: ApiClient;
let other: ApiClient;
let otherId = 0;
let broker = 0;
let asset = 0;

beforeAll(async () => {
  server = api.server;
  c = new ApiClient(server.base);
  await c.signUp("invalidator");
  other = new ApiClient(server.base);
  otherId = (await other.signUp("colleague")).id;
  broker = await looseBroker(c, "Cached");
  asset = createAsset(server.dataDir);
  await commitOk(c, { creates: [buy(broker, asset, "2", "-20", "2024-01-02")] });
});

async function wacCacheSize(): Promise<number> {
  const status = await (await c.get("/settings/cache/status")).json();
  return status.items.find((i: any) => i.name === "portfolio_wac")?.current_size ?? 0;
}

/** Fills `portfolio_wac` with one /portfolio/wac answer. */
beforeEach(async () => {
  expect((await c.post("/portfolio/wac", { queries: [{ broker_id: broker, asset_id: asset }] })).status).toBe(200);
  expect(await wacCacheSize()).toBe(1);
});

const ok = (res: Response) => expect(res.status).toBe(200);

describe("every write that can change a portfolio result empties portfolio_wac", () => {
  test("a transaction commit", async () => {
    await commitOk(c, { creates: [buy(broker, asset, "1", "-10", "2024-01-03")] });
    expect(await wacCacheSize()).toBe(0);
  });

  test("a price upsert", async () => {
    ok(await c.post("/assets/prices", [{ asset_id: asset, prices: [{ date: "2024-01-02", close: "11" }] }]));
    expect(await wacCacheSize()).toBe(0);
  });

  test("a price delete", async () => {
    ok(await c.request("DELETE", "/assets/prices", [{ asset_id: asset, date_ranges: [{ start: "2024-01-02" }] }]));
    expect(await wacCacheSize()).toBe(0);
  });

  test("an event upsert", async () => {
    ok(await c.post("/assets/events", [{ asset_id: asset, events: [{ date: "2024-01-05", type: "DIVIDEND", value: { code: "EUR", amount: "1" } }] }]));
    expect(await wacCacheSize()).toBe(0);
  });

  test("an event delete", async () => {
    const id = seedAssetEvent(server.dataDir, { assetId: asset, date: "2024-01-06", type: "DIVIDEND", value: "1", currency: "EUR" });
    const res = await c.delete(`/assets/events?ids=${id}`);
    ok(res);
    expect((await res.json()).deleted_count).toBe(1);
    expect(await wacCacheSize()).toBe(0);
  });

  test("an asset patch", async () => {
    ok(await c.patch("/assets", [{ asset_id: asset, identifier_ticker: `T${Date.now()}` }]));
    expect(await wacCacheSize()).toBe(0);
  });

  test("an access change", async () => {
    expect((await c.post(`/brokers/${broker}/access`, { user_id: otherId, role: "VIEWER" })).status).toBe(201);
    expect(await wacCacheSize()).toBe(0);
  });

  test("an FX manual rate", async () => {
    ok(await c.post("/fx/currencies/rate", [{ date: "2024-01-02", base: "EUR", quote: "USD", rate: "1.1" }]));
    expect(await wacCacheSize()).toBe(0);
  });

  test("a refused (rolled back) commit leaves it filled", async () => {
    const out = await commit(c, { creates: [{ broker_id: broker, asset_id: asset, type: "ADJUSTMENT", date: "2024-01-04", quantity: "1" }] });
    expect(out.committed).toBe(false);
    expect(await wacCacheSize()).toBe(1);
  });

  test("a read leaves it filled", async () => {
    ok(await c.get(`/transactions?broker_id=${broker}`));
    expect(await wacCacheSize()).toBe(1);
  });
});
