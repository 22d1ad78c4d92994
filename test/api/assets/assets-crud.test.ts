import { beforeAll, describe, expect, test } from "bun:test";
import { ApiClient, expectError } from "../../helpers/client.ts";
import { queryDb, seedAssetEvent, seedTransactions } from "../../helpers/seed.ts";
import { type TestServer, useApi } from "../../helpers/server.ts";
import { createBroker } from "../brokers/helpers.ts";
import { createAsset, createAssets, seedPrice, uniqueName } from "./assets-helpers.ts";

const api = useApi();
let server: TestServer;
let alice: ApiClient;
let bob: ApiClient;

beforeAll(async () => {
  server = api.server;
  alice = new ApiClient(server.base);
  bob = new ApiClient(server.base);
  await alice.signUp("alice");
  await bob.signUp("bob");
});

describe("POST /assets: bulk create", () => {
  test("answers 201 with one result per item and stores every field as sent", async () => {
    const name = `<b onclick="x()">Apple & Co</b> ${uniqueName()}`;
    const res = await alice.post("/assets", [{
      name, currency: "usd", asset_type: "STOCK", icon_url: "https://x/icon.png", user_url: "javascript:alert(1)",
      identifier_isin: "us0378331005", identifier_ticker: "AAPL", identifier_other: ["APC.DE"], quote_base_quantity: "100",
    }]);
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body).toEqual({ results: [{ asset_id: expect.any(Number), success: true, message: "Asset created", name }], success_count: 1, errors: [] });
    const read = await (await alice.get(`/assets/${body.results[0].asset_id}`)).json();
    expect(read).toMatchObject({
      name, currency: "USD", asset_type: "STOCK", icon_url: "https://x/icon.png", user_url: "javascript:alert(1)",
      identifier_isin: "US0378331005", identifier_ticker: "AAPL", identifier_other: ["APC.DE"], quote_base_quantity: "100",
      active: true, provider_code: null, classification_params: null,
    });
  });

  test("a name already used by another asset, ignoring case, is refused per item (ASSET_NAME_TAKEN) and the rest is created", async () => {
    const name = uniqueName("Dup");
    const res = await alice.post("/assets", [
      { name, currency: "EUR" }, { name: name.toUpperCase(), currency: "EUR" }, { name: `${name} other`, currency: "EUR" },
    ]);
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body.results.map((r: any) => [r.success, r.code ?? null])).toEqual([[true, null], [false, "ASSET_NAME_TAKEN"], [true, null]]);
    expect(body.results[1].asset_id).toBeNull();
    expect(body.success_count).toBe(2);
    const again = await (await bob.post("/assets", [{ name: name.toLowerCase(), currency: "USD" }])).json();
    expect(again.results[0]).toMatchObject({ success: false, code: "ASSET_NAME_TAKEN" });
  });

  test("concurrent creates of one name leave exactly one asset with it", async () => {
    const name = uniqueName("Race");
    const bodies = await Promise.all([alice, bob, alice, bob, alice].map(async (c, i) =>
      (await c.post("/assets", [{ name: i % 2 ? name.toUpperCase() : name, currency: "EUR" }])).json()));
    expect(bodies.filter((b) => b.results[0].success)).toHaveLength(1);
    expect(queryDb(server.dataDir, "SELECT id FROM assets WHERE lower(name) = lower(?)", name)).toHaveLength(1);
  });

  test("zero or negative quote_base_quantity means 1", async () => {
    const id = await createAsset(alice, { quote_base_quantity: "-5" });
    expect((await (await alice.get(`/assets/${id}`)).json()).quote_base_quantity).toBe("1");
  });

  test("quote_base_quantity as a JSON number is read in fixed notation and range-checked: 1e-25 and 1e20 are 422, nothing stored", async () => {
    const limit = "outside the supported range of quantities";
    const count = () => queryDb<{ n: number }>(server.dataDir, "SELECT count(*) AS n FROM assets")[0]!.n;
    const before = count();
    for (const value of [1e-25, 1e20]) {
      const name = uniqueName("Tiny base");
      const body = await expectError(await alice.post("/assets", [{ name, currency: "EUR", quote_base_quantity: value }]), 422, "VALIDATION_ERROR");
      expect(body.detail).toEqual([expect.objectContaining({ loc: ["body", 0, "quote_base_quantity"], msg: expect.stringContaining(limit) })]);
    }
    expect(count()).toBe(before);
    const id = await createAsset(alice, { quote_base_quantity: "100" });
    const patched = await alice.patch("/assets", [{ asset_id: id, quote_base_quantity: 1e-25 }]);
    expect((await expectError(patched, 422, "VALIDATION_ERROR")).detail[0].loc).toEqual(["body", 0, "quote_base_quantity"]);
    expect(queryDb<any>(server.dataDir, "SELECT quote_base_quantity AS q FROM assets WHERE id = ?", id)).toEqual([{ q: "100" }]);
  });

  test("quote_base_quantity as a decimal string or a plain JSON number is stored as a decimal string and read back", async () => {
    const fromString = await createAsset(alice, { quote_base_quantity: "0.000000000000000001" });
    expect((await (await alice.get(`/assets/${fromString}`)).json()).quote_base_quantity).toBe("0.000000000000000001");
    const fromNumber = await createAsset(alice, { quote_base_quantity: 1e-7 });
    expect((await (await alice.get(`/assets/${fromNumber}`)).json()).quote_base_quantity).toBe("0.0000001");
    expect((await alice.patch("/assets", [{ asset_id: fromNumber, quote_base_quantity: 100 }])).status).toBe(200);
    expect((await (await alice.get(`/assets/${fromNumber}`)).json()).quote_base_quantity).toBe("100");
  });

  test("malformed bodies are 422: missing currency, unknown key, bad ISIN, unknown type, empty list, null name", async () => {
    for (const body of [
      [{ name: "No currency" }],
      [{ name: "Extra", currency: "EUR", display_name: "x" }],
      [{ name: "Bad isin", currency: "EUR", identifier_isin: "US03" }],
      [{ name: "Bad type", currency: "EUR", asset_type: "SHARE" }],
      [],
      [{ name: null, currency: "EUR" }],
      [{ name: "", currency: "EUR" }],
      { name: "Not a list", currency: "EUR" },
    ]) {
      await expectError(await alice.post("/assets", body), 422, "VALIDATION_ERROR");
    }
  });

  test("every route needs a session", async () => {
    await expectError(await fetch(`${server.base}/assets/all`), 401, "NOT_AUTHENTICATED");
    await expectError(await fetch(`${server.base}/assets`, { method: "POST", body: "[]", headers: { "content-type": "application/json" } }), 401);
  });
});

