import { beforeAll, describe, expect, test } from "bun:test";
import { ApiClient } from "../../helpers/client.ts";
import { type TestServer, useApi } from "../../helpers/server.ts";
import {
  buy, codes, commit, commitOk, createAsset, deposit, eur, list, looseBroker, type Row, transferPair, usd, validate, withdrawal,
} from "./fixtures.ts";

const api = useApi();
let server: TestServer;
let c: ApiClient;
let a = 0;
let b = 0;
let asset = 0;

beforeAll(async () => {
  server = api.server;
  c = new ApiClient(server.base);
  await c.signUp("splitter");
  a = await looseBroker(c, "A");
  b = await looseBroker(c, "B");
  asset = createAsset(server.dataDir);
});

const types = async (...ids: number[]) => (await list(c, ids.map((i) => `ids=${i}`).join("&"))).map((t) => [t.type, t.related_transaction_id]);
const adjustment = (broker_id: number, quantity: string, extra: Row = {}): Row =>
  ({ broker_id, asset_id: asset, type: "ADJUSTMENT", date: "2024-02-01", quantity, ...extra });

describe("split", () => {
  test("a TRANSFER pair splits into two unlinked ADJUSTMENTs that keep quantity and cost basis", async () => {
    const [out, inn] = await commitOk(c, { creates: transferPair(a, b, asset, "4", "s1") });
    const res = await commit(c, { splits: [{ id_a: inn, id_b: out }] });
    expect(res.results).toEqual([{ operation: "split", index: 0, ids: [inn!, out!], link_uuid: null, status: "success" }]);
    const [x, y] = await list(c, `ids=${out}&ids=${inn}`);
    expect(x).toMatchObject({ type: "ADJUSTMENT", quantity: "-4", related_transaction_id: null, partner_broker_id: null });
    expect(y).toMatchObject({ type: "ADJUSTMENT", quantity: "4", cost_basis_override: eur("10") });
  });

  test("FX_CONVERSION and CASH_TRANSFER pairs split into WITHDRAWAL (negative leg) and DEPOSIT (positive leg)", async () => {
    const fx = await commitOk(c, { creates: [
      { broker_id: a, type: "FX_CONVERSION", date: "2024-02-01", cash: usd("11"), link_uuid: "fx" },
      { broker_id: a, type: "FX_CONVERSION", date: "2024-02-01", cash: eur("-10"), link_uuid: "fx" },
    ] });
    const wire = await commitOk(c, { creates: [
      { broker_id: a, type: "CASH_TRANSFER", date: "2024-02-01", cash: eur("-10"), link_uuid: "ct" },
      { broker_id: b, type: "CASH_TRANSFER", date: "2024-02-01", cash: eur("10"), link_uuid: "ct" },
    ] });
    await commitOk(c, { splits: [{ id_a: fx[0], id_b: fx[1] }, { id_a: wire[0], id_b: wire[1] }] });
    expect(await types(...fx, ...wire)).toEqual([["DEPOSIT", null], ["WITHDRAWAL", null], ["WITHDRAWAL", null], ["DEPOSIT", null]]);
  });

  test("typeCannotSplit for a standalone type; splitIdsMismatch for two legs of different pairs", async () => {
    const [p1, p2] = await commitOk(c, { creates: [buy(a, asset, "1", "-1"), buy(a, asset, "1", "-1")] });
    expect(codes(await validate(c, { splits: [{ id_a: p1, id_b: p2 }] }))).toEqual(["typeCannotSplit"]);
    const one = await commitOk(c, { creates: transferPair(a, b, asset, "1", "m1") });
    const two = await commitOk(c, { creates: transferPair(a, b, asset, "1", "m2") });
    expect(codes(await validate(c, { splits: [{ id_a: one[0], id_b: two[1] }] }))).toEqual(["splitIdsMismatch"]);
    expect(codes(await validate(c, { splits: [{ id_a: 999999, id_b: one[1] }] }))).toEqual(["txNotFound"]);
  });
});

