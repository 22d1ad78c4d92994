import { beforeAll, describe, expect, test } from "bun:test";
import { ApiClient, expectError } from "../../helpers/client.ts";
import { queryDb } from "../../helpers/seed.ts";
import { type TestServer, useApi } from "../../helpers/server.ts";
import {
  buy, commit, commitOk, createAsset, deposit, eur, list, looseBroker, type Row, share, transferPair, withdrawal,
} from "./fixtures.ts";

const api = useApi();
let server: TestServer;
let owner: ApiClient;
let stranger: ApiClient;
let strangerId = 0;
let p = 0;
let q = 0;
let own = 0;
let asset = 0;
const t: Record<string, number> = {};

beforeAll(async () => {
  server = api.server;
  stranger = new ApiClient(server.base);
  const first = await stranger.signUp("stranger");
  expect(first.is_superuser).toBe(true);
  strangerId = first.id;
  owner = new ApiClient(server.base);
  await owner.signUp("owner");
  p = await looseBroker(owner, "Private P");
  q = await looseBroker(owner, "Private Q");
  own = await looseBroker(stranger, "Stranger's own");
  asset = createAsset(server.dataDir);
  [t.dep, t.w, t.buy, t.out, t.inn] = await commitOk(owner, { creates: [
    { ...deposit(p, "500", "2024-05-01"), tags: ["secret"] }, withdrawal(p, "-20", "2024-05-02"), buy(p, asset, "2", "-40", "2024-05-03"),
    ...transferPair(p, q, asset, "1", "pq"),
  ] });
  [t.adj] = await commitOk(owner, { creates: [{ broker_id: q, asset_id: asset, type: "ADJUSTMENT", date: "2024-05-04", quantity: "-1" }] });
});

const snapshot = () => queryDb(server.dataDir, "SELECT * FROM transactions WHERE broker_id IN (?, ?) ORDER BY id", p, q);

describe("a user without an access row can read nothing of another user's broker (superuser included)", () => {
  test("the unfiltered list and every filter show none of the owner's rows", async () => {
    const queries = ["", `asset_id=${asset}`, "types=DEPOSIT&types=TRANSFER", "tags=secret", "currency=EUR", "amount_abs_min=1",
      "date_start=2024-01-01&date_end=2024-12-31", "only_unlinked=true", `exclude_ids=${t.dep}`, "limit=10000"];
    for (const query of queries) expect(await list(stranger, query)).toEqual([]);
  });

  test("ids of invisible transactions are simply absent", async () => {
    const [mine] = await commitOk(stranger, { creates: [deposit(own, "1")] });
    expect((await list(stranger, `ids=${t.dep}&ids=${mine}&ids=${t.inn}`)).map((x) => x.id)).toEqual([mine]);
  });

  test("broker_id of an invisible broker is 404 BROKER_NOT_FOUND, exactly like a missing one", async () => {
    const hidden = await expectError(await stranger.get(`/transactions?broker_id=${p}`), 404, "BROKER_NOT_FOUND");
    const missing = await expectError(await stranger.get("/transactions?broker_id=99999"), 404, "BROKER_NOT_FOUND");
    expect(hidden.detail.replace(String(p), "N")).toBe(missing.detail.replace("99999", "N"));
  });
});

