import { beforeAll, describe, expect, test } from "bun:test";
import { ApiClient, expectError } from "../../helpers/client.ts";
import { queryDb, seedAsset, seedAssetEvent } from "../../helpers/seed.ts";
import { type TestServer, useApi } from "../../helpers/server.ts";

const api = useApi();
let server: TestServer;
let c: ApiClient;
let n = 0;

beforeAll(async () => {
  server = api.server;
  c = new ApiClient(server.base);
  await c.signUp("refuser");
});

type Row = { id: number; date: string; type: string; value: string };
const asset = () => seedAsset(server.dataDir, { name: `Refusal asset ${++n}`, currency: "EUR" });
const manual = (assetId: number, date: string, type = "DIVIDEND") =>
  seedAssetEvent(server.dataDir, { assetId, date, type, value: "1", currency: "EUR" });
const rows = (assetId: number) => queryDb<Row>(server.dataDir, "SELECT id, date, type, value FROM asset_events WHERE asset_id = ? ORDER BY id", assetId);
const point = (date: string, amount: string, extra: Record<string, unknown> = {}) =>
  ({ date, type: "DIVIDEND", value: { code: "EUR", amount }, ...extra });
const upsert = (body: unknown) => c.post("/assets/events", body);
const ok = async (res: Response) => { expect(res.status).toBe(200); return res.json(); };

/** The item is refused with `code` and the asset's rows are exactly as before. */
async function refusedUnchanged(assetId: number, events: unknown[], code: string) {
  const before = rows(assetId);
  const body = await expectError(await upsert([{ asset_id: assetId, events }]), 400, code);
  expect(rows(assetId)).toEqual(before);
  return body;
}

describe("a duplicate id in one upsert item", () => {
  test("is 422 `Duplicate event id in one upsert item` and refuses the whole request, earlier items included", async () => {
    const [a, b] = [asset(), asset()];
    const id = manual(b, "2024-01-01");
    const res = await upsert([
      { asset_id: a, events: [point("2024-01-01", "1")] },
      { asset_id: b, events: [point("2024-01-01", "2", { id }), point("2024-01-02", "3", { id })] },
    ]);
    const body = await expectError(res, 422);
    expect(body.detail).toEqual([{ loc: ["body", 1, "events", 1, "id"], msg: "Duplicate event id in one upsert item", type: "duplicate_id" }]);
    expect(rows(a)).toEqual([]);
    expect(rows(b).map((r) => r.value)).toEqual(["1"]);
  });
});

describe("EVENT_NOT_EDITABLE", () => {
  test("an unknown id", async () => {
    const a = asset();
    manual(a, "2024-01-01");
    const body = await refusedUnchanged(a, [point("2024-01-05", "1"), point("2024-01-01", "2", { id: 9_999_999 })], "EVENT_NOT_EDITABLE");
    expect(body.params).toMatchObject({ asset_id: a, event_id: 9_999_999, event_index: 1, item_index: 0 });
  });

  test("an id of another asset's event", async () => {
    const [a, other] = [asset(), asset()];
    const foreign = manual(other, "2024-01-01");
    await refusedUnchanged(a, [point("2024-01-01", "2", { id: foreign })], "EVENT_NOT_EDITABLE");
    expect(rows(other).map((r) => r.value)).toEqual(["1"]);
  });

  test("an id of a provider event", async () => {
    const a = asset();
    const auto = seedAssetEvent(server.dataDir, { assetId: a, date: "2024-01-01", type: "DIVIDEND", value: "1", currency: "EUR", providerAssignmentId: 5 });
    await refusedUnchanged(a, [point("2024-01-01", "2", { id: auto })], "EVENT_NOT_EDITABLE");
  });
});

describe("EVENT_KEY_CONFLICT", () => {
  test("an edit that changes its date onto the key another edit of the item ends on", async () => {
    const a = asset();
    const [x, y] = [manual(a, "2024-01-01"), manual(a, "2024-01-02")];
    await refusedUnchanged(a, [point("2024-01-02", "5", { id: x }), point("2024-01-02", "6", { id: y })], "EVENT_KEY_CONFLICT");
  });

  test("an edit that changes its type onto a key another moving edit also lands on", async () => {
    const a = asset();
    const [x, y] = [manual(a, "2024-01-01", "DIVIDEND"), manual(a, "2024-01-01", "SPLIT")];
    await refusedUnchanged(a, [point("2024-01-01", "5", { id: x, type: "INTEREST" }), point("2024-01-01", "6", { id: y, type: "INTEREST" })], "EVENT_KEY_CONFLICT");
  });

  test("an edit that changes date or type onto a key held by an unedited manual row", async () => {
    const a = asset();
    const x = manual(a, "2024-01-01");
    manual(a, "2024-01-01", "INTEREST");
    await refusedUnchanged(a, [point("2024-01-01", "5", { id: x, type: "INTEREST" })], "EVENT_KEY_CONFLICT");
  });

  test("an event without id on a key an edit ends on", async () => {
    const a = asset();
    const x = manual(a, "2024-01-01");
    await refusedUnchanged(a, [point("2024-02-01", "5", { id: x }), point("2024-02-01", "6")], "EVENT_KEY_CONFLICT");
    await refusedUnchanged(a, [point("2024-01-01", "5", { id: x }), point("2024-01-01", "6")], "EVENT_KEY_CONFLICT");
  });

  test("a provider event on the target key is no conflict (only manual keys count)", async () => {
    const a = asset();
    const x = manual(a, "2024-01-01");
    seedAssetEvent(server.dataDir, { assetId: a, date: "2024-02-01", type: "DIVIDEND", value: "1", currency: "EUR", providerAssignmentId: 5 });
    await ok(await upsert([{ asset_id: a, events: [point("2024-02-01", "5", { id: x })] }]));
  });
});

describe("allowed: swaps, kept shared keys, id-less events on a vacated key", () => {
  test("two edits swapping keys", async () => {
    const a = asset();
    const [x, y] = [manual(a, "2024-01-01"), manual(a, "2024-01-02")];
    await ok(await upsert([{ asset_id: a, events: [point("2024-01-02", "5", { id: x }), point("2024-01-01", "6", { id: y })] }]));
    expect(rows(a)).toEqual([{ id: x, date: "2024-01-02", type: "DIVIDEND", value: "5" }, { id: y, date: "2024-01-01", type: "DIVIDEND", value: "6" }]);
  });

  test("edits keeping a shared key", async () => {
    const a = asset();
    const [x, y] = [manual(a, "2024-01-01"), manual(a, "2024-01-01")];
    await ok(await upsert([{ asset_id: a, events: [point("2024-01-01", "5", { id: x }), point("2024-01-01", "6", { id: y })] }]));
    expect(rows(a).map((r) => [r.id, r.value])).toEqual([[x, "5"], [y, "6"]]);
  });

  test("an id-less event on a key a mover vacates", async () => {
    const a = asset();
    const x = manual(a, "2024-01-01");
    await ok(await upsert([{ asset_id: a, events: [point("2024-03-01", "5", { id: x }), point("2024-01-01", "7")] }]));
    expect(rows(a).map((r) => [r.id === x, r.date, r.value])).toEqual([[true, "2024-03-01", "5"], [false, "2024-01-01", "7"]]);
  });
});
