import { beforeAll, describe, expect, test } from "bun:test";
import { Decimal } from "../../../core/money/decimal.ts";
import { ApiClient } from "../../helpers/client.ts";
import { queryDb, seedAssetEvent } from "../../helpers/seed.ts";
import { type TestServer, useApi } from "../../helpers/server.ts";
import { buy, codes, commit, commitOk, createAsset, createBroker, eur, getTx, looseBroker, type Row, transferPair, usd, validate } from "./fixtures.ts";

const api = useApi();
let server: TestServer;
let c: ApiClient;
let a = 0;
let b = 0;

beforeAll(async () => {
  server = api.server;
  c = new ApiClient(server.base);
  await c.signUp("coster");
  a = await looseBroker(c, "A");
  b = await looseBroker(c, "B");
});

const adjustment = (broker_id: number, asset_id: number, quantity: string, extra: Row = {}): Row =>
  ({ broker_id, asset_id, type: "ADJUSTMENT", date: "2024-02-01", quantity, ...extra });

/** A row stored before the rule existed: an inbound ADJUSTMENT without a cost basis. */
function legacyAdjustment(broker: number, asset: number, quantity: string): number {
  queryDb(server.dataDir, "INSERT INTO transactions (broker_id, asset_id, type, date, quantity) VALUES (?, ?, 'ADJUSTMENT', '2024-02-01', ?)", broker, asset, quantity);
  return queryDb<{ id: number }>(server.dataDir, "SELECT MAX(id) AS id FROM transactions")[0]!.id;
}

describe("costBasisRequired on create", () => {
  test("an inbound ADJUSTMENT or TRANSFER leg without cost_basis_override is refused, mode absent or manual", async () => {
    const asset = createAsset(server.dataDir);
    const out = await validate(c, { creates: [
      adjustment(a, asset, "5"), adjustment(a, asset, "5", { cost_basis_mode: "manual" }),
      ...transferPair(a, b, asset, "1", "t", {}),
    ] });
    expect(out.issues.map((i) => [i.operation, i.index, i.code, i.field])).toEqual([
      ["create", 0, "costBasisRequired", "cost_basis_override"], ["create", 1, "costBasisRequired", "cost_basis_override"],
      ["create", 3, "costBasisRequired", "cost_basis_override"],
    ]);
  });

  test("an override, an auto mode or a link to a SPLIT event exempts the row", async () => {
    const asset = createAsset(server.dataDir);
    const split = seedAssetEvent(server.dataDir, { assetId: asset, date: "2024-02-01", type: "SPLIT", value: "2", currency: "EUR" });
    await commitOk(c, { creates: [
      buy(a, asset, "1", "-10", "2024-01-01"), adjustment(a, asset, "5", { cost_basis_override: eur("0") }),
      adjustment(a, asset, "5", { asset_event_id: split }), adjustment(a, asset, "5", { cost_basis_mode: "auto" }),
    ] });
  });
});

describe("costBasisRequired on update", () => {
  test("clearing the override of an inbound ADJUSTMENT, or turning an outbound one inbound, is refused", async () => {
    const asset = createAsset(server.dataDir);
    const [inbound, outbound] = await commitOk(c, { creates: [adjustment(a, asset, "5", { cost_basis_override: eur("3") }), adjustment(a, asset, "-1")] });
    const out = await validate(c, { updates: [{ id: inbound, cost_basis_override: null }, { id: outbound, quantity: "1" }] });
    expect(out.issues.map((i) => [i.operation, i.index, i.ref_id, i.code])).toEqual([
      ["update", 0, inbound, "costBasisRequired"], ["update", 1, outbound, "costBasisRequired"],
    ]);
  });

  test("every update of a stored inbound row without cost basis is refused until one is given", async () => {
    const asset = createAsset(server.dataDir);
    const legacy = legacyAdjustment(a, asset, "2");
    expect(codes(await validate(c, { updates: [{ id: legacy, description: "just a note" }] }))).toEqual(["costBasisRequired"]);
    await commitOk(c, { updates: [{ id: legacy, description: "with cost", cost_basis_override: eur("4.5") }] });
  });
});