describe("a user without an access row can write nothing, and learns nothing from the refusal", () => {
  test("updates, deletes, splits and promotes of invisible rows read as missing rows", async () => {
    const before = snapshot();
    const res = await commit(stranger, {
      updates: [{ id: t.dep, description: "mine now" }], deletes: [t.w],
      splits: [{ id_a: t.out, id_b: t.inn }], promotes: [{ id_a: t.adj, id_b: t.w }],
    });
    expect(res.issues.map((i) => [i.operation, i.code, i.error.replace(/\d+/, "N")])).toEqual([
      ["delete", "txNotFound", "Transaction N not found"], ["update", "txNotFound", "Transaction N not found"],
      ["split", "txNotFound", "Transaction N not found"], ["split", "txNotFound", "Transaction N not found"],
      ["promote", "promoteRefNotFound", "Transaction N not found"], ["promote", "promoteRefNotFound", "Transaction N not found"],
    ]);
    const missing = await commit(stranger, { updates: [{ id: 987654 }] });
    expect(missing.issues[0]!.code).toBe("txNotFound");
    expect(snapshot()).toEqual(before);
  });

  test("creates in an invisible broker read as in a missing one (brokerNotFound), and transfers into it too", async () => {
    const before = snapshot();
    const res = await commit(stranger, { creates: [deposit(p, "1"), deposit(99999, "1"), ...transferPair(own, q, asset, "1", "steal")] });
    expect(res.issues.map((i) => [i.index, i.code, i.error.replace(/\d+/, "N")])).toEqual([
      [0, "brokerNotFound", "Broker N not found"], [1, "brokerNotFound", "Broker N not found"], [3, "brokerNotFound", "Broker N not found"],
    ]);
    expect(snapshot()).toEqual(before);
  });

  test("the promote helpers neither find nor touch invisible rows", async () => {
    const before = snapshot();
    const [mine] = await commitOk(stranger, { creates: [deposit(own, "20", "2024-05-02")] });
    const res = await stranger.post("/transactions/promote-suggest?tolerance_days=30", [
      { id: mine, type: "DEPOSIT", broker_id: own, date: "2024-05-02", currency: "EUR", amount: "20" },
      { id: -1, type: "WITHDRAWAL", broker_id: p, date: "2024-05-02", currency: "EUR", amount: "-20" },
      { id: -2, type: "ADJUSTMENT", broker_id: own, date: "2024-05-04", asset_id: asset, quantity: "1" },
    ]);
    expect((await res.json()).results).toEqual({ [String(mine)]: [], "-1": [], "-2": [] });
    const promote = await (await stranger.post("/transactions/transfers/promote", { from_tx_id: t.w, to_tx_id: mine, new_type: "CASH_TRANSFER" })).json();
    expect(promote.rolled_back).toBe(true);
    expect(promote.errors.join()).toContain(`Transaction ${t.w} not found`);
    const asTransfer = await (await stranger.post("/transactions/transfers/promote", {
      from_tx_id: t.w, to_tx_id: mine, new_type: "TRANSFER", asset_id: asset, quantity: "1", cost_basis_override: eur("1"),
    })).json();
    expect(asTransfer).toMatchObject({ rolled_back: true, errors: [`Transaction ${t.w} not found`] });
    expect(snapshot()).toEqual(before);
  });
});

describe("partial visibility", () => {
  test("a VIEWER of one leg's broker sees the leg and its link, but not the partner's broker id or row", async () => {
    await share(owner, p, strangerId, "VIEWER");
    const rows = await list(stranger, `ids=${t.out}&ids=${t.inn}`);
    expect(rows.map((x: Row) => [x.id, x.related_transaction_id, x.partner_broker_id])).toEqual([[t.out, t.inn, null]]);
    expect((await list(owner, `ids=${t.out}`))[0]!.partner_broker_id).toBe(q);
  });
});

describe("auto cost basis reads the sender's broker", () => {
  test("after losing access to the sender's broker, an auto in-leg learns nothing of its costs (costBasisUnavailable)", async () => {
    const sender = await looseBroker(owner, "Sender S");
    const receiver = await looseBroker(owner, "Receiver R");
    await share(owner, sender, strangerId, "EDITOR");
    await share(owner, receiver, strangerId, "EDITOR");
    await commitOk(owner, { creates: [buy(sender, asset, "2", "-30", "2024-01-01")] });
    const [, inn] = await commitOk(stranger, { creates: transferPair(sender, receiver, asset, "1", "sr", { cost_basis_mode: "auto" }) });
    expect((await list(stranger, `ids=${inn}`))[0]!.cost_basis_override).toEqual(eur("15"));
    expect((await owner.delete(`/brokers/${sender}/access/${strangerId}`)).status).toBeLessThan(300);
    const res = await commit(stranger, { updates: [{ id: inn, description: "recompute" }] });
    expect(res.issues.map((i) => [i.code, i.params?.broker_id])).toEqual([["costBasisUnavailable", sender]]);
  });
});

describe("every transaction route needs a session", () => {
  const anon = () => new ApiClient(server.base);
  const routes: [string, string, unknown?][] = [
    ["GET", "/transactions"], ["GET", "/transactions/types"], ["POST", "/transactions/validate", {}], ["POST", "/transactions/commit", {}],
    ["POST", "/transactions/events/suggest", []], ["POST", "/transactions/promote-suggest", []],
    ["POST", "/transactions/transfers/promote", { from_tx_id: 1, to_tx_id: 2, new_type: "CASH_TRANSFER" }],
  ];
  for (const [method, path, body] of routes) {
    test(`${method} ${path} is 401 without a session`, async () => {
      await expectError(await anon().request(method, path, body), 401, "NOT_AUTHENTICATED");
    });
  }
});
