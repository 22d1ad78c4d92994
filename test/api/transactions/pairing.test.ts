import { beforeAll, describe, expect, test } from "bun:test";
import { ApiClient } from "../../helpers/client.ts";
import { queryDb } from "../../helpers/seed.ts";
import { type TestServer, useApi } from "../../helpers/server.ts";
import { buy, codes, commit, commitOk, createAsset, eur, list, looseBroker, type Row, transferPair, usd, validate } from "./fixtures.ts";

const api = useApi();
let server: TestServer;
let c: ApiClient;
let a = 0;
let b = 0;
let asset = 0;

beforeAll(async () => {
  server = api.server;
  c = new ApiClient(server.base);
  await c.signUp("pairer");
  a = await looseBroker(c, "A");
  b = await looseBroker(c, "B");
  asset = createAsset(server.dataDir);
});

const cashLeg = (type: string, broker_id: number, cash: Row, link_uuid: string, date = "2024-02-01"): Row => ({ broker_id, type, date, cash, link_uuid });

describe("pairing by link_uuid", () => {
  test("each leg's related_transaction_id points at the other; partner_broker_id is filled on read", async () => {
    const [out, inn] = await commitOk(c, { creates: transferPair(a, b, asset, "3", "t1") });
    const [x, y] = await list(c, `ids=${out}&ids=${inn}`);
    expect(x).toMatchObject({ related_transaction_id: inn, partner_broker_id: b, quantity: "-3" });
    expect(y).toMatchObject({ related_transaction_id: out, partner_broker_id: a, quantity: "3", cost_basis_override: eur("10") });
    expect(queryDb(server.dataDir, "SELECT related_transaction_id AS r FROM transactions WHERE id IN (?, ?) ORDER BY id", out, inn)).toEqual([{ r: inn }, { r: out }]);
  });

  test("the two legs may have different dates (in transit between them)", async () => {
    const [out, inn] = transferPair(a, b, asset, "1", "transit");
    const ids = await commitOk(c, { creates: [out!, { ...inn!, date: "2024-02-05" }] });
    expect((await list(c, `ids=${ids[0]}&ids=${ids[1]}`)).map((t) => t.date)).toEqual(["2024-02-01", "2024-02-05"]);
  });

  test("FX_CONVERSION pairs two currencies in one broker; CASH_TRANSFER one currency across two brokers", async () => {
    await commitOk(c, { creates: [cashLeg("FX_CONVERSION", a, eur("-100"), "fx"), cashLeg("FX_CONVERSION", a, usd("108.25"), "fx")] });
    await commitOk(c, { creates: [cashLeg("CASH_TRANSFER", a, eur("-40"), "wire"), cashLeg("CASH_TRANSFER", b, eur("40"), "wire")] });
  });

  test("linkUuidPairCount: a lone leg, or three rows sharing a uuid, are refused on every row", async () => {
    const [out] = transferPair(a, b, asset, "1", "lone");
    expect(codes(await validate(c, { creates: [out!] }))).toEqual(["linkUuidPairCount"]);
    const three = await validate(c, { creates: [...transferPair(a, b, asset, "1", "tri"), { ...out!, link_uuid: "tri" }] });
    expect(three.issues.map((i) => [i.index, i.code, i.params?.count])).toEqual([[0, "linkUuidPairCount", 3], [1, "linkUuidPairCount", 3], [2, "linkUuidPairCount", 3]]);
  });

  test("pair constraints: TRANSFER same asset, different broker, opposite quantity", async () => {
    const other = createAsset(server.dataDir);
    const [out, inn] = transferPair(a, b, asset, "2", "p");
    expect(codes(await validate(c, { creates: [out!, { ...inn!, asset_id: other }] }))).toEqual(["pairAssetMismatch"]);
    expect(codes(await validate(c, { creates: [out!, { ...inn!, broker_id: a }] }))).toEqual(["pairSameBroker"]);
    expect(codes(await validate(c, { creates: [out!, { ...inn!, quantity: "3" }] }))).toEqual(["pairQuantityNotOpposite"]);
  });

  test("pair constraints: FX_CONVERSION different currency and same broker; CASH_TRANSFER same currency, different brokers, opposite amounts", async () => {
    expect(codes(await validate(c, { creates: [cashLeg("FX_CONVERSION", a, eur("-1"), "f"), cashLeg("FX_CONVERSION", a, eur("1"), "f")] }))).toEqual(["pairSameCurrency"]);
    expect(codes(await validate(c, { creates: [cashLeg("FX_CONVERSION", a, eur("-1"), "f"), cashLeg("FX_CONVERSION", b, usd("1"), "f")] }))).toEqual(["pairBrokerMismatch"]);
    expect(codes(await validate(c, { creates: [cashLeg("CASH_TRANSFER", a, eur("-1"), "w"), cashLeg("CASH_TRANSFER", b, usd("1"), "w")] }))).toEqual(["pairCurrencyMismatch"]);
    expect(codes(await validate(c, { creates: [cashLeg("CASH_TRANSFER", a, eur("-1"), "w"), cashLeg("CASH_TRANSFER", a, eur("1"), "w")] }))).toEqual(["pairSameBroker"]);
    expect(codes(await validate(c, { creates: [cashLeg("CASH_TRANSFER", a, eur("-1"), "w"), cashLeg("CASH_TRANSFER", b, eur("1.5"), "w")] }))).toEqual(["pairAmountNotOpposite"]);
  });

  test("both legs must have the same type", async () => {
    const [out] = transferPair(a, b, asset, "2", "mix");
    expect(codes(await validate(c, { creates: [out!, cashLeg("CASH_TRANSFER", b, eur("1"), "mix")] }))).toEqual(["pairTypeMismatch"]);
  });

  test("an update that breaks the pair (one leg's quantity only) is refused; updating both legs together is fine", async () => {
    const [out, inn] = await commitOk(c, { creates: transferPair(a, b, asset, "2", "upd") });
    expect(codes(await validate(c, { updates: [{ id: out, quantity: "-5" }] }))).toEqual(["pairQuantityNotOpposite"]);
    expect((await validate(c, { updates: [{ id: out, quantity: "-5" }, { id: inn, quantity: "5" }] })).issues).toEqual([]);
  });
});

describe("deleting one leg of a pair (decision: both legs or neither)", () => {
  test("deleting one leg alone is refused with pairDeleteIncomplete", async () => {
    const [out, inn] = await commitOk(c, { creates: transferPair(a, b, asset, "1", "del") });
    const res = await commit(c, { deletes: [out] });
    expect(res.issues).toEqual([expect.objectContaining({ operation: "delete", index: 0, ref_id: out, code: "pairDeleteIncomplete", params: { id: out, partner_id: inn } })]);
    expect(await list(c, `ids=${out}&ids=${inn}`)).toHaveLength(2);
  });

  test("deleting both legs in one batch removes the pair", async () => {
    const [out, inn] = await commitOk(c, { creates: transferPair(a, b, asset, "1", "del2") });
    await commitOk(c, { deletes: [out, inn] });
    expect(await list(c, `ids=${out}&ids=${inn}`)).toEqual([]);
  });

  test("a standalone row is deleted on its own", async () => {
    const [id] = await commitOk(c, { creates: [buy(a, asset, "1", "-1")] });
    await commitOk(c, { deletes: [id] });
    expect(await list(c, `ids=${id}`)).toEqual([]);
  });
});
