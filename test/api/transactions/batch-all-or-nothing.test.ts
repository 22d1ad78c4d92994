import { beforeAll, describe, expect, test } from "bun:test";
import { ApiClient, expectError } from "../../helpers/client.ts";
import { queryDb } from "../../helpers/seed.ts";
import { type TestServer, useApi } from "../../helpers/server.ts";
import {
  buy, codes, commit, commitOk, countRows, createAsset, createBroker, deposit, eur, list, transferPair, validate,
} from "./fixtures.ts";

const api = useApi();
let server: TestServer;
let c: ApiClient;
let broker = 0;
let other = 0;
let asset = 0;

beforeAll(async () => {
  server = api.server;
  c = new ApiClient(server.base);
  await c.signUp("batcher");
  broker = await createBroker(c, "Main");
  other = await createBroker(c, "Other", { allow_asset_shorting: true });
  asset = createAsset(server.dataDir);
  await commitOk(c, { creates: [deposit(broker, "1000")] });
});

describe("all-or-nothing commit", () => {
  test("one bad row among good ones leaves nothing written", async () => {
    const before = countRows(server.dataDir);
    const listed = (await list(c)).length;
    const out = await commit(c, { creates: [deposit(broker, "5"), buy(broker, asset, "1", "-10"), { ...deposit(broker, "7"), quantity: "3" }, deposit(broker, "9")] });
    expect(out.committed).toBe(false);
    expect(codes(out)).toEqual(["qtyZero"]);
    expect(out.results.map((r) => r.status)).toEqual(["not_attempted", "not_attempted", "failed", "not_attempted"]);
    expect(out.results.every((r) => r.ids.length === 0)).toBe(true);
    expect(out.success_count).toBe(0);
    expect(countRows(server.dataDir)).toBe(before);
    expect((await list(c)).length).toBe(listed);
  });

  test("a balance found negative after writing rolls back every row already written, deletes and updates included", async () => {
    const [keep] = await commitOk(c, { creates: [deposit(broker, "1", "2024-06-01")] });
    const before = queryDb(server.dataDir, "SELECT * FROM transactions ORDER BY id");
    const again = await commit(c, { deletes: [keep], creates: [deposit(broker, "50"), buy(broker, asset, "10", "-5000")] });
    expect(codes(again)).toEqual(["balanceCashNegative"]);
    expect(again.issues[0]).toMatchObject({ index: -1, operation: "delete", params: { broker_id: broker, currency: "EUR", date: "2024-01-02" } });
    expect(again.results.map((r) => r.status)).toEqual(["not_attempted", "not_attempted", "not_attempted"]);
    expect(queryDb(server.dataDir, "SELECT * FROM transactions ORDER BY id")).toEqual(before);
  });

  test("a successful commit answers every operation with success and the new ids", async () => {
    const out = await commit(c, { creates: [deposit(broker, "2"), deposit(broker, "3")] });
    expect(out.committed).toBe(true);
    expect(out.success_count).toBe(2);
    expect(out.results.map((r) => r.status)).toEqual(["success", "success"]);
    const [a, b] = out.results.map((r) => r.ids[0]!);
    expect(b).toBe(a! + 1);
    expect((await list(c, `ids=${a}&ids=${b}`)).map((t) => t.cash)).toEqual([eur("2"), eur("3")]);
  });

  test("a batch of more rows than one insert statement holds answers each create with the id of the row written for it (a NUL in a description dropped on PostgreSQL, kept on SQLite)", async () => {
    // 1,234 rows: several statements on either database (SQLite 100 rows each, PostgreSQL 500).
    const creates = Array.from({ length: 1234 }, (_, i) => ({ ...deposit(other, `${i + 1}.25`, "2024-03-01"), description: i === 700 ? "bin\u0000ary" : `row ${i}` }));
    const ids = await commitOk(c, { creates });
    expect(new Set(ids).size).toBe(1234);
    const rows = queryDb<{ id: number; description: string; amount: string }>(server.dataDir,
      `SELECT id, description, amount FROM transactions WHERE broker_id = ? AND date = '2024-03-01'`, other);
    const byId = new Map(rows.map((r) => [Number(r.id), r]));
    ids.forEach((id, i) => {
      const row = byId.get(id)!;
      expect(row.description.replaceAll("\u0000", "")).toBe(i === 700 ? "binary" : `row ${i}`);
      expect(Number(row.amount)).toBe(i + 1.25);
    });
  });

  test("an empty batch commits nothing and succeeds", async () => {
    const out = await commit(c, {});
    expect(out).toMatchObject({ committed: true, results: [], issues: [], success_count: 0, errors: [] });
  });
});

