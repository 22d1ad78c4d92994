import { describe, expect, test } from "bun:test";
import { type BalanceRow, findNegativeBalances } from "../../../core/transactions/balances.calc.ts";

const cash = (date: string, amount: string, currency = "EUR"): BalanceRow => ({ date, amount, currency, asset_id: null, quantity: "0" });
const units = (date: string, quantity: string, asset_id = 1): BalanceRow => ({ date, amount: null, currency: null, asset_id, quantity });
const all = { cash: true, assets: true };

describe("balance validation over time", () => {
  test("balances are checked at the end of each day: an intraday dip that recovers the same day is fine", () => {
    expect(findNegativeBalances([cash("2024-01-01", "-50"), cash("2024-01-01", "50")], all)).toEqual([]);
  });

  test("cash going negative at a day's end is reported with the day and the balance", () => {
    const rows = [cash("2024-01-01", "100"), cash("2024-01-02", "-100.01"), cash("2024-01-03", "500")];
    expect(findNegativeBalances(rows, all)).toEqual([{ kind: "cash", date: "2024-01-02", currency: "EUR", balance: "-0.01" }]);
  });

  test("each currency and each asset is reported once, at its first negative day", () => {
    const rows = [cash("2024-01-01", "-1", "USD"), cash("2024-01-02", "-1", "USD"), units("2024-01-03", "-2", 9), units("2024-01-04", "-1", 9)];
    expect(findNegativeBalances(rows, all)).toEqual([
      { kind: "cash", date: "2024-01-01", currency: "USD", balance: "-1" },
      { kind: "asset", date: "2024-01-03", assetId: 9, balance: "-2" },
    ]);
  });

  test("an overdraft broker is not checked for cash, a shorting broker not for quantities", () => {
    const rows = [cash("2024-01-01", "-1"), units("2024-01-01", "-1")];
    expect(findNegativeBalances(rows, { cash: false, assets: true }).map((v) => v.kind)).toEqual(["asset"]);
    expect(findNegativeBalances(rows, { cash: true, assets: false }).map((v) => v.kind)).toEqual(["cash"]);
  });

  test("sums are exact decimals (0.1 + 0.2 − 0.3 is zero, not a float residue)", () => {
    expect(findNegativeBalances([cash("2024-01-01", "0.1"), cash("2024-01-01", "0.2"), cash("2024-01-02", "-0.3")], all)).toEqual([]);
  });
});
