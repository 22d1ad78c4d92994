import { beforeAll, describe, expect, test } from "bun:test";
import { ApiClient, expectError } from "../../helpers/client.ts";
import { queryDb, seedAsset, seedAssetEvent } from "../../helpers/seed.ts";
import { type TestServer, useApi } from "../../helpers/server.ts";
import { failInsertsWhen } from "../../helpers/test-db.ts";
import { codes, commitOk, looseBroker, validate } from "../transactions/fixtures.ts";

const api = useApi();
let server: TestServer;
let c: ApiClient;
let broker = 0;
let n = 0;

beforeAll(async () => {
  server = api.server;
  c = new ApiClient(server.base);
  await c.signUp("eventer");
  broker = await looseBroker(c, "Events");
});

type Row = { id: number; date: string; type: string; value: string; currency: string; notes: string | null; provider_assignment_id: number | null; updated_at: string };
const asset = (currency = "EUR") => seedAsset(server.dataDir, { name: `Events asset ${++n}`, currency });
const manual = (assetId: number, date: string, type = "DIVIDEND", value = "1") =>
  seedAssetEvent(server.dataDir, { assetId, date, type, value, currency: "EUR" });
const rows = (assetId: number) => queryDb<Row>(server.dataDir, "SELECT * FROM asset_events WHERE asset_id = ? ORDER BY id", assetId);
const point = (date: string, amount: string, extra: Record<string, unknown> = {}) =>
  ({ date, type: "DIVIDEND", value: { code: "EUR", amount }, ...extra });
const upsert = (body: unknown) => c.post("/assets/events", body);

/** A transaction linked to `eventId`, inserted directly (its rules are not under test here). */
function linkedTx(assetId: number, eventId: number): number {
  return queryDb<{ id: number }>(server.dataDir, `INSERT INTO transactions (broker_id, type, date, quantity, amount, currency, asset_id, asset_event_id)
    VALUES (?, 'DIVIDEND', '2024-01-01', '0', '1', 'EUR', ?, ?) RETURNING id`, broker, assetId, eventId)[0]!.id;
}
const linkOf = (txId: number) => queryDb<{ e: number | null }>(server.dataDir, "SELECT asset_event_id AS e FROM transactions WHERE id = ?", txId)[0]!.e;

describe("POST /assets/events: currency", () => {
  test("an explicit currency other than the asset's is 400 EVENT_CURRENCY_MISMATCH and nothing is written", async () => {
    const a = asset();
    await expectError(await upsert([{ asset_id: a, events: [point("2024-01-01", "1"), point("2024-01-02", "1", { currency: "USD" })] }]), 400, "EVENT_CURRENCY_MISMATCH");
    expect(rows(a)).toEqual([]);
  });

  test("a value whose code is not the asset's currency is EVENT_CURRENCY_MISMATCH too", async () => {
    const a = asset();
    await expectError(await upsert([{ asset_id: a, events: [{ date: "2024-01-01", type: "DIVIDEND", value: { code: "USD", amount: "1" } }] }]), 400, "EVENT_CURRENCY_MISMATCH");
    expect(rows(a)).toEqual([]);
  });

  test("an explicit currency equal to the asset's is accepted", async () => {
    const a = asset("USD");
    const res = await upsert([{ asset_id: a, events: [{ date: "2024-01-01", type: "SPLIT", value: { code: "usd", amount: 2 }, currency: "USD" }] }]);
    expect(res.status).toBe(200);
    expect(rows(a).map((r) => [r.type, r.value, r.currency])).toEqual([["SPLIT", "2", "USD"]]);
  });
});

describe("POST /assets/events: an event with id edits that manual row in place", () => {
  test("date, type, value, currency and notes change, the id is kept and updated_at is set", async () => {
    const a = asset();
    const id = manual(a, "2024-01-01");
    queryDb(server.dataDir, "UPDATE asset_events SET updated_at = '2000-01-01 00:00:00' WHERE id = ?", id);
    const res = await upsert([{ asset_id: a, events: [point("2024-02-02", "3.25", { id, type: "INTEREST", notes: "corrected" })] }]);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ results: [{ asset_id: a, count: 1, message: expect.stringContaining("1 edited by id") }], success_count: 1, errors: [] });
    const [row] = rows(a);
    expect(row).toMatchObject({ id, date: "2024-02-02", type: "INTEREST", value: "3.25", currency: "EUR", notes: "corrected" });
    expect(row!.updated_at).not.toBe("2000-01-01 00:00:00");
  });

  test("absent notes keep the stored notes; null clears them", async () => {
    const a = asset();
    const id = manual(a, "2024-01-01");
    queryDb(server.dataDir, "UPDATE asset_events SET notes = 'kept' WHERE id = ?", id);
    await upsert([{ asset_id: a, events: [point("2024-01-01", "2", { id })] }]);
    expect(rows(a)[0]!.notes).toBe("kept");
    await upsert([{ asset_id: a, events: [point("2024-01-01", "2", { id, notes: null })] }]);
    expect(rows(a)[0]!.notes).toBeNull();
  });
});

