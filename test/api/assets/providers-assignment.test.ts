import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { QuotesUpstream } from "../../fakes/quotes-upstream.ts";
import { ApiClient, expectError } from "../../helpers/client.ts";
import { queryDb, seedAssetEvent, seedTransactions } from "../../helpers/seed.ts";
import type { TestServer } from "../../helpers/server.ts";
import { createBroker } from "../brokers/helpers.ts";
import { createAsset, execDb, seedPrice, startAssetsServer } from "./assets-helpers.ts";

let server: TestServer;
let upstream: QuotesUpstream;
let c: ApiClient;
let broker: number;

beforeAll(async () => {
  ({ server, upstream } = await startAssetsServer());
  c = new ApiClient(server.base);
  await c.signUp("assigner");
  broker = await createBroker(c, "Provider broker");
});
afterAll(async () => {
  await server.stop(true);
  upstream.stop();
});

const db = () => server.dataDir;

async function assign(items: Record<string, unknown>[]): Promise<any[]> {
  const res = await c.post("/assets/provider", items);
  expect(res.status).toBe(200);
  return (await res.json()).results;
}

const assignmentId = (assetId: number) =>
  queryDb<{ id: number }>(db(), "SELECT id FROM asset_provider_assignments WHERE asset_id = ?", assetId)[0]?.id ?? null;

describe("GET /assets/provider", () => {
  test("lists quote and parametric providers with kind, search support, identifier types and a params form; hidden ones are left out", async () => {
    const list = await (await c.get("/assets/provider")).json();
    expect(list.map((p: any) => p.code)).not.toContain("fakequotes");
    expect(list.find((p: any) => p.code === "slowquotes")).toEqual({
      code: "slowquotes", name: "Slow quotes", description: "Test quote provider with a slow search", icon_url: null,
      kind: "online_scraper", supports_search: true, accepted_identifier_types: ["ISIN"], params_schema: [], provider_help_url: null,
    });
    expect(list.find((p: any) => p.code === "fakeschedule")).toMatchObject({
      kind: "parametric_generation", supports_search: false, accepted_identifier_types: ["AUTO_GENERATED"],
      params_schema: [
        { key: "initial_value", type: "string", required: true, label: null, description: "Value on the first day", options: null },
        { key: "day_count", type: "select", required: false, options: ["ACT/365", "ACT/360"], default: "ACT/365" },
        { key: "note", type: "string", required: false },
      ],
    });
  });

  test("?providers= narrows the list to the named codes", async () => {
    expect((await (await c.get("/assets/provider?providers=fakeschedule")).json()).map((p: any) => p.code)).toEqual(["fakeschedule"]);
  });
});

