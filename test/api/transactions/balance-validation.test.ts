import { beforeAll, describe, expect, test } from "bun:test";
import { ApiClient } from "../../helpers/client.ts";
import { queryDb } from "../../helpers/seed.ts";
import { type TestServer, useApi } from "../../helpers/server.ts";
import { buy, codes, commit, commitOk, createAsset, createBroker, deposit, eur, validate, withdrawal } from "./fixtures.ts";

const api = useApi();
let server: TestServer;
let c: ApiClient;
let asset = 0;

beforeAll(async () => {
  server = api.server;
  c = new ApiClient(server.base);
  await c.signUp("balancer");
  asset = createAsset(server.dataDir);
});

const sell = (broker_id: number, quantity: string, amount: string, date = "2024-01-03") =>
  ({ broker_id, asset_id: asset, type: "SELL", date, quantity, cash: eur(amount) });

describe("cash may not go negative unless allow_cash_overdraft", () => {
  test("a withdrawal above the balance is balanceCashNegative, broker-level (index −1) with broker, date, currency and balance", async () => {
    const b = await createBroker(c, "Strict cash");
    await commitOk(c, { creates: [deposit(b, "100")] });
    const out = await commit(c, { creates: [withdrawal(b, "-100.01", "2024-01-05")] });
    expect(out.issues).toEqual([{
      operation: "create", index: -1, ref_id: null, code: "balanceCashNegative", field: "cash",
      error: expect.any(String), params: { broker_id: b, broker_name: "Strict cash", date: "2024-01-05", currency: "EUR", balance: "-0.01" },
    }]);
    // Worded so the user can act: the broker by name, the day, and the fixes.
    expect(out.issues[0]!.error).toBe("The EUR cash of broker \"Strict cash\" would go negative (-0.01 EUR) on 2024-01-05. "
      + "Record a deposit in EUR on or before 2024-01-05 (or date the broker's opening deposit earlier), "
      + "or pay from cash in another currency with a currency conversion");
  });

  test("when the broker holds another currency that day, the conversion fix names it (other_cash_currencies)", async () => {
    const b = await createBroker(c, "Euro funded");
    await commitOk(c, { creates: [deposit(b, "1000", "2024-01-02")] });
    const out = await commit(c, { creates: [{ broker_id: b, type: "WITHDRAWAL", date: "2024-01-05", quantity: "0", cash: { code: "USD", amount: "-10" } }] });
    expect(out.issues[0]!.params).toMatchObject({ currency: "USD", other_cash_currencies: ["EUR"] });
    expect(out.issues[0]!.error).toEndWith("or pay from the broker's EUR cash with a currency conversion (FX_CONVERSION) on or before 2024-01-05");
  });

  test("the same batch passes in a broker created with allow_cash_overdraft", async () => {
    const b = await createBroker(c, "Overdraft", { allow_cash_overdraft: true });
    await commitOk(c, { creates: [withdrawal(b, "-500"), buy(b, asset, "1", "-10")] });
  });

  test("balances are walked over time: a withdrawal dated before the deposit that covers it is refused", async () => {
    const b = await createBroker(c, "Backdated");
    expect(codes(await validate(c, { creates: [deposit(b, "100", "2024-01-10"), withdrawal(b, "-50", "2024-01-09")] }))).toEqual(["balanceCashNegative"]);
  });

  test("balances are checked at the end of each day, so the order of rows within one day does not matter", async () => {
    const b = await createBroker(c, "Same day");
    await commitOk(c, { creates: [buy(b, asset, "1", "-80", "2024-01-10"), deposit(b, "100", "2024-01-10")] });
  });

  test("each currency is its own balance", async () => {
    const b = await createBroker(c, "Two currencies");
    await commitOk(c, { creates: [deposit(b, "100")] });
    const out = await validate(c, { creates: [withdrawal(b, "-1", "2024-01-02", "USD")] });
    expect(out.issues[0]!.params).toMatchObject({ currency: "USD", balance: "-1" });
  });

  test("deleting the deposit that funded later rows, or shrinking it by an update, is refused", async () => {
    const b = await createBroker(c, "Funding");
    const [dep] = await commitOk(c, { creates: [deposit(b, "100")] });
    await commitOk(c, { creates: [buy(b, asset, "1", "-90", "2024-02-01")] });
    expect(codes(await validate(c, { deletes: [dep] }))).toEqual(["balanceCashNegative"]);
    expect(codes(await validate(c, { updates: [{ id: dep, cash: eur("80") }] }))).toEqual(["balanceCashNegative"]);
    expect(codes(await validate(c, { updates: [{ id: dep, date: "2024-03-01" }] }))).toEqual(["balanceCashNegative"]);
  });
});

describe("quantity may not go negative unless allow_asset_shorting", () => {
  test("selling more than held is balanceAssetNegative with the asset id", async () => {
    const b = await createBroker(c, "Strict qty", { allow_cash_overdraft: true });
    await commitOk(c, { creates: [buy(b, asset, "2", "-20")] });
    const out = await commit(c, { creates: [sell(b, "-3", "30")] });
    expect(out.issues).toEqual([expect.objectContaining({
      index: -1, code: "balanceAssetNegative",
      params: { broker_id: b, broker_name: "Strict qty", date: "2024-01-03", asset_id: asset, asset_name: expect.any(String), balance: "-1" },
    })]);
    expect(out.issues[0]!.error).toMatch(/^The quantity of ".+" at broker "Strict qty" would go negative \(-1\) on 2024-01-03\. Record the purchase/);
  });

  test("the same sale passes in a broker created with allow_asset_shorting", async () => {
    const b = await createBroker(c, "Shorting", { allow_asset_shorting: true });
    await commitOk(c, { creates: [deposit(b, "1"), sell(b, "-3", "30")] });
  });

  test("a cash-only overdraft flag does not allow shorting, nor the other way round", async () => {
    const b = await createBroker(c, "Short only", { allow_asset_shorting: true });
    expect(codes(await validate(c, { creates: [sell(b, "-1", "10"), withdrawal(b, "-20", "2024-01-04")] }))).toEqual(["balanceCashNegative"]);
  });
});

describe("only brokers touched by the batch are checked", () => {
  test("a broker already negative does not block a batch that does not touch it", async () => {
    const broken = await createBroker(c, "Broken");
    const fine = await createBroker(c, "Fine");
    queryDb(server.dataDir, "INSERT INTO transactions (broker_id, type, date, quantity, amount, currency) VALUES (?, 'WITHDRAWAL', '2024-01-01', '0', '-5', 'EUR')", broken);
    await commitOk(c, { creates: [deposit(fine, "1")] });
    expect(codes(await validate(c, { creates: [deposit(broken, "1", "2024-01-02")] }))).toEqual(["balanceCashNegative"]);
  });

  test("a cash transfer out of an empty broker makes the sender negative", async () => {
    const from = await createBroker(c, "Empty sender");
    const to = await createBroker(c, "Receiver");
    const out = await validate(c, { creates: [
      { broker_id: from, type: "CASH_TRANSFER", date: "2024-01-01", cash: eur("-10"), link_uuid: "x" },
      { broker_id: to, type: "CASH_TRANSFER", date: "2024-01-01", cash: eur("10"), link_uuid: "x" },
    ] });
    expect(out.issues.map((i) => i.params!.broker_id)).toEqual([from]);
  });
});