describe("POST /assets/events: id-less events match manual rows on (date, type)", () => {
  test("a match is updated in place, keeping its id", async () => {
    const a = asset();
    const id = manual(a, "2024-01-01");
    expect((await upsert([{ asset_id: a, events: [point("2024-01-01", "7.5", { notes: "n" })] }])).status).toBe(200);
    expect(rows(a).map((r) => [r.id, r.value, r.notes])).toEqual([[id, "7.5", "n"]]);
  });

  test("surplus incoming events are inserted", async () => {
    const a = asset();
    const id = manual(a, "2024-01-01");
    await upsert([{ asset_id: a, events: [point("2024-01-01", "1"), point("2024-01-01", "2"), point("2024-01-03", "3")] }]);
    expect(rows(a).map((r) => [r.id === id, r.date, r.value])).toEqual([[true, "2024-01-01", "1"], [false, "2024-01-01", "2"], [false, "2024-01-03", "3"]]);
  });

  test("stored manual duplicates beyond the incoming count are removed and their transactions relinked to the surviving row", async () => {
    const a = asset();
    const [first, second, third] = [manual(a, "2024-01-01"), manual(a, "2024-01-01"), manual(a, "2024-01-01")];
    const [t1, t2, t3] = [linkedTx(a, first), linkedTx(a, second), linkedTx(a, third)];
    const res = await upsert([{ asset_id: a, events: [point("2024-01-01", "4")] }]);
    expect((await res.json()).results[0].message).toContain("2 duplicates removed");
    expect(rows(a).map((r) => [r.id, r.value])).toEqual([[first, "4"]]);
    expect([linkOf(t1), linkOf(t2), linkOf(t3)]).toEqual([first, first, first]);
  });
});

