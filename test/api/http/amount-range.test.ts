import { beforeAll, describe, expect, test } from "bun:test";
import { expectError } from "../../helpers/client.ts";
import { queryDb } from "../../helpers/seed.ts";
import { useApi } from "../../helpers/server.ts";

// No silent rounding. Every money field of every write route refuses a value outside
// the supported range with 422 naming the limit (docs/errors.md), and nothing is written.

const api = useApi({ users: ["alice"] });
// Every kind: 16 digits before the point, 18 after, 30 in all (the arithmetic has 34).
const TOO_LONG = "12345678901234567"; // 17 digits before the point: one too many
const TOO_FINE = `1.${"0".repeat(18)}1`; // 19 decimals: one too many
const TOO_FINE_UNIT = TOO_FINE;
const TOO_LONG_UNIT = TOO_LONG;
const HUGE = `1${"0".repeat(999)}`; // the issue's 1,000-digit deposit
const TOO_MANY = "1234567890123456.123456789012345"; // 16 + 15 = 31 digits in all: one too many
const AMOUNT_LIMIT = "outside the supported range of amounts: at most 16 digits before the decimal point, 18 after and 30 in all";
const UNIT_LIMIT = "at most 16 digits before the decimal point, 18 after and 30 in all";
const RATE_LIMIT = "outside the supported range of rates: at most 16 digits before the decimal point, 18 after and 30 in all";

let broker = 0;
let asset = 0;
const c = () => api.as.alice!;

beforeAll(async () => {
  broker = (await (await c().post("/brokers", [{ name: "Range" }])).json()).results[0].broker_id;
  asset = (await (await c().post("/assets", [{ name: "Range asset", currency: "EUR" }])).json()).results[0].asset_id;
});

/** Sends `body` and expects 422 whose detail names `limit` at `loc`. */
async function refused(res: Response, loc: (string | number)[], limit = AMOUNT_LIMIT) {
  const body = await expectError(res, 422, "VALIDATION_ERROR");
  const issue = body.detail.find((d: any) => JSON.stringify(d.loc) === JSON.stringify(loc));
  expect(issue, JSON.stringify(body.detail)).toBeDefined();
  expect(issue.msg).toContain(limit);
}

const count = (table: string) => queryDb<{ n: number }>(api.dataDir, `SELECT count(*) AS n FROM ${table}`)[0]!.n;