describe("POST /assets/provider: assignment", () => {
  test("a hidden provider is still assignable by code; the read adds the provider page and last fetch time", async () => {
    const id = await createAsset(c);
    const [result] = await assign([{ asset_id: id, provider_code: "fakequotes", identifier: "AAPL", identifier_type: "TICKER", provider_params: { scale: "1" } }]);
    expect(result).toEqual({ asset_id: id, success: true, message: "Provider assigned", assignment_id: expect.any(Number) });
    const [read] = await (await c.get(`/assets/provider/assignments?asset_ids=${id}&asset_ids=999999`)).json();
    expect(read).toMatchObject({
      id: result.assignment_id, asset_id: id, provider_code: "fakequotes", identifier: "AAPL", identifier_type: "TICKER",
      provider_params: { scale: "1" }, last_fetch_at: null, provider_url: `${upstream.url}/page/AAPL`,
    });
    expect((await (await c.get(`/assets/${id}`)).json()).provider_code).toBe("fakequotes");
  });

  test("per-item refusals: unknown provider, unknown asset, identifier type the provider does not take", async () => {
    const id = await createAsset(c);
    const results = await assign([
      { asset_id: id, provider_code: "nosuch", identifier: "X", identifier_type: "TICKER" },
      { asset_id: 999999, provider_code: "fakequotes", identifier: "X", identifier_type: "TICKER" },
      { asset_id: id, provider_code: "fakequotes", identifier: "US0378331005", identifier_type: "ISIN" },
      { asset_id: id, provider_code: "slowquotes", identifier: "IE00B4L5Y983", identifier_type: "ISIN" },
    ]);
    expect(results.map((r) => r.code ?? "ok")).toEqual(["PROVIDER_NOT_FOUND", "ASSET_NOT_FOUND", "IDENTIFIER_TYPE_NOT_ACCEPTED", "ok"]);
  });

  test("provider_params are checked by the provider's schema, per item with field paths (PROVIDER_PARAMS_INVALID)", async () => {
    const id = await createAsset(c);
    const results = await assign([
      { asset_id: id, provider_code: "fakequotes", identifier: "AAPL", identifier_type: "TICKER", provider_params: { scale: "abc" } },
      { asset_id: id, provider_code: "fakequotes", identifier: "AAPL", identifier_type: "TICKER", provider_params: { extra: 1 } },
      { asset_id: id, provider_code: "fakeschedule", identifier: "", identifier_type: "AUTO_GENERATED", provider_params: { day_count: "ACT/360" } },
      { asset_id: id, provider_code: "slowquotes", identifier: "IE00B4L5Y983", identifier_type: "ISIN", provider_params: { any: 1 } },
    ]);
    expect(results.map((r) => r.code)).toEqual(Array(4).fill("PROVIDER_PARAMS_INVALID"));
    expect(results[0].fields_detail[0].loc).toEqual(["provider_params", "scale"]);
    expect(results[2].fields_detail[0].loc).toEqual(["provider_params", "initial_value"]);
    expect(assignmentId(id)).toBeNull();
  });

  test("AUTO_GENERATED with an empty identifier gets a UUID; an empty identifier of another type is 422", async () => {
    const id = await createAsset(c);
    const [ok] = await assign([{ asset_id: id, provider_code: "fakeschedule", identifier: "", identifier_type: "AUTO_GENERATED", provider_params: { initial_value: "100" } }]);
    expect(ok.success).toBe(true);
    const [read] = await (await c.get(`/assets/provider/assignments?asset_ids=${id}`)).json();
    expect(read.identifier).toMatch(/^[0-9a-f-]{36}$/);
    expect(read.provider_url).toBeNull();
    await expectError(await c.post("/assets/provider", [{ asset_id: id, provider_code: "fakequotes", identifier: " ", identifier_type: "TICKER" }]), 422);
    await expectError(await c.post("/assets/provider", [{ asset_id: id, provider_code: "fakequotes", identifier: "A", identifier_type: "CUSIP" }]), 422);
  });
});

/** Provider rows under `assignment`, manual rows beside them, and transactions linked to one of each. */
function seedMarketData(assetId: number, assignment: number) {
  seedPrice(db(), { assetId, date: "2024-01-02", close: "10", assignmentId: assignment });
  seedPrice(db(), { assetId, date: "2024-01-03", close: "11", assignmentId: assignment });
  seedPrice(db(), { assetId, date: "2024-01-04", close: "12" });
  const auto = seedAssetEvent(db(), { assetId, date: "2024-02-01", type: "DIVIDEND", value: "1", currency: "EUR", providerAssignmentId: assignment });
  seedAssetEvent(db(), { assetId, date: "2024-03-01", type: "SPLIT", value: "2", currency: "EUR", providerAssignmentId: assignment });
  const manual = seedAssetEvent(db(), { assetId, date: "2024-02-01", type: "DIVIDEND", value: "1", currency: "EUR" });
  seedTransactions(db(), [
    { brokerId: broker, type: "DIVIDEND", date: "2024-02-01", amount: "1", currency: "EUR", assetId },
    { brokerId: broker, type: "DIVIDEND", date: "2024-02-01", amount: "1", currency: "EUR", assetId },
  ]);
  const [first, second] = queryDb<{ id: number }>(db(), "SELECT id FROM transactions WHERE asset_id = ? ORDER BY id DESC LIMIT 2", assetId).reverse();
  execDb(db(), "UPDATE transactions SET asset_event_id = ? WHERE id = ?", auto, first!.id);
  execDb(db(), "UPDATE transactions SET asset_event_id = ? WHERE id = ?", manual, second!.id);
  return { autoLinkedTx: first!.id, manualLinkedTx: second!.id, manual };
}

const rowsOf = (assignment: number) => ({
  prices: queryDb(db(), "SELECT date FROM price_history WHERE provider_assignment_id = ?", assignment).length,
  events: queryDb(db(), "SELECT id FROM asset_events WHERE provider_assignment_id = ?", assignment).length,
});