describe("promote", () => {
  test("two saved ADJUSTMENTs (same asset, two brokers, opposite quantities) become a TRANSFER pair", async () => {
    const [x, y] = await commitOk(c, { creates: [adjustment(a, "-2"), adjustment(b, "2", { cost_basis_override: eur("7") })] });
    const res = await commit(c, { promotes: [{ id_a: x, id_b: y, resolved_fields: { description: "moved", tags: ["move"] } }] });
    expect(res.results).toEqual([{ operation: "promote", index: 0, ids: [x!, y!], link_uuid: null, status: "success" }]);
    const rows = await list(c, `ids=${x}&ids=${y}`);
    expect(rows.map((t) => [t.type, t.related_transaction_id, t.description, t.tags])).toEqual([
      ["TRANSFER", y, "moved", ["move"]], ["TRANSFER", x, "moved", ["move"]],
    ]);
  });

  test("new + new by link_uuid, and saved + new, make CASH_TRANSFER or FX_CONVERSION by currency", async () => {
    const res = await commit(c, {
      creates: [{ ...withdrawal(a, "-5"), link_uuid: "n1" }, { ...deposit(b, "5"), link_uuid: "n2" }],
      promotes: [{ link_uuid_a: "n1", link_uuid_b: "n2" }],
    });
    expect(res.issues).toEqual([]);
    const pair = res.results.find((r) => r.operation === "promote")!.ids;
    expect(await types(...pair)).toEqual([["CASH_TRANSFER", pair[1]], ["CASH_TRANSFER", pair[0]]]);
    const [saved] = await commitOk(c, { creates: [withdrawal(a, "-9")] });
    const fx = await commit(c, { creates: [{ ...deposit(a, "10", "2024-01-01", "USD"), link_uuid: "fxin" }], promotes: [{ id_a: saved, link_uuid_b: "fxin" }] });
    expect(fx.issues).toEqual([]);
    expect((await types(saved!))[0]![0]).toBe("FX_CONVERSION");
  });

  test("promoteRefNotFound, alreadyPaired and noPromoteRule", async () => {
    const [w] = await commitOk(c, { creates: [withdrawal(a, "-1")] });
    expect(codes(await validate(c, { promotes: [{ id_a: w, id_b: 999999 }] }))).toEqual(["promoteRefNotFound"]);
    expect(codes(await validate(c, { promotes: [{ id_a: w, link_uuid_b: "nowhere" }] }))).toEqual(["promoteRefNotFound"]);
    const [out] = await commitOk(c, { creates: transferPair(a, b, asset, "1", "ap") });
    expect(codes(await validate(c, { promotes: [{ id_a: out, id_b: w }] }))).toEqual(["alreadyPaired"]);
    const [p, q] = await commitOk(c, { creates: [buy(a, asset, "1", "-1"), deposit(b, "1")] });
    expect(codes(await validate(c, { promotes: [{ id_a: p, id_b: q }] }))).toEqual(["noPromoteRule"]);
    expect(codes(await validate(c, { promotes: [{ id_a: p }] }))).toEqual(["parseError"]);
  });

  test("the promoted pair must meet the pair constraints (a same-broker ADJUSTMENT pair is no TRANSFER)", async () => {
    const [x, y] = await commitOk(c, { creates: [adjustment(a, "-1"), adjustment(a, "1", { cost_basis_override: eur("1") })] });
    expect(codes(await validate(c, { promotes: [{ id_a: x, id_b: y }] }))).toEqual(["pairSameBroker"]);
  });
});

