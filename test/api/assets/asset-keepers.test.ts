import { beforeAll, describe, expect, test } from "bun:test";
import { expectError } from "../../helpers/client.ts";
import { queryDb } from "../../helpers/seed.ts";
import { useApi } from "../../helpers/server.ts";

// Shared market data that only its keepers can change (docs/assets.md). admin is the superuser; alice
// creates (keeps) an asset and holds it; bob is an ordinary user, VIEWER on alice's broker.

const api = useApi({ users: ["admin", "alice", "bob"] });
const REFUSED = "ASSET_KEEPER_OR_ADMIN_REQUIRED";
let asset = 0;
let broker = 0;
const alice = () => api.as.alice!;
const bob = () => api.as.bob!;

const prices = () => queryDb<{ date: string; close: string }>(api.dataDir, "SELECT date, close FROM price_history WHERE asset_id = ? ORDER BY date", asset);

beforeAll(async () => {
  asset = (await (await alice().post("/assets", [{ name: "Kept by alice", currency: "EUR" }])).json()).results[0].asset_id;
  broker = (await (await alice().post("/brokers", [{ name: "Alice's" }])).json()).results[0].broker_id;
  expect((await alice().post(`/brokers/${broker}/access`, { user_id: api.users.bob!.id, role: "VIEWER" })).status).toBe(201);
  const commit = await alice().post("/transactions/commit", { creates: [
    { broker_id: broker, type: "DEPOSIT", date: "2024-01-01", cash: { code: "EUR", amount: "1000" } },
    { broker_id: broker, asset_id: asset, type: "BUY", date: "2024-01-02", quantity: "10", cash: { code: "EUR", amount: "-500" } },
  ] });
  expect((await commit.json()).committed).toBe(true);
  expect((await alice().post("/assets/prices", [{ asset_id: asset, prices: [{ date: "2024-01-02", close: "50" }] }])).status).toBe(200);
});

describe("the creator is the keeper", () => {
  test("a new asset names its creator as keeper", async () => {
    expect((await (await bob().get(`/assets/${asset}`)).json()).keeper_user_id).toBe(api.users.alice!.id);
  });
});

describe("writes by someone who is neither keeper nor admin are 403 ASSET_KEEPER_OR_ADMIN_REQUIRED and change nothing", () => {
  test("posting or deleting prices", async () => {
    await expectError(await bob().post("/assets/prices", [{ asset_id: asset, prices: [{ date: "2024-01-02", close: "1" }] }]), 403, REFUSED);
    await expectError(await bob().request("DELETE", "/assets/prices", [{ asset_id: asset, date_ranges: [{ start: "2024-01-01", end: "2024-12-31" }] }]), 403, REFUSED);
    expect(prices()).toEqual([{ date: "2024-01-02", close: "50" }]);
  });

  test("renaming, reclassifying or deleting the asset; merging it", async () => {
    await expectError(await bob().patch("/assets", [{ asset_id: asset, name: "Renamed by bob" }]), 403, REFUSED);
    await expectError(await bob().delete(`/assets?asset_ids=${asset}`), 403, REFUSED);
    const own = (await (await bob().post("/assets", [{ name: "Bob's own", currency: "EUR" }])).json()).results[0].asset_id;
    await expectError(await bob().post("/assets/merge", { source_asset_id: own, target_asset_id: asset }), 403, REFUSED);
    await expectError(await bob().post("/assets/merge", { source_asset_id: asset, target_asset_id: own }), 403, REFUSED);
    expect((await (await bob().get(`/assets/${asset}`)).json()).name).toBe("Kept by alice");
  });

  test("manual events, provider assignment and removal, market-data wipe", async () => {
    const event = [{ asset_id: asset, events: [{ date: "2024-03-01", type: "DIVIDEND", value: { code: "EUR", amount: "1" } }] }];
    await expectError(await bob().post("/assets/events", event), 403, REFUSED);
    expect((await alice().post("/assets/events", event)).status).toBe(200);
    const [{ id: eventId }] = queryDb<{ id: number }>(api.dataDir, "SELECT id FROM asset_events WHERE asset_id = ?", asset);
    await expectError(await bob().delete(`/assets/events?ids=${eventId}`), 403, REFUSED);
    await expectError(await bob().post("/assets/provider", [{ asset_id: asset, provider_code: "cssscraper", identifier: "https://example.com/x", identifier_type: "URL", provider_params: { current_css_selector: "#p", currency: "EUR" } }]), 403, REFUSED);
    await expectError(await bob().delete(`/assets/provider?asset_ids=${asset}`), 403, REFUSED);
    await expectError(await bob().post(`/assets/${asset}/market-data/wipe`), 403, REFUSED);
    expect(prices().length).toBe(1);
    expect(queryDb(api.dataDir, "SELECT id FROM asset_events WHERE asset_id = ?", asset).length).toBe(1);
  });

  test("the refusal names the asset, and one refused asset refuses the whole request", async () => {
    const own = (await (await bob().post("/assets", [{ name: "Bob's second", currency: "EUR" }])).json()).results[0].asset_id;
    const body = await expectError(await bob().post("/assets/prices", [
      { asset_id: own, prices: [{ date: "2024-01-02", close: "2" }] },
      { asset_id: asset, prices: [{ date: "2024-01-02", close: "1" }] },
    ]), 403, REFUSED);
    expect(body.params).toEqual({ asset_ids: [asset], asset_names: ["Kept by alice"] });
    expect(body.detail).toContain("\"Kept by alice\"");
    expect(queryDb(api.dataDir, "SELECT 1 FROM price_history WHERE asset_id = ?", own)).toEqual([]);
  });
});