describe("an assignment's market data goes when the provider or parametric parameters change", () => {
  test("moving to another provider deletes the old assignment's prices and events after unlinking transactions; manual rows stay", async () => {
    const id = await createAsset(c);
    await assign([{ asset_id: id, provider_code: "fakequotes", identifier: "AAPL", identifier_type: "TICKER" }]);
    const old = assignmentId(id)!;
    const seeded = seedMarketData(id, old);
    const [moved] = await assign([{ asset_id: id, provider_code: "slowquotes", identifier: "US0378331005", identifier_type: "ISIN" }]);
    expect(moved).toMatchObject({ success: true, prices_deleted: 2, events_deleted: 2, transactions_unlinked: 1 });
    expect(moved.assignment_id).not.toBe(old);
    expect(rowsOf(old)).toEqual({ prices: 0, events: 0 });
    expect(queryDb(db(), "SELECT date FROM price_history WHERE asset_id = ?", id)).toEqual([{ date: "2024-01-04" }]);
    expect(queryDb(db(), "SELECT id FROM asset_events WHERE asset_id = ?", id)).toEqual([{ id: seeded.manual }]);
    expect(queryDb(db(), "SELECT id, asset_event_id FROM transactions WHERE id IN (?, ?) ORDER BY id", seeded.autoLinkedTx, seeded.manualLinkedTx))
      .toEqual([{ id: seeded.autoLinkedTx, asset_event_id: null }, { id: seeded.manualLinkedTx, asset_event_id: seeded.manual }]);
  });

  test("the same quote provider with another identifier or parameters keeps the assignment and its data", async () => {
    const id = await createAsset(c);
    await assign([{ asset_id: id, provider_code: "fakequotes", identifier: "AAPL", identifier_type: "TICKER" }]);
    const old = assignmentId(id)!;
    seedMarketData(id, old);
    const [updated] = await assign([{ asset_id: id, provider_code: "fakequotes", identifier: "AAPL.MX", identifier_type: "TICKER", provider_params: { scale: "2" } }]);
    expect(updated).toEqual({ asset_id: id, success: true, message: "Provider assignment updated", assignment_id: old });
    expect(rowsOf(old)).toEqual({ prices: 2, events: 2 });
  });

  test("new parameters of a parametric provider delete its data; the same parameters in another key order do not", async () => {
    const id = await createAsset(c);
    await assign([{ asset_id: id, provider_code: "fakeschedule", identifier: "", identifier_type: "AUTO_GENERATED", provider_params: { initial_value: "100", day_count: "ACT/360" } }]);
    const first = assignmentId(id)!;
    seedMarketData(id, first);
    const [same] = await assign([{ asset_id: id, provider_code: "fakeschedule", identifier: "u-1", identifier_type: "AUTO_GENERATED", provider_params: { day_count: "ACT/360", initial_value: "100" } }]);
    expect(same).toMatchObject({ assignment_id: first, message: "Provider assignment updated" });
    expect(rowsOf(first)).toEqual({ prices: 2, events: 2 });
    const [changed] = await assign([{ asset_id: id, provider_code: "fakeschedule", identifier: "u-1", identifier_type: "AUTO_GENERATED", provider_params: { initial_value: "200", day_count: "ACT/360" } }]);
    expect(changed).toMatchObject({ success: true, prices_deleted: 2, events_deleted: 2, transactions_unlinked: 1 });
    expect(rowsOf(first)).toEqual({ prices: 0, events: 0 });
    expect(queryDb(db(), "SELECT COUNT(*) AS n FROM asset_events WHERE asset_id = ?", id)).toEqual([{ n: 1 }]);
  });
});

describe("DELETE /assets/provider?asset_ids=", () => {
  test("removing an assignment deletes its provider prices and events the same way; manual rows and the asset stay", async () => {
    const id = await createAsset(c);
    const bare = await createAsset(c);
    await assign([{ asset_id: id, provider_code: "fakequotes", identifier: "MSFT", identifier_type: "TICKER" }]);
    const old = assignmentId(id)!;
    const seeded = seedMarketData(id, old);
    const res = await c.delete(`/assets/provider?asset_ids=${id}&asset_ids=${bare}&asset_ids=999999`);
    const body = await res.json();
    expect(body.results.map((r: any) => r.code ?? "ok")).toEqual(["ok", "NO_PROVIDER_ASSIGNED", "ASSET_NOT_FOUND"]);
    expect(body.results[0]).toMatchObject({ prices_deleted: 2, events_deleted: 2, transactions_unlinked: 1 });
    expect(assignmentId(id)).toBeNull();
    expect(rowsOf(old)).toEqual({ prices: 0, events: 0 });
    expect(queryDb(db(), "SELECT asset_event_id FROM transactions WHERE id = ?", seeded.manualLinkedTx)).toEqual([{ asset_event_id: seeded.manual }]);
    expect((await (await c.get(`/assets/${id}`)).json()).provider_code).toBeNull();
  });
});