describe("POST /transactions/transfers/promote", () => {
  test("a WITHDRAWAL and a DEPOSIT become a CASH_TRANSFER in place", async () => {
    const [w, d] = await commitOk(c, { creates: [withdrawal(a, "-3"), deposit(b, "3")] });
    const res = await c.post("/transactions/transfers/promote", { from_tx_id: w, to_tx_id: d, new_type: "CASH_TRANSFER" });
    expect(await res.json()).toEqual({ rolled_back: false, new_from_tx_id: w, new_to_tx_id: d, errors: [] });
    expect(await types(w!, d!)).toEqual([["CASH_TRANSFER", d], ["CASH_TRANSFER", w]]);
  });

  test("new_type FX_CONVERSION on one currency is refused and nothing changes", async () => {
    const [w, d] = await commitOk(c, { creates: [withdrawal(a, "-3"), deposit(a, "3")] });
    const out = await (await c.post("/transactions/transfers/promote", { from_tx_id: w, to_tx_id: d, new_type: "FX_CONVERSION" })).json();
    expect(out.rolled_back).toBe(true);
    expect(out.errors[0]).toStartWith("noPromoteRule");
    expect(await types(w!, d!)).toEqual([["WITHDRAWAL", null], ["DEPOSIT", null]]);
  });

  test("new_type TRANSFER replaces both rows with two TRANSFER legs of the asset, the receiver carrying the cost basis", async () => {
    const [w, d] = await commitOk(c, { creates: [withdrawal(a, "-30", "2024-03-01"), deposit(b, "30", "2024-03-02")] });
    const body = { from_tx_id: w, to_tx_id: d, new_type: "TRANSFER", asset_id: asset, quantity: "3", cost_basis_override: eur("10") };
    const out = await (await c.post("/transactions/transfers/promote", body)).json();
    expect(out.rolled_back).toBe(false);
    expect(await list(c, `ids=${w}&ids=${d}`)).toEqual([]);
    const legs = await list(c, `ids=${out.new_from_tx_id}&ids=${out.new_to_tx_id}`);
    expect(legs.map((t) => [t.type, t.broker_id, t.quantity, t.date, t.cost_basis_override])).toEqual([
      ["TRANSFER", a, "-3", "2024-03-01", null], ["TRANSFER", b, "3", "2024-03-02", eur("10")],
    ]);
  });

  test("a TRANSFER promote without a cost basis is refused with costBasisRequired", async () => {
    const [w, d] = await commitOk(c, { creates: [withdrawal(a, "-1"), deposit(b, "1")] });
    const out = await (await c.post("/transactions/transfers/promote", { from_tx_id: w, to_tx_id: d, new_type: "TRANSFER", asset_id: asset, quantity: "1" })).json();
    expect(out.rolled_back).toBe(true);
    expect(out.errors.join()).toContain("costBasisRequired");
  });
});

describe("POST /transactions/promote-suggest", () => {
  test("finds unlinked counterparts within the tolerance: opposite ADJUSTMENTs, matching WITHDRAWAL/DEPOSIT, unsaved rows", async () => {
    const [out, inn, far, dep] = await commitOk(c, { creates: [
      adjustment(a, "-6", { date: "2025-05-01" }), adjustment(b, "6", { date: "2025-05-03", cost_basis_override: eur("1") }),
      adjustment(b, "6", { date: "2025-06-30", cost_basis_override: eur("1") }), deposit(b, "77", "2025-05-02"),
    ] });
    const res = await c.post("/transactions/promote-suggest?tolerance_days=5", [
      { id: out, type: "ADJUSTMENT", broker_id: a, date: "2025-05-01", asset_id: asset, quantity: "-6" },
      { id: -1, type: "WITHDRAWAL", broker_id: a, date: "2025-05-01", currency: "EUR", amount: "-77" },
      { id: -2, type: "DEPOSIT", broker_id: b, date: "2025-05-02", currency: "EUR", amount: "77" },
    ]);
    expect(res.status).toBe(200);
    const { results } = await res.json();
    expect(results[String(out)].map((r: Row) => r.id)).toEqual([inn]);
    expect(results["-1"].map((r: Row) => r.id)).toEqual([-2, dep]);
    expect(results[String(out)]).not.toContainEqual(expect.objectContaining({ id: far }));
  });
});
