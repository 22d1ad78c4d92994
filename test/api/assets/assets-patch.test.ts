import { beforeAll, describe, expect, test } from "bun:test";
import { ApiClient, expectError } from "../../helpers/client.ts";
import { seedAssetEvent } from "../../helpers/seed.ts";
import { type TestServer, useApi } from "../../helpers/server.ts";
import { createAsset, seedPrice, uniqueName } from "./assets-helpers.ts";

const api = useApi();
let server: TestServer;
let c: ApiClient;

beforeAll(async () => {
  server = api.server;
  c = new ApiClient(server.base);
  await c.signUp("patcher");
});

const read = async (id: number) => (await c.get(`/assets/${id}`)).json();

describe("PATCH /assets: absent key keeps, null clears", () => {
  test("only sent keys change, null clears, and updated_fields lists each change as {info, old, new}", async () => {
    const id = await createAsset(c, { asset_type: "STOCK", icon_url: "https://x/i.png", identifier_ticker: "OLD", identifier_other: ["A", "B"] });
    const name = uniqueName("Renamed");
    const res = await c.patch("/assets", [{ asset_id: id, name, icon_url: null, identifier_ticker: "NEW", identifier_other: null }]);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.success_count).toBe(1);
    expect(body.results[0].updated_fields).toEqual([
      { info: "icon_url", old: "https://x/i.png", new: null },
      { info: "identifier_other", old: ["A", "B"], new: null },
      { info: "identifier_ticker", old: "OLD", new: "NEW" },
      { info: "name", old: expect.any(String), new: name },
    ]);
    expect(await read(id)).toMatchObject({ name, icon_url: null, identifier_ticker: "NEW", identifier_other: null, asset_type: "STOCK", currency: "EUR" });
  });

  test("an unchanged value is not reported; an empty patch changes nothing", async () => {
    const id = await createAsset(c, { asset_type: "ETF" });
    const body = await (await c.patch("/assets", [{ asset_id: id, asset_type: "ETF" }, { asset_id: id }])).json();
    expect(body.results.map((r: any) => [r.success, r.updated_fields])).toEqual([[true, []], [true, []]]);
  });

  test("archiving is active: false", async () => {
    const id = await createAsset(c);
    await c.patch("/assets", [{ asset_id: id, active: false }]);
    expect((await read(id)).active).toBe(false);
  });

  test("a name taken by another asset (ignoring case) and an unknown id are refused per item; the others apply", async () => {
    const taken = uniqueName("Taken");
    await createAsset(c, { name: taken });
    const id = await createAsset(c);
    const body = await (await c.patch("/assets", [
      { asset_id: id, name: taken.toLowerCase() }, { asset_id: 999999, name: "x" }, { asset_id: id, asset_type: "FUND" },
    ])).json();
    expect(body.results.map((r: any) => [r.success, r.code ?? null])).toEqual([[false, "ASSET_NAME_TAKEN"], [false, "ASSET_NOT_FOUND"], [true, null]]);
    expect(body.success_count).toBe(1);
  });

  test("renaming an asset to another spelling of its own name is allowed", async () => {
    const name = uniqueName("case");
    const id = await createAsset(c, { name });
    const body = await (await c.patch("/assets", [{ asset_id: id, name: name.toUpperCase() }])).json();
    expect(body.results[0].success).toBe(true);
  });

  test("null on a required field (name, currency, active) is 422", async () => {
    const id = await createAsset(c);
    for (const field of ["name", "currency", "active"]) {
      await expectError(await c.patch("/assets", [{ asset_id: id, [field]: null }]), 422, "VALIDATION_ERROR");
    }
    await expectError(await c.patch("/assets", [{ name: "no id" }]), 422, "VALIDATION_ERROR");
  });
});

describe("PATCH /assets: currency change over market data", () => {
  test("a currency change is refused per item (CURRENCY_CHANGE_BLOCKED_BY_MARKET_DATA) while prices or events exist", async () => {
    const withPrices = await createAsset(c);
    const withEvents = await createAsset(c);
    const bare = await createAsset(c);
    seedPrice(server.dataDir, { assetId: withPrices, date: "2024-01-02", close: "10" });
    seedAssetEvent(server.dataDir, { assetId: withEvents, date: "2024-01-02", type: "DIVIDEND", value: "1", currency: "EUR" });
    const res = await c.patch("/assets", [
      { asset_id: withPrices, currency: "USD" }, { asset_id: withEvents, currency: "USD" }, { asset_id: bare, currency: "USD" },
    ]);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.results.map((r: any) => r.code ?? "ok")).toEqual(["CURRENCY_CHANGE_BLOCKED_BY_MARKET_DATA", "CURRENCY_CHANGE_BLOCKED_BY_MARKET_DATA", "ok"]);
    expect((await read(withPrices)).currency).toBe("EUR");
    expect((await read(bare)).currency).toBe("USD");
    const summary = await (await c.get(`/assets/${withPrices}/market-data/summary`)).json();
    expect(summary).toEqual({
      asset_id: withPrices, price_count: 1, first_price_date: "2024-01-02", last_price_date: "2024-01-02",
      event_count: 0, manual_event_count: 0, provider_event_count: 0, linked_transaction_count: 0,
    });
  });

  test("409 only when every item failed that way, with the per-item results in params", async () => {
    const id = await createAsset(c);
    seedPrice(server.dataDir, { assetId: id, date: "2024-01-02", close: "10" });
    const body = await expectError(await c.patch("/assets", [{ asset_id: id, currency: "USD" }]), 409, "CURRENCY_CHANGE_BLOCKED_BY_MARKET_DATA");
    expect(body.params.results[0]).toMatchObject({ asset_id: id, success: false, code: "CURRENCY_CHANGE_BLOCKED_BY_MARKET_DATA" });
    const same = await c.patch("/assets", [{ asset_id: id, currency: "EUR" }]);
    expect(same.status).toBe(200);
  });
});
