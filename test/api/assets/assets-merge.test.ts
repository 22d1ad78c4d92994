import { beforeAll, describe, expect, test } from "bun:test";
import { ApiClient, expectError } from "../../helpers/client.ts";
import { queryDb, seedAssetEvent, seedTransactions } from "../../helpers/seed.ts";
import { type TestServer, useApi } from "../../helpers/server.ts";
import { createBroker } from "../brokers/helpers.ts";
import { createAsset, execDb, seedPrice, uniqueName } from "./assets-helpers.ts";

const api = useApi();
let server: TestServer;
let c: ApiClient;
let broker: number;

beforeAll(async () => {
  server = api.server;
  c = new ApiClient(server.base);
  await c.signUp("merger");
  broker = await createBroker(c, "Merge broker");
});

const db = () => server.dataDir;

/** A transaction of `assetId`, optionally linked to an event; returns its id. */
function seedTx(assetId: number, type = "BUY", eventId: number | null = null): number {
  seedTransactions(db(), [{ brokerId: broker, type, date: "2024-01-05", quantity: type === "BUY" ? "1" : "0", amount: "-10", currency: "EUR", assetId }]);
  const [{ id }] = queryDb<{ id: number }>(db(), "SELECT MAX(id) AS id FROM transactions");
  if (eventId !== null) execDb(db(), "UPDATE transactions SET asset_event_id = ? WHERE id = ?", eventId, id);
  return id;
}

function seedAssignment(assetId: number, code = "fakequotes"): number {
  execDb(db(), `INSERT INTO asset_provider_assignments (asset_id, provider_code, identifier, identifier_type) VALUES (?, ?, 'X', 'TICKER')`, assetId, code);
  return queryDb<{ id: number }>(db(), "SELECT id FROM asset_provider_assignments WHERE asset_id = ?", assetId)[0]!.id;
}

const merge = (body: Record<string, unknown>) => c.post("/assets/merge", body);