describe("what everyone may still do", () => {
  test("read the asset and its prices, use it in transactions, write their own assets", async () => {
    expect((await bob().get(`/assets/${asset}`)).status).toBe(200);
    const query = await (await bob().post("/assets/prices/query", [{ asset_id: asset, date_range: { start: "2024-01-01", end: "2024-12-31" } }])).json();
    expect(query.items[0].prices.length).toBe(1);
    const bobBroker = (await (await bob().post("/brokers", [{ name: "Bob's" }])).json()).results[0].broker_id;
    const commit = await bob().post("/transactions/commit", { creates: [
      { broker_id: bobBroker, type: "DEPOSIT", date: "2024-01-01", cash: { code: "EUR", amount: "100" } },
      { broker_id: bobBroker, asset_id: asset, type: "BUY", date: "2024-01-03", quantity: "1", cash: { code: "EUR", amount: "-50" } },
    ] });
    expect((await commit.json()).committed).toBe(true);
  });

  test("trigger a provider sync (it writes only what the provider says)", async () => {
    const res = await bob().post("/assets/prices/sync", [{ asset_id: asset, date_range: { start: "2024-01-01", end: "2024-01-31" } }]);
    expect(res.status).toBe(200);
  });
});

describe("keeper and administrators", () => {
  test("the keeper changes the asset and its prices", async () => {
    expect((await alice().patch("/assets", [{ asset_id: asset, asset_type: "STOCK" }])).status).toBe(200);
    expect((await alice().post("/assets/prices", [{ asset_id: asset, prices: [{ date: "2024-01-05", close: "55" }] }])).status).toBe(200);
  });

  test("an administrator changes any asset and may hand it to another keeper; others may not reassign", async () => {
    expect((await api.as.admin!.post("/assets/prices", [{ asset_id: asset, prices: [{ date: "2024-01-06", close: "56" }] }])).status).toBe(200);
    await expectError(await bob().request("PUT", `/assets/${asset}/keeper`, { user_id: api.users.bob!.id }), 403, "ADMIN_REQUIRED");
    const res = await api.as.admin!.request("PUT", `/assets/${asset}/keeper`, { user_id: api.users.bob!.id });
    expect(await res.json()).toEqual({ asset_id: asset, keeper_user_id: api.users.bob!.id });
    expect((await bob().post("/assets/prices", [{ asset_id: asset, prices: [{ date: "2024-01-07", close: "57" }] }])).status).toBe(200);
    await expectError(await alice().post("/assets/prices", [{ asset_id: asset, prices: [{ date: "2024-01-08", close: "1" }] }]), 403, REFUSED);
    await expectError(await api.as.admin!.request("PUT", `/assets/${asset}/keeper`, { user_id: 999999 }), 404, "USER_NOT_FOUND");
    expect((await api.as.admin!.request("PUT", `/assets/${asset}/keeper`, { user_id: api.users.alice!.id })).status).toBe(200);
  });
});

describe("refusals reveal nothing about brokers the caller cannot access", () => {
  test("a refused delete says the asset is used, without counting other users' transactions", async () => {
    const res = await alice().delete(`/assets?asset_ids=${asset}`);
    const [item] = (await res.json()).results;
    expect(item).toMatchObject({ success: false, code: "HAS_TRANSACTIONS" });
    expect(item.message).not.toMatch(/\d+ transaction/);
    expect(item.message).not.toContain("Bob");
  });

  test("the market-data summary counts linked transactions in the caller's own brokers only", async () => {
    const [{ id: eventId }] = queryDb<{ id: number }>(api.dataDir, "SELECT id FROM asset_events WHERE asset_id = ?", asset);
    const bobsBuy = queryDb<{ id: number }>(api.dataDir, "SELECT t.id FROM transactions t JOIN brokers b ON b.id = t.broker_id WHERE b.name = ? AND t.type = 'BUY'", "Bob's")[0]!.id;
    queryDb(api.dataDir, "UPDATE transactions SET asset_event_id = ? WHERE id = ?", eventId, bobsBuy);
    expect((await (await alice().get(`/assets/${asset}/market-data/summary`)).json()).linked_transaction_count).toBe(0);
    expect((await (await bob().get(`/assets/${asset}/market-data/summary`)).json()).linked_transaction_count).toBe(1);
  });
});