describe("costBasisRequired on promote", () => {
  test("promoting a stored inbound ADJUSTMENT without cost basis is refused; resolved_fields.cost_basis_override fixes it", async () => {
    const asset = createAsset(server.dataDir);
    const [out] = await commitOk(c, { creates: [adjustment(a, asset, "-2")] });
    const inn = legacyAdjustment(b, asset, "2");
    const refused = await validate(c, { promotes: [{ id_a: out, id_b: inn }] });
    expect(refused.issues.map((i) => [i.operation, i.index, i.ref_id, i.code])).toEqual([["promote", 0, inn, "costBasisRequired"]]);
    await commitOk(c, { promotes: [{ id_a: out, id_b: inn, resolved_fields: { cost_basis_override: eur("8") } }] });
    expect(await getTx(c, inn)).toMatchObject({ type: "TRANSFER", cost_basis_override: eur("8") });
    expect((await getTx(c, out!))!.cost_basis_override).toBeNull();
  });

  test("the check reads the final row: an inbound create without cost basis passes when the promote resolves one", async () => {
    const asset = createAsset(server.dataDir);
    const res = await commit(c, {
      creates: [{ ...adjustment(a, asset, "-1"), link_uuid: "o" }, { ...adjustment(b, asset, "1"), link_uuid: "i" }],
      promotes: [{ link_uuid_a: "o", link_uuid_b: "i" }],
    });
    expect(res.issues.map((i) => [i.operation, i.index, i.code])).toEqual([["promote", 0, "costBasisRequired"]]);
    const ok = await commit(c, {
      creates: [{ ...adjustment(a, asset, "-1"), link_uuid: "o" }, { ...adjustment(b, asset, "1"), link_uuid: "i" }],
      promotes: [{ link_uuid_a: "o", link_uuid_b: "i", resolved_fields: { cost_basis_override: eur("2") } }],
    });
    expect(ok.issues).toEqual([]);
  });
});

describe("cost_basis_mode auto takes the sender's weighted average cost", () => {
  test("a TRANSFER in-leg stores the out-leg broker's WAC per unit at the transfer date, exactly", async () => {
    const asset = createAsset(server.dataDir);
    const sender = await createBroker(c, "Sender");
    await commitOk(c, { creates: [
      { broker_id: sender, type: "DEPOSIT", date: "2024-01-01", cash: eur("1000") },
      buy(sender, asset, "3", "-10", "2024-01-02"), buy(sender, asset, "4", "-20.5", "2024-01-03"),
      { broker_id: sender, asset_id: asset, type: "SELL", date: "2024-01-04", quantity: "-2", cash: eur("30") },
      buy(sender, asset, "100", "-1", "2024-03-01"),
    ] });
    const [, inn] = await commitOk(c, { creates: transferPair(sender, b, asset, "1", "auto", { cost_basis_mode: "auto" }) });
    const expected = new Decimal("30.5").dividedBy(7).toFixed();
    expect(expected).toBe("4.357142857142857142857142857142857");
    expect(await getTx(c, inn!)).toMatchObject({ cost_basis_override: eur(expected), cost_basis_mode: "auto" });
  });

  test("auto-detail also answers wac_results; validate computes them without writing", async () => {
    const asset = createAsset(server.dataDir);
    await commitOk(c, { creates: [buy(a, asset, "4", "-50", "2024-01-05")] });
    const body = { creates: transferPair(a, b, asset, "2", "detail", { cost_basis_mode: "auto-detail" }) };
    const dry = await validate(c, body);
    expect(dry.wac_results).toEqual([{
      operation: "create", index: 1, transaction_id: expect.any(Number), sender_broker_id: a, asset_id: asset, date: "2024-02-01",
      quantity_held: "4", total_cost: eur("50"), wac_per_unit: eur("12.5"),
    }]);
    expect(queryDb(server.dataDir, "SELECT id FROM transactions WHERE id = ?", dry.wac_results![0]!.transaction_id)).toEqual([]);
    const wet = await commit(c, body);
    expect((await getTx(c, wet.wac_results![0]!.transaction_id))!.cost_basis_override).toEqual(eur("12.5"));
  });

  test("an auto ADJUSTMENT takes the same broker's WAC before the row", async () => {
    const asset = createAsset(server.dataDir);
    const [, , gift] = await commitOk(c, { creates: [
      buy(a, asset, "1", "-10", "2024-01-01"), buy(a, asset, "1", "-20", "2024-01-02"),
      adjustment(a, asset, "1", { date: "2024-01-03", cost_basis_mode: "auto" }),
    ] });
    expect((await getTx(c, gift!))!.cost_basis_override).toEqual(eur("15"));
  });

  test("costBasisUnavailable when the sender holds no units with a cost; wacFxUnavailable when its costs are in another currency", async () => {
    const asset = createAsset(server.dataDir);
    const none = await validate(c, { creates: transferPair(a, b, asset, "1", "none", { cost_basis_mode: "auto" }) });
    expect(none.issues.map((i) => [i.operation, i.index, i.code])).toEqual([["create", 1, "costBasisUnavailable"]]);
    await commitOk(c, { creates: [{ ...buy(a, asset, "1", "-10", "2024-01-01"), cash: usd("-10") }] });
    const fx = await validate(c, { creates: transferPair(a, b, asset, "1", "fx", { cost_basis_mode: "auto" }) });
    expect(codes(fx)).toEqual(["wacFxUnavailable"]);
  });
});