describe("POST /assets/merge", () => {
  test("a dry run previews the merge and writes nothing; the real merge does what it previewed and deletes the source", async () => {
    const source = await createAsset(c, { identifier_isin: "US0378331005", identifier_ticker: "SRC", identifier_other: ["X1"] });
    const target = await createAsset(c, { identifier_ticker: "TGT" });
    seedPrice(db(), { assetId: source, date: "2024-01-01", close: "1" });
    seedPrice(db(), { assetId: source, date: "2024-01-02", close: "2" });
    seedPrice(db(), { assetId: target, date: "2024-01-01", close: "100" });
    const clash = seedAssetEvent(db(), { assetId: source, date: "2024-02-01", type: "DIVIDEND", value: "1", currency: "EUR" });
    const moves = seedAssetEvent(db(), { assetId: source, date: "2024-03-01", type: "DIVIDEND", value: "1", currency: "EUR" });
    const survivor = seedAssetEvent(db(), { assetId: target, date: "2024-02-01", type: "DIVIDEND", value: "1", currency: "EUR" });
    const buy = seedTx(source);
    const dividend = seedTx(source, "DIVIDEND", clash);

    const preview = {
      transactions: 2, prices: 1, prices_discarded: 1, events: 1, events_discarded: 1, transactions_relinked: 1,
      provider_assignment_moved: false, provider_assignment_dropped: false, identifiers_added: ["identifier_isin", "identifier_other"],
    };
    const dry = await merge({ source_asset_id: source, target_asset_id: target, dry_run: true });
    expect(dry.status).toBe(200);
    expect(await dry.json()).toMatchObject({ success: true, dry_run: true, source_asset_id: source, target_asset_id: target, preview });
    expect((await c.get(`/assets/${source}`)).status).toBe(200);
    expect(queryDb(db(), "SELECT asset_id, asset_event_id FROM transactions WHERE id = ?", dividend)).toEqual([{ asset_id: source, asset_event_id: clash }]);

    const real = await merge({ source_asset_id: source, target_asset_id: target });
    expect(await real.json()).toMatchObject({ success: true, dry_run: false, preview });
    await expectError(await c.get(`/assets/${source}`), 404, "ASSET_NOT_FOUND");
    expect(queryDb(db(), "SELECT date, close FROM price_history WHERE asset_id = ? ORDER BY date", target))
      .toEqual([{ date: "2024-01-01", close: "100" }, { date: "2024-01-02", close: "2" }]);
    expect(queryDb<{ id: number }>(db(), "SELECT id FROM asset_events WHERE asset_id = ? ORDER BY date", target).map((e) => e.id)).toEqual([survivor, moves]);
    expect(queryDb(db(), "SELECT id, asset_id, asset_event_id FROM transactions WHERE id IN (?, ?) ORDER BY id", buy, dividend)).toEqual([
      { id: buy, asset_id: target, asset_event_id: null }, { id: dividend, asset_id: target, asset_event_id: survivor },
    ]);
    expect(await (await c.get(`/assets/${target}`)).json()).toMatchObject({
      identifier_isin: "US0378331005", identifier_ticker: "TGT", identifier_other: ["SRC", "X1"],
    });
  });

  test("identifier_primaries picks the source's value; the target's own joins identifier_other", async () => {
    const source = await createAsset(c, { identifier_ticker: "NEWT" });
    const target = await createAsset(c, { identifier_ticker: "OLDT" });
    const res = await merge({ source_asset_id: source, target_asset_id: target, identifier_primaries: { identifier_ticker: "newt" } });
    expect((await res.json()).preview.identifiers_added).toEqual(["identifier_other"]);
    expect(await (await c.get(`/assets/${target}`)).json()).toMatchObject({ identifier_ticker: "NEWT", identifier_other: ["OLDT"] });
  });

  test("the source's assignment moves when the target has none, with the prices it wrote", async () => {
    const source = await createAsset(c);
    const target = await createAsset(c);
    const assignment = seedAssignment(source);
    seedPrice(db(), { assetId: source, date: "2024-05-01", close: "3", assignmentId: assignment });
    const body = await (await merge({ source_asset_id: source, target_asset_id: target })).json();
    expect(body.preview).toMatchObject({ provider_assignment_moved: true, provider_assignment_dropped: false, prices: 1 });
    expect(queryDb(db(), "SELECT asset_id FROM asset_provider_assignments WHERE id = ?", assignment)).toEqual([{ asset_id: target }]);
    expect(queryDb(db(), "SELECT provider_assignment_id FROM price_history WHERE asset_id = ?", target)).toEqual([{ provider_assignment_id: assignment }]);
  });

  test("when both have an assignment the source's is dropped with its prices and events; its transactions are unlinked", async () => {
    const source = await createAsset(c);
    const target = await createAsset(c);
    const dropped = seedAssignment(source);
    seedAssignment(target);
    seedPrice(db(), { assetId: source, date: "2024-06-01", close: "3", assignmentId: dropped });
    seedPrice(db(), { assetId: source, date: "2024-06-02", close: "4" });
    const auto = seedAssetEvent(db(), { assetId: source, date: "2024-06-03", type: "DIVIDEND", value: "1", currency: "EUR", providerAssignmentId: dropped });
    const linked = seedTx(source, "DIVIDEND", auto);
    const body = await (await merge({ source_asset_id: source, target_asset_id: target })).json();
    expect(body.preview).toMatchObject({ provider_assignment_dropped: true, prices: 1, prices_discarded: 1, events: 0, events_discarded: 1 });
    expect(queryDb(db(), "SELECT date FROM price_history WHERE asset_id = ?", target)).toEqual([{ date: "2024-06-02" }]);
    expect(queryDb(db(), "SELECT id FROM asset_provider_assignments WHERE id = ?", dropped)).toEqual([]);
    expect(queryDb(db(), "SELECT asset_id, asset_event_id FROM transactions WHERE id = ?", linked)).toEqual([{ asset_id: target, asset_event_id: null }]);
  });

  test("refusals: the same asset (400), different currencies (409), an unknown asset (404), a primary that is neither value (422)", async () => {
    const eur = await createAsset(c, { identifier_ticker: "E1" });
    const usd = await createAsset(c, { name: uniqueName(), currency: "USD" });
    const other = await createAsset(c, { identifier_ticker: "E2" });
    await expectError(await merge({ source_asset_id: eur, target_asset_id: eur }), 400, "MERGE_SAME_ASSET");
    await expectError(await merge({ source_asset_id: eur, target_asset_id: usd }), 409, "MERGE_CURRENCY_MISMATCH");
    await expectError(await merge({ source_asset_id: eur, target_asset_id: 999999 }), 404, "ASSET_NOT_FOUND");
    await expectError(await merge({ source_asset_id: eur, target_asset_id: other, identifier_primaries: { identifier_ticker: "ZZ" } }), 422);
    await expectError(await merge({ source_asset_id: eur, target_asset_id: other, identifier_primaries: { name: "x" } }), 422);
    expect((await c.get(`/assets/${eur}`)).status).toBe(200);
  });
});
