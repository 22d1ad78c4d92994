import "reflect-metadata";
import { describe, expect, test } from "bun:test";
import { addToSums, type BalanceRow, findNegativeBalances, toOpening } from "../../../core/transactions/balances.calc.ts";
import { BatchState } from "../../../core/transactions/batch-state.ts";
import type { LedgerRow } from "../../../core/transactions/ledger-row.ts";

const cash = (date: string, amount: string, currency = "EUR"): BalanceRow => ({ date, amount, currency, asset_id: null, quantity: "0" });
const units = (date: string, quantity: string, asset_id = 1): BalanceRow => ({ date, amount: null, currency: null, asset_id, quantity });
const all = { cash: true, assets: true };
/** Opening balances of `rows` summed from nothing, as a commit does when its broker has no checkpoint yet. */
const openingBalances = (rows: BalanceRow[], checks: typeof all) => toOpening(addToSums(rows, checks, { cash: new Map(), qty: new Map() }));

describe("ledger commits do not re-validate history", () => {
  test("rows before the batch's earliest date are summed exactly into opening balances", () => {
    const opening = openingBalances([cash("2024-01-01", "0.1"), cash("2024-01-02", "0.2"), cash("2024-01-03", "-0.30001"), units("2024-01-01", "1.5")], all);
    expect(opening.cash.get("EUR")!.toFixed()).toBe("-0.00001");
    expect(opening.qty.get(1)!.toFixed()).toBe("1.5");
  });

  test("the day-by-day check starts from the opening balances", () => {
    const opening = openingBalances([cash("2024-01-01", "100"), units("2024-01-01", "2")], all);
    expect(findNegativeBalances([cash("2024-02-01", "-60"), units("2024-02-01", "-1")], all, opening)).toEqual([]);
    expect(findNegativeBalances([cash("2024-02-01", "-100.5"), units("2024-02-02", "-3")], all, opening)).toEqual([
      { kind: "cash", date: "2024-02-01", currency: "EUR", balance: "-0.5" },
      { kind: "asset", date: "2024-02-02", assetId: 1, balance: "-1" },
    ]);
  });

  test("the earliest touched date of a broker covers a stored row's date before and after an update", async () => {
    const state = new BatchState({ assets: new Map(), events: new Map(), roles: new Map() });
    const row = (key: string, brokerId: number, date: string): LedgerRow => ({
      amount: "1", assetEventId: null, assetId: null, brokerId, costBasisCurrency: null, costBasisMode: null, costBasisOverride: null,
      currency: "EUR", date, description: null, id: 1, key, quantity: "0", relatedKey: null, tags: null, type: "DEPOSIT",
    });
    state.rows.set("t1", row("t1", 7, "2024-05-01"));
    state.stored.set("t1", { brokerId: 7, date: "2024-03-01" });
    state.dirty.add("t1");
    state.rows.set("n0", row("n0", 7, "2024-04-01"));
    state.addCreated("n0");
    state.rows.set("t2", row("t2", 8, "2020-01-01"));
    state.stored.set("t2", { brokerId: 8, date: "2020-01-01" });
    expect([...await state.touchedSince()]).toEqual([[7, "2024-03-01"]]);
  });
});