describe("amounts, quantities and prices outside the supported range are refused with 422", () => {
  test("transactions: cash amount, quantity and cost basis of creates, updates and promotes; nothing is committed", async () => {
    const before = count("transactions");
    const deposit = (amount: string) => ({ broker_id: broker, type: "DEPOSIT", date: "2024-01-02", cash: { code: "EUR", amount } });
    const buy = { broker_id: broker, asset_id: asset, type: "BUY", date: "2024-01-02", quantity: TOO_FINE_UNIT, cash: { code: "EUR", amount: "-1" } };
    const adjustment = { broker_id: broker, asset_id: asset, type: "ADJUSTMENT", date: "2024-01-02", quantity: "1", cost_basis_override: { code: "EUR", amount: TOO_LONG } };
    for (const route of ["/transactions/commit", "/transactions/validate"]) {
      await refused(await c().post(route, { creates: [deposit("10"), deposit(HUGE)] }), ["body", "creates", 1, "cash", "amount"]);
      await refused(await c().post(route, { creates: [deposit(TOO_FINE)] }), ["body", "creates", 0, "cash", "amount"]);
      await refused(await c().post(route, { creates: [buy] }), ["body", "creates", 0, "quantity"], UNIT_LIMIT);
      await refused(await c().post(route, { creates: [adjustment] }), ["body", "creates", 0, "cost_basis_override", "amount"], UNIT_LIMIT);
      await refused(await c().post(route, { updates: [{ id: 1, cash: { code: "EUR", amount: `-${TOO_LONG}` } }] }), ["body", "updates", 0, "cash", "amount"]);
      await refused(await c().post(route, { updates: [{ id: 1, quantity: TOO_LONG_UNIT }] }), ["body", "updates", 0, "quantity"], UNIT_LIMIT);
      await refused(await c().post(route, { promotes: [{ id_a: 1, id_b: 2, resolved_fields: { cost_basis_override: { code: "EUR", amount: TOO_FINE_UNIT } } }] }),
        ["body", "promotes", 0, "resolved_fields", "cost_basis_override", "amount"], UNIT_LIMIT);
    }
    await refused(await c().post("/transactions/transfers/promote", { from_tx_id: 1, to_tx_id: 2, new_type: "TRANSFER", quantity: TOO_LONG }), ["body", "quantity"], UNIT_LIMIT);
    expect(count("transactions")).toBe(before);
  });

  test("the largest supported amount is stored and summed exactly", async () => {
    const max = "9999999999999999.99999999999999";
    const res = await c().post("/transactions/commit", { creates: [
      { broker_id: broker, type: "DEPOSIT", date: "2024-01-02", cash: { code: "EUR", amount: max } },
      { broker_id: broker, type: "DEPOSIT", date: "2024-01-03", cash: { code: "EUR", amount: max } },
    ] });
    expect((await res.json()).committed).toBe(true);
    const summary = await (await c().get(`/brokers/${broker}/summary`)).json();
    expect(JSON.stringify(summary)).toContain("19999999999999999.99999999999998");
  });

  test("brokers: initial balances", async () => {
    await refused(await c().post("/brokers", [{ name: "Huge", initial_balances: [{ code: "EUR", amount: HUGE }] }]), ["body", 0, "initial_balances", 0, "amount"]);
    await refused(await c().post("/brokers", [{ name: "Huge", initial_balances: [{ code: "EUR", amount: TOO_MANY }] }]), ["body", 0, "initial_balances", 0, "amount"]);
    expect((await (await c().get("/brokers")).json()).items.map((b: any) => b.name)).not.toContain("Huge");
  });

  test("prices: open, high, low, close and volume (a float-born 17-decimal price still fits)", async () => {
    const before = count("price_history");
    for (const key of ["open", "high", "low", "close", "volume"]) {
      for (const value of [TOO_LONG_UNIT, TOO_FINE_UNIT]) {
        const point = { date: "2024-01-02", close: "10", [key]: value };
        await refused(await c().post("/assets/prices", [{ asset_id: asset, prices: [point] }]), ["body", 0, "prices", 0, key], UNIT_LIMIT);
      }
    }
    expect(count("price_history")).toBe(before);
    const ok = await c().post("/assets/prices", [{ asset_id: asset, prices: [{ date: "2024-01-02", close: 0.30000000000000004, volume: TOO_FINE_UNIT.slice(0, -2) }] }]);
    expect(ok.status).toBe(200);
  });

  test("events: the value of a manual event", async () => {
    const res = await c().post("/assets/events", [{ asset_id: asset, events: [{ date: "2024-01-02", type: "DIVIDEND", value: { code: "EUR", amount: TOO_FINE } }] }]);
    await refused(res, ["body", 0, "events", 0, "value", "amount"]);
    expect(count("asset_events")).toBe(0);
  });

  test("assets: quote_base_quantity on create and update", async () => {
    await refused(await c().post("/assets", [{ name: "Too fine", currency: "EUR", quote_base_quantity: TOO_FINE_UNIT }]), ["body", 0, "quote_base_quantity"], UNIT_LIMIT);
    await refused(await c().patch("/assets", [{ asset_id: asset, quote_base_quantity: TOO_LONG_UNIT }]), ["body", 0, "quote_base_quantity"], UNIT_LIMIT);
  });

  test("FX: a manual rate", async () => {
    await refused(await c().post("/fx/currencies/rate", [{ date: "2024-01-02", base: "EUR", quote: "USD", rate: TOO_LONG }]), ["body", 0, "rate"], RATE_LIMIT);
    await refused(await c().post("/fx/currencies/rate", [{ date: "2024-01-02", base: "EUR", quote: "USD", rate: `0.${"0".repeat(18)}1` }]), ["body", 0, "rate"], RATE_LIMIT);
    const ok = await c().post("/fx/currencies/rate", [{ date: "2024-01-02", base: "EUR", quote: "USD", rate: "0.000000000000000001" }]);
    expect(ok.status).toBe(200);
  });
});