describe("reading assets (global: every user sees every asset)", () => {
  test("GET /assets?asset_ids= answers in request order and skips unknown ids", async () => {
    const [a, b] = await createAssets(alice, [{ name: uniqueName(), currency: "EUR" }, { name: uniqueName(), currency: "USD" }]);
    const res = await bob.get(`/assets?asset_ids=${b}&asset_ids=999999&asset_ids=${a}`);
    expect(res.status).toBe(200);
    expect((await res.json()).map((x: any) => x.asset_id)).toEqual([b, a]);
    expect((await (await bob.get(`/assets?asset_ids=${a},${b}`)).json()).map((x: any) => x.asset_id)).toEqual([a, b]);
    await expectError(await bob.get("/assets"), 422);
  });

  test("GET /assets/{id} is 404 ASSET_NOT_FOUND for an unknown id", async () => {
    await expectError(await alice.get("/assets/999999"), 404, "ASSET_NOT_FOUND");
  });

  test("GET /assets/all lists active assets only, with transaction counts overall and in the caller's brokers", async () => {
    const active = await createAsset(alice);
    const archived = await createAsset(alice, { active: false });
    const broker = await createBroker(alice, uniqueName("Broker"));
    seedTransactions(server.dataDir, [{ brokerId: broker, type: "BUY", date: "2024-01-02", quantity: "1", amount: "-10", currency: "EUR", assetId: active }]);
    const list = await (await bob.get("/assets/all")).json();
    const ids = list.map((x: any) => x.id);
    expect(ids).toContain(active);
    expect(ids).not.toContain(archived);
    expect(list.find((x: any) => x.id === active)).toMatchObject({ tx_count: 1, tx_count_own: 0, has_metadata: false, provider_code: null });
    const own = (await (await alice.get("/assets/all")).json()).find((x: any) => x.id === active);
    expect(own).toMatchObject({ tx_count: 1, tx_count_own: 1 });
  });
});

describe("DELETE /assets?asset_ids=", () => {
  test("an asset used by a transaction is kept and reported HAS_TRANSACTIONS; the others are deleted", async () => {
    const [used, free] = await createAssets(alice, [{ name: uniqueName(), currency: "EUR" }, { name: uniqueName(), currency: "EUR" }]);
    const broker = await createBroker(alice, uniqueName("Broker"));
    seedTransactions(server.dataDir, [{ brokerId: broker, type: "BUY", date: "2024-01-02", quantity: "1", amount: "-10", currency: "EUR", assetId: used }]);
    // alice created both, so she keeps them (bob would be refused: asset-keepers.test.ts)
    const res = await alice.delete(`/assets?asset_ids=${used}&asset_ids=${free}&asset_ids=999999`);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.results.map((r: any) => [r.asset_id, r.success, r.code ?? null])).toEqual([
      [used, false, "HAS_TRANSACTIONS"], [free, true, null], [999999, false, "ASSET_NOT_FOUND"],
    ]);
    expect(body).toMatchObject({ success_count: 1, total_deleted: 1, errors: [] });
    expect((await alice.get(`/assets/${used}`)).status).toBe(200);
    expect((await alice.get(`/assets/${free}`)).status).toBe(404);
  });

  test("deleting an asset deletes its events and prices with it", async () => {
    const id = await createAsset(alice);
    seedAssetEvent(server.dataDir, { assetId: id, date: "2024-03-01", type: "DIVIDEND", value: "1", currency: "EUR" });
    seedPrice(server.dataDir, { assetId: id, date: "2024-03-01", close: "10" });
    expect((await (await alice.delete(`/assets?asset_ids=${id}`)).json()).success_count).toBe(1);
    expect(queryDb(server.dataDir, "SELECT id FROM asset_events WHERE asset_id = ?", id)).toEqual([]);
    expect(queryDb(server.dataDir, "SELECT date FROM price_history WHERE asset_id = ?", id)).toEqual([]);
  });
});