describe("POST /assets/events: only manual rows, only mentioned keys", () => {
  test("a provider event of the same (date, type) is neither matched nor touched", async () => {
    const a = asset();
    const auto = seedAssetEvent(server.dataDir, { assetId: a, date: "2024-01-01", type: "DIVIDEND", value: "0.9", currency: "EUR", providerAssignmentId: 3 });
    await upsert([{ asset_id: a, events: [point("2024-01-01", "1")] }]);
    const all = rows(a);
    expect(all.map((r) => [r.id === auto, r.value, r.provider_assignment_id])).toEqual([[true, "0.9", 3], [false, "1", null]]);
  });

  test("stored keys the batch does not mention are kept, duplicates included", async () => {
    const a = asset();
    const kept = [manual(a, "2023-05-05"), manual(a, "2023-05-05"), manual(a, "2023-06-06", "INTEREST")];
    await upsert([{ asset_id: a, events: [point("2024-01-01", "1")] }]);
    expect(rows(a).map((r) => r.id).slice(0, 3)).toEqual(kept);
    expect(rows(a)).toHaveLength(4);
  });

  test("a 2,500-event item is written across 1,000-key slices: inserts, in-place updates, and duplicate removal with relinks", async () => {
    const a = asset();
    const day = (i: number) => new Date(Date.UTC(2000, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);
    const events = (amount: string) => Array.from({ length: 2500 }, (_, i) => point(day(i), amount));
    expect((await upsert([{ asset_id: a, events: events("1") }])).status).toBe(200);
    const inserted = rows(a);
    expect(inserted).toHaveLength(2500);
    queryDb(server.dataDir, `INSERT INTO asset_events (asset_id, date, type, value, currency)
      SELECT asset_id, date, type, '9', currency FROM asset_events WHERE asset_id = ? AND id <= ?`, a, inserted[1199]!.id);
    const dupes = rows(a).slice(2500);
    expect(dupes).toHaveLength(1200);
    queryDb(server.dataDir, `INSERT INTO transactions (broker_id, type, date, quantity, amount, currency, asset_id, asset_event_id)
      SELECT ?, 'DIVIDEND', date, '0', '1', 'EUR', asset_id, id FROM asset_events WHERE asset_id = ? AND id >= ?`, broker, a, dupes[0]!.id);
    const res = await upsert([{ asset_id: a, events: events("2") }]);
    expect((await res.json()).results[0]).toEqual({ asset_id: a, count: 2500, message: expect.stringContaining("1200 duplicates removed") });
    const after = rows(a);
    expect(after.map((r) => r.id)).toEqual(inserted.map((r) => r.id));
    expect(after.every((r) => r.value === "2")).toBe(true);
    const links = queryDb<{ date: string; e: number }>(server.dataDir, "SELECT date, asset_event_id AS e FROM transactions WHERE asset_id = ?", a);
    const idByDate = new Map(after.map((r) => [r.date, r.id]));
    expect(links).toHaveLength(1200);
    expect(links.every((l) => l.e === idByDate.get(l.date))).toBe(true);
  });
});

describe("POST /assets/events: per-item commit", () => {
  test("a refused item ends the request; earlier items stay stored and nothing of the refused item or later ones is written", async () => {
    const [a, b, d] = [asset(), asset(), asset()];
    const res = await upsert([
      { asset_id: a, events: [point("2024-01-01", "1")] },
      { asset_id: b, events: [point("2024-01-01", "1"), point("2024-01-02", "1", { id: 987654 })] },
      { asset_id: d, events: [point("2024-01-01", "1")] },
    ]);
    const body = await expectError(res, 400, "EVENT_NOT_EDITABLE");
    expect(body.params).toMatchObject({ item_index: 1, event_index: 1, event_id: 987654 });
    expect(rows(a)).toHaveLength(1);
    expect(rows(b)).toEqual([]);
    expect(rows(d)).toEqual([]);
  });

  test("all items committed: one result per item in order, success_count and empty errors", async () => {
    const [a, b] = [asset(), asset()];
    const res = await upsert([{ asset_id: a, events: [point("2024-01-01", "1")] }, { asset_id: b, events: [point("2024-01-01", "1"), point("2024-01-02", "1")] }]);
    const body = await res.json();
    expect(body.results.map((r: { asset_id: number; count: number }) => [r.asset_id, r.count])).toEqual([[a, 1], [b, 2]]);
    expect([body.success_count, body.errors]).toEqual([2, []]);
  });

  test("any other failure while writing an item is a 500; the item is rolled back and earlier items stay", async () => {
    const [a, b] = [asset(), asset()];
    const id = manual(b, "2024-01-01");
    const undo = failInsertsWhen(server.dataDir, "test_event_boom", "asset_events", "NEW.notes = 'boom'");
    try {
      const res = await upsert([
        { asset_id: a, events: [point("2024-01-01", "1")] },
        { asset_id: b, events: [point("2024-01-01", "5", { id }), point("2024-01-02", "1", { notes: "boom" })] },
      ]);
      await expectError(res, 500, "INTERNAL_ERROR");
    } finally {
      undo();
    }
    expect(rows(a)).toHaveLength(1);
    expect(rows(b).map((r) => [r.id, r.value])).toEqual([[id, "1"]]);
  });

  test("an unknown asset is 404 ASSET_NOT_FOUND for its item", async () => {
    await expectError(await upsert([{ asset_id: 999_999, events: [point("2024-01-01", "1")] }]), 404, "ASSET_NOT_FOUND");
  });

  test("a malformed point (unknown type, extra key, no events) is a 422", async () => {
    const a = asset();
    await expectError(await upsert([{ asset_id: a, events: [{ ...point("2024-01-01", "1"), type: "BONUS" }] }]), 422, "VALIDATION_ERROR");
    await expectError(await upsert([{ asset_id: a, events: [{ ...point("2024-01-01", "1"), extra: 1 }] }]), 422, "VALIDATION_ERROR");
    await expectError(await upsert([{ asset_id: a, events: [] }]), 422, "VALIDATION_ERROR");
    expect(rows(a)).toEqual([]);
  });
});

describe("POST /assets/events: the type of a linked event may change", () => {
  test("the edit is allowed and the transaction is then read by the new type", async () => {
    const a = asset();
    const id = manual(a, "2024-03-10");
    const [tx] = await commitOk(c, { creates: [{ broker_id: broker, asset_id: a, type: "DIVIDEND", date: "2024-03-10", cash: { code: "EUR", amount: "5" }, asset_event_id: id }] });
    expect((await upsert([{ asset_id: a, events: [point("2024-03-10", "1", { id, type: "INTEREST" })] }])).status).toBe(200);
    expect(linkOf(tx!)).toBe(id);
    expect(codes(await validate(c, { updates: [{ id: tx, description: "still a dividend" }] }))).toEqual(["eventTypeIncompatible"]);
    expect((await validate(c, { updates: [{ id: tx, type: "INTEREST" }] })).issues).toEqual([]);
  });
});

describe("POST /assets/events: provider events are read-only", () => {
  test("editing a provider event by id is 400 EVENT_NOT_EDITABLE and it stays as stored", async () => {
    const a = asset();
    const auto = seedAssetEvent(server.dataDir, { assetId: a, date: "2024-01-01", type: "DIVIDEND", value: "0.9", currency: "EUR", providerAssignmentId: 3 });
    await expectError(await upsert([{ asset_id: a, events: [point("2024-01-01", "5", { id: auto })] }]), 400, "EVENT_NOT_EDITABLE");
    expect(rows(a).map((r) => [r.id, r.value])).toEqual([[auto, "0.9"]]);
  });
});

test("the session is required", async () => {
  await expectError(await new ApiClient(server.base).post("/assets/events", []), 401);
});
