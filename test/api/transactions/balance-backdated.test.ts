import { beforeAll, describe, expect, test } from "bun:test";
import type { ApiClient } from "../../helpers/client.ts";
import { queryDb } from "../../helpers/seed.ts";
import { type TestServer, useApi } from "../../helpers/server.ts";
import { buy, codes, commit, commitOk, createAsset, createBroker, deposit, eur, type Row, validate, withdrawal } from "./fixtures.ts";

/**
 * Back-dated rows in a long history (docs/transactions.md "Balances"): a commit sums the history
 * before its first date from the latest balance checkpoint, so these cover a row written before
 * checkpoints that must then no longer count (docs/decisions.md, "Ledger commits: checkpoints instead of history").
 */
const api = useApi({ users: ["backdater"] });
let server: TestServer;
let c: ApiClient;
let asset = 0;

beforeAll(() => {
  server = api.server;
  c = api.as.backdater!;
  asset = createAsset(server.dataDir);
});

const sell = (broker_id: number, quantity: string, date: string): Row =>
  ({ broker_id, asset_id: asset, type: "SELL", date, quantity, cash: eur("10") });

/**
 * A strict broker (no overdraft, no shorting) holding 10 units from 2020 on, then five yearly
 * commits in date order (each leaves a checkpoint at its first date): +1 unit in June, −1 in
 * September, so it holds 10 units at the end of every year. Returns the broker and the 2020 BUY.
 */
async function longHistory(name: string): Promise<{ broker: number; firstBuy: number }> {
  const broker = await createBroker(c, name);
  const [, firstBuy] = await commitOk(c, { creates: [deposit(broker, "100000", "2020-01-01"), buy(broker, asset, "10", "-100", "2020-01-02")] });
  for (let y = 2021; y <= 2025; y++) {
    await commitOk(c, { creates: [deposit(broker, "1", `${y}-01-04`), buy(broker, asset, "1", "-10", `${y}-06-01`), sell(broker, "-1", `${y}-09-01`)] });
  }
  return { broker, firstBuy: firstBuy! };
}

const assetIssue = (broker: number, date: string, balance: string) => [expect.objectContaining({
  operation: "create", index: -1, code: "balanceAssetNegative", params: { broker_id: broker, broker_name: expect.any(String), date, asset_id: asset, asset_name: expect.any(String), balance },
})];

describe("a back-dated row is checked against everything after it", () => {
  test("a SELL dated early that makes a later, stored SELL overdraw is refused on the later SELL's day", async () => {
    const { broker } = await longHistory("Early sell");
    await commitOk(c, { creates: [sell(broker, "-8", "2025-12-01")] });
    const out = await commit(c, { creates: [sell(broker, "-3", "2021-03-01")] });
    expect(out.committed).toBe(false);
    expect(out.issues).toEqual(assetIssue(broker, "2025-12-01", "-1"));
    // Nothing was kept: the 8 units can still be sold down to 0, not below.
    expect(codes(await validate(c, { creates: [sell(broker, "-2", "2025-12-02")] }))).toEqual([]);
    expect((await validate(c, { creates: [sell(broker, "-3", "2025-12-02")] })).issues).toEqual(assetIssue(broker, "2025-12-02", "-1"));
  });

  test("a committed back-dated SELL counts for every later commit, whatever was summed before it", async () => {
    const { broker } = await longHistory("Checkpoint after");
    await commitOk(c, { creates: [sell(broker, "-4", "2021-03-01")] });
    expect((await commit(c, { creates: [sell(broker, "-7", "2025-12-01")] })).issues).toEqual(assetIssue(broker, "2025-12-01", "-1"));
    await commitOk(c, { creates: [sell(broker, "-6", "2025-12-01")] });
    expect((await validate(c, { creates: [sell(broker, "-1", "2025-12-02")] })).issues).toEqual(assetIssue(broker, "2025-12-02", "-1"));
  });

  test("deleting or moving an early BUY counts for the commits after it", async () => {
    const { broker, firstBuy } = await longHistory("Early buy moved");
    await commitOk(c, { creates: [sell(broker, "-9", "2025-12-01")] });
    expect((await validate(c, { deletes: [firstBuy] })).issues).toEqual([expect.objectContaining({
      operation: "delete", code: "balanceAssetNegative", params: { broker_id: broker, broker_name: "Early buy moved", date: "2025-12-01", asset_id: asset, asset_name: expect.any(String), balance: "-9" },
    })]);
    expect(codes(await validate(c, { updates: [{ id: firstBuy, date: "2025-12-02" }] }))).toEqual(["balanceAssetNegative"]);
    await commitOk(c, { updates: [{ id: firstBuy, date: "2021-01-05", quantity: "11" }] });
    await commitOk(c, { creates: [sell(broker, "-2", "2025-12-03")] });
    expect((await validate(c, { creates: [sell(broker, "-1", "2025-12-04")] })).issues).toEqual(assetIssue(broker, "2025-12-04", "-1"));
  });

  test("a back-dated WITHDRAWAL that leaves a later one short is refused to the cent, in its currency", async () => {
    const { broker } = await longHistory("Early withdrawal");
    await commitOk(c, { creates: [deposit(broker, "100", "2021-02-01", "USD")] });
    for (let y = 2022; y <= 2025; y++) await commitOk(c, { creates: [deposit(broker, "1", `${y}-02-01`)] });
    await commitOk(c, { creates: [withdrawal(broker, "-60", "2025-12-05", "USD")] });
    const out = await commit(c, { creates: [withdrawal(broker, "-40.01", "2022-02-01", "USD")] });
    expect(out.issues).toEqual([expect.objectContaining({
      // The broker holds EUR that day: the refusal offers paying from it (other_cash_currencies).
      code: "balanceCashNegative",
      params: { broker_id: broker, broker_name: "Early withdrawal", date: "2025-12-05", currency: "USD", balance: "-0.01", other_cash_currencies: ["EUR"] },
    })]);
    await commitOk(c, { creates: [withdrawal(broker, "-40", "2022-02-01", "USD")] });
  });
});

