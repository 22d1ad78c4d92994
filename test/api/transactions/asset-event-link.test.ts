import { beforeAll, describe, expect, test } from "bun:test";
import { ApiClient, expectError } from "../../helpers/client.ts";
import { queryDb, seedAssetEvent } from "../../helpers/seed.ts";
import { type TestServer, useApi } from "../../helpers/server.ts";
import { codes, commitOk, createAsset, eur, getTx, looseBroker, validate } from "./fixtures.ts";

const api = useApi();
let server: TestServer;
let c: ApiClient;
let broker = 0;
let asset = 0;
let other = 0;
const ev: Record<string, number> = {};

beforeAll(async () => {
  server = api.server;
  c = new ApiClient(server.base);
  await c.signUp("linker");
  broker = await looseBroker(c, "A");
  asset = createAsset(server.dataDir);
  other = createAsset(server.dataDir);
  ev.dividend = seedAssetEvent(server.dataDir, { assetId: asset, date: "2024-03-10", type: "DIVIDEND", value: "0.5", currency: "EUR" });
  ev.dividendAuto = seedAssetEvent(server.dataDir, { assetId: asset, date: "2024-03-12", type: "DIVIDEND", value: "0.6", currency: "EUR", providerAssignmentId: 4 });
  ev.interest = seedAssetEvent(server.dataDir, { assetId: asset, date: "2024-03-10", type: "INTEREST", value: "1", currency: "EUR" });
  ev.otherAsset = seedAssetEvent(server.dataDir, { assetId: other, date: "2024-03-10", type: "DIVIDEND", value: "1", currency: "EUR" });
});

const dividend = (extra: Record<string, unknown> = {}) =>
  ({ broker_id: broker, asset_id: asset, type: "DIVIDEND", date: "2024-03-10", cash: eur("5"), ...extra });

describe("asset_event_id links a transaction to an event of its asset, of a compatible type", () => {
  test("a DIVIDEND links to a DIVIDEND event of its asset and reads it back", async () => {
    const [id] = await commitOk(c, { creates: [dividend({ asset_event_id: ev.dividend })] });
    expect((await getTx(c, id!))!.asset_event_id).toBe(ev.dividend);
  });

  test("an event of another asset, or no event at all, is assetEventIdInvalid", async () => {
    expect(codes(await validate(c, { creates: [dividend({ asset_event_id: ev.otherAsset })] }))).toEqual(["assetEventIdInvalid"]);
    expect(codes(await validate(c, { creates: [dividend({ asset_event_id: 424242 })] }))).toEqual(["assetEventIdInvalid"]);
  });

  test("an incompatible event type is eventTypeIncompatible; an event without asset is eventRequiresAsset", async () => {
    expect(codes(await validate(c, { creates: [dividend({ asset_event_id: ev.interest })] }))).toEqual(["eventTypeIncompatible"]);
    const interest = { broker_id: broker, type: "INTEREST", date: "2024-03-10", cash: eur("1"), asset_event_id: ev.interest };
    expect(codes(await validate(c, { creates: [interest] }))).toEqual(["eventRequiresAsset"]);
  });

  test("on update, asset_event_id 0 unlinks, a valid id relinks, and the same rules apply", async () => {
    const [id] = await commitOk(c, { creates: [dividend({ asset_event_id: ev.dividend })] });
    await commitOk(c, { updates: [{ id, asset_event_id: 0 }] });
    expect((await getTx(c, id!))!.asset_event_id).toBeNull();
    await commitOk(c, { updates: [{ id, asset_event_id: ev.dividendAuto }] });
    expect((await getTx(c, id!))!.asset_event_id).toBe(ev.dividendAuto);
    expect(codes(await validate(c, { updates: [{ id, asset_event_id: ev.interest }] }))).toEqual(["eventTypeIncompatible"]);
    expect(codes(await validate(c, { updates: [{ id, type: "INTEREST" }] }))).toEqual(["eventTypeIncompatible"]);
  });

  test("the link keeps the transaction tied to the event: a changed event type changes how the row is checked", async () => {
    const [id] = await commitOk(c, { creates: [dividend({ asset_event_id: ev.dividend })] });
    queryDb(server.dataDir, "UPDATE asset_events SET type = 'INTEREST' WHERE id = ?", ev.dividend);
    try {
      expect(codes(await validate(c, { updates: [{ id, description: "now an interest event" }] }))).toEqual(["eventTypeIncompatible"]);
      expect((await validate(c, { updates: [{ id, type: "INTEREST" }] })).issues).toEqual([]);
    } finally {
      queryDb(server.dataDir, "UPDATE asset_events SET type = 'DIVIDEND' WHERE id = ?", ev.dividend);
    }
  });
});

describe("POST /transactions/events/suggest", () => {
  test("candidates of compatible types within ± tolerance days, nearest first, with is_auto", async () => {
    const res = await c.post("/transactions/events/suggest", [
      { asset_id: asset, date: "2024-03-11", type: "DIVIDEND", tolerance_days: 1 },
      { asset_id: asset, date: "2024-03-11", type: "DIVIDEND" },
      { asset_id: asset, date: "2024-03-10", type: "BUY", tolerance_days: 7 },
    ]);
    expect(res.status).toBe(200);
    const [near, exact, skipped] = await res.json();
    expect(near.candidates.map((x: { id: number; distance_days: number; is_auto: boolean }) => [x.id, x.distance_days, x.is_auto])).toEqual([
      [ev.dividend, 1, false], [ev.dividendAuto, 1, true],
    ]);
    expect(near.candidates[0]).toMatchObject({ asset_id: asset, date: "2024-03-10", type: "DIVIDEND", value: "0.5", currency: "EUR" });
    expect(exact.candidates).toEqual([]);
    expect(skipped).toMatchObject({ candidates: [], skipped_reason: "type_not_event_compatible" });
  });

  test("tolerance above 7 days is a 422", async () => {
    await expectError(await c.post("/transactions/events/suggest", [{ asset_id: asset, date: "2024-03-11", type: "DIVIDEND", tolerance_days: 8 }]), 422, "VALIDATION_ERROR");
  });
});
