import { beforeAll, describe, expect, test } from "bun:test";
import { ApiClient } from "../../helpers/client.ts";
import { type TestServer, useApi } from "../../helpers/server.ts";
import { buy, codes, commit, commitOk, createAsset, deposit, eur, getTx, looseBroker, transferPair, validate } from "./fixtures.ts";

const api = useApi();
let server: TestServer;
let c: ApiClient;
let a = 0;
let b = 0;
let asset = 0;

beforeAll(async () => {
  server = api.server;
  c = new ApiClient(server.base);
  await c.signUp("updater");
  a = await looseBroker(c, "A");
  b = await looseBroker(c, "B");
  asset = createAsset(server.dataDir);
});

describe("swap groups: type changes only by a sign flip within its group", () => {
  const rows = {
    BUY: ["SELL", { quantity: "-1", cash: eur("10") }],
    DEPOSIT: ["WITHDRAWAL", { cash: eur("-10") }],
    DIVIDEND: ["INTEREST", {}],
    TAX: ["FEE", {}],
  } as const;
  const create = {
    BUY: buy(0, 0, "1", "-10"),
    DEPOSIT: deposit(0, "10"),
    DIVIDEND: { type: "DIVIDEND", date: "2024-01-01", cash: eur("3") },
    TAX: { type: "TAX", date: "2024-01-01", cash: eur("-3") },
  };
  for (const [from, [to, fields]] of Object.entries(rows)) {
    test(`${from} ↔ ${to}`, async () => {
      const [id] = await commitOk(c, { creates: [{ ...create[from as keyof typeof create], broker_id: a, asset_id: from === "DEPOSIT" ? undefined : asset }] });
      await commitOk(c, { updates: [{ id, type: to, ...fields }] });
      expect((await getTx(c, id!))!.type).toBe(to);
    });
  }

  test("a swap without flipping the signs fails the new type's rules", async () => {
    const [id] = await commitOk(c, { creates: [buy(a, asset, "1", "-10")] });
    expect(codes(await validate(c, { updates: [{ id, type: "SELL" }] }))).toEqual(["cashSignPositive", "qtyNegative"]);
  });

  test("any other type change is typeSwapForbidden", async () => {
    const [id] = await commitOk(c, { creates: [buy(a, asset, "1", "-10")] });
    const out = await validate(c, { updates: [{ id, type: "DIVIDEND", quantity: "0", cash: eur("1") }] });
    expect(out.issues[0]).toMatchObject({ code: "typeSwapForbidden", ref_id: id, params: { from: "BUY", to: "DIVIDEND", allowed: ["BUY", "SELL"] } });
    const [out2] = await commitOk(c, { creates: transferPair(a, b, asset, "1", "sw") });
    expect(codes(await validate(c, { updates: [{ id: out2, type: "ADJUSTMENT" }] }))).toEqual(["typeSwapForbidden"]);
  });
});

describe("update semantics", () => {
  test("absent fields stay, null clears, tags are replaced", async () => {
    const [id] = await commitOk(c, { creates: [{ ...deposit(a, "10"), description: "first", tags: "x, y" }] });
    expect(await getTx(c, id!)).toMatchObject({ description: "first", tags: ["x", "y"] });
    await commitOk(c, { updates: [{ id, date: "2024-05-05" }] });
    expect(await getTx(c, id!)).toMatchObject({ date: "2024-05-05", description: "first", tags: ["x", "y"], cash: eur("10") });
    await commitOk(c, { updates: [{ id, description: null, tags: ["z"] }] });
    expect(await getTx(c, id!)).toMatchObject({ description: null, tags: ["z"] });
  });

  test("broker_id, asset_id, related_transaction_id and link_uuid are not updatable; id is required", async () => {
    const [id] = await commitOk(c, { creates: [deposit(a, "10")] });
    const out = await validate(c, { updates: [{ id, broker_id: b }, { id, asset_id: asset }, { description: "no id" }] });
    expect(codes(out, "update", 0)).toEqual(["fieldNotUpdatable"]);
    expect(codes(out, "update", 1)).toEqual(["fieldNotUpdatable"]);
    expect(codes(out, "update", 2)).toEqual(["idRequired"]);
  });

  test("an update is validated as the whole merged row", async () => {
    const [id] = await commitOk(c, { creates: [deposit(a, "10")] });
    expect(codes(await validate(c, { updates: [{ id, quantity: "1" }] }))).toEqual(["qtyZero"]);
    expect(codes(await validate(c, { updates: [{ id, cash: null }] }))).toEqual(["cashRequired"]);
  });

  test("updated_at moves on update; created_at stays", async () => {
    const [id] = await commitOk(c, { creates: [deposit(a, "10")] });
    const before = (await getTx(c, id!))!;
    await Bun.sleep(1100);
    await commitOk(c, { updates: [{ id, description: "later" }] });
    const after = (await getTx(c, id!))!;
    expect(after.created_at).toBe(before.created_at);
    expect(String(after.updated_at) > String(before.updated_at)).toBe(true);
  });

  test("a rejected update keeps the stored row", async () => {
    const [id] = await commitOk(c, { creates: [deposit(a, "10")] });
    const res = await commit(c, { updates: [{ id, description: "kept?" }, { id, quantity: "4" }] });
    expect(res.committed).toBe(false);
    expect((await getTx(c, id!))!.description).toBeNull();
  });
});