describe("a back-dated BUY can make a later SELL valid", () => {
  test("a SELL beyond the holding is refused alone and accepted with a BUY dated before it in the same batch", async () => {
    const { broker } = await longHistory("Covered in batch");
    expect((await validate(c, { creates: [sell(broker, "-12", "2025-12-01")] })).issues).toEqual(assetIssue(broker, "2025-12-01", "-2"));
    await commitOk(c, { creates: [buy(broker, asset, "2", "-20", "2021-02-01"), sell(broker, "-12", "2025-12-01")] });
    expect((await validate(c, { creates: [sell(broker, "-1", "2025-12-02")] })).issues).toEqual(assetIssue(broker, "2025-12-02", "-1"));
  });

  test("a stored SELL that overdraws (written outside the API) blocks later buys until a BUY dated before it covers it", async () => {
    const { broker } = await longHistory("Covered later");
    queryDb(server.dataDir, `INSERT INTO transactions (broker_id, asset_id, type, date, quantity, amount, currency)
      VALUES (?, ?, 'SELL', '2025-11-03', '-15', '150', 'EUR')`, broker, asset);
    expect((await commit(c, { creates: [buy(broker, asset, "1", "-10", "2025-11-10")] })).issues).toEqual(assetIssue(broker, "2025-11-10", "-4"));
    await commitOk(c, { creates: [buy(broker, asset, "5", "-50", "2025-11-01")] });
    await commitOk(c, { creates: [buy(broker, asset, "1", "-10", "2025-11-10")] });
    expect((await validate(c, { creates: [sell(broker, "-2", "2025-11-11")] })).issues).toEqual(assetIssue(broker, "2025-11-11", "-1"));
  });
});

describe("auto cost basis in a long history", () => {
  const transferOut = (from: number, to: number, date: string, uuid: string): Row[] => [
    { broker_id: from, asset_id: asset, type: "TRANSFER", date, quantity: "-1", link_uuid: uuid },
    { broker_id: to, asset_id: asset, type: "TRANSFER", date, quantity: "1", link_uuid: uuid, cost_basis_mode: "auto-detail" },
  ];
  const detail = (from: number, date: string, held: string, cost: string, wac: string) => [expect.objectContaining({
    sender_broker_id: from, asset_id: asset, date, quantity_held: held, total_cost: eur(cost), wac_per_unit: eur(wac),
  })];

  test("a TRANSFER takes the sender's WAC over the whole history, also after a back-dated BUY changed it", async () => {
    const from = await createBroker(c, "WAC sender");
    const to = await createBroker(c, "WAC receiver");
    await commitOk(c, { creates: [deposit(from, "100000", "2020-01-01"), buy(from, asset, "10", "-100", "2020-01-02")] });
    for (let y = 2021; y <= 2025; y++) await commitOk(c, { creates: [deposit(from, "1", `${y}-01-04`), sell(from, "-1", `${y}-09-01`)] });
    expect((await commit(c, { creates: transferOut(from, to, "2025-12-01", "w1") })).wac_results).toEqual(detail(from, "2025-12-01", "5", "50", "10"));
    // 10 units at 10 and 5 at 40 from 2021-03-01 on: every later pool holds them at a WAC of 20.
    await commitOk(c, { creates: [buy(from, asset, "5", "-200", "2021-03-01")] });
    expect((await commit(c, { creates: transferOut(from, to, "2025-12-05", "w2") })).wac_results).toEqual(detail(from, "2025-12-05", "9", "180", "20"));
  });
});