describe("validate is a dry run", () => {
  test("a valid batch is simulated: statuses simulated, committed false, nothing written", async () => {
    const before = queryDb(server.dataDir, "SELECT * FROM transactions ORDER BY id");
    const [first] = before as { id: number }[];
    const out = await validate(c, { creates: [deposit(broker, "5")], updates: [{ id: first!.id, description: "changed" }] });
    expect(out.issues).toEqual([]);
    expect(out.committed).toBe(false);
    expect(out.results.map((r) => r.status)).toEqual(["simulated", "simulated"]);
    expect(out.success_count).toBe(2);
    expect(queryDb(server.dataDir, "SELECT * FROM transactions ORDER BY id")).toEqual(before);
  });

  test("validate reports the same issues as commit would", async () => {
    const body = { creates: [buy(broker, asset, "1", "-999999")] };
    expect(codes(await validate(c, body))).toEqual(codes(await commit(c, body)));
    expect(codes(await validate(c, body))).toEqual(["balanceCashNegative"]);
  });
});

describe("order of application: deletes → updates → creates → splits → promotes", () => {
  test("an update of a row deleted in the same batch finds nothing", async () => {
    const [id] = await commitOk(c, { creates: [deposit(broker, "1")] });
    const out = await validate(c, { deletes: [id], updates: [{ id, description: "too late" }] });
    expect(out.issues).toEqual([expect.objectContaining({ operation: "update", index: 0, ref_id: id, code: "txNotFound" })]);
  });

  test("an update runs before the split of the same pair, and creates before the promote that names them", async () => {
    const ids = await commitOk(c, { creates: [buy(broker, asset, "5", "-50"), ...transferPair(broker, other, asset, "2", "order")] });
    const out = await commit(c, {
      updates: [{ id: ids[1], description: "moving" }],
      splits: [{ id_a: ids[1], id_b: ids[2] }],
      creates: [{ ...deposit(other, "4", "2024-03-01"), link_uuid: "w" }, { ...deposit(broker, "-4", "2024-03-01"), type: "WITHDRAWAL", link_uuid: "v" }],
      promotes: [{ link_uuid_a: "v", link_uuid_b: "w" }],
    });
    expect(out.issues).toEqual([]);
    const [moved] = await list(c, `ids=${ids[1]}`);
    expect(moved).toMatchObject({ type: "ADJUSTMENT", description: "moving", related_transaction_id: null });
    const promoted = out.results.find((r) => r.operation === "promote")!.ids;
    expect((await list(c, `ids=${promoted[0]}&ids=${promoted[1]}`)).map((t) => t.type)).toEqual(["CASH_TRANSFER", "CASH_TRANSFER"]);
  });
});

describe("a malformed envelope is 422 VALIDATION_ERROR", () => {
  const cases: [string, unknown][] = [
    ["an array instead of an object", [{ creates: [] }]],
    ["creates that is not an array", { creates: { broker_id: 1 } }],
    ["an unknown top-level key", { inserts: [] }],
  ];
  for (const [name, body] of cases) {
    test(name, async () => {
      await expectError(await c.post("/transactions/commit", body), 422, "VALIDATION_ERROR");
      await expectError(await c.post("/transactions/validate", body), 422, "VALIDATION_ERROR");
    });
  }
});

describe("a batch over a list's limit is refused whole: 413 LIMIT_EXCEEDED naming it", () => {
  const cases: [string, unknown, string][] = [
    ["more than 100 splits", { splits: Array.from({ length: 101 }, () => ({ id_a: 1, id_b: 2 })) }, "at most 100 splits per request; this one asks for 101"],
    ["more than 100 promotes", { promotes: Array.from({ length: 101 }, () => ({ id_a: 1, id_b: 2 })) }, "at most 100 promotes per request; this one asks for 101"],
    ["more than 10,000 creates", { creates: Array.from({ length: 10_001 }, () => ({})) }, "at most 10,000 creates per request; this one asks for 10,001"],
  ];
  for (const [name, body, message] of cases) {
    test(name, async () => {
      expect((await expectError(await c.post("/transactions/commit", body), 413, "LIMIT_EXCEEDED")).detail).toContain(message);
      expect((await expectError(await c.post("/transactions/validate", body), 413, "LIMIT_EXCEEDED")).detail).toContain(message);
    });
  }
});
