import { expect, test } from "bun:test";
import { type WacRow, wacPerUnit, wacPool } from "../../../core/transactions/wac.calc.ts";

const row = (type: string, quantity: string, extra: Partial<WacRow> = {}): WacRow =>
  ({ type, quantity, amount: null, currency: null, cost_basis_override: null, cost_basis_currency: null, ...extra });

test("WAC: an inbound TRANSFER adds its per-unit override times the quantity; a split adds units at no cost", () => {
  const pool = wacPool([
    row("BUY", "3", { amount: "-30", currency: "EUR" }),
    row("TRANSFER", "1", { cost_basis_override: "14", cost_basis_currency: "EUR" }),
    row("ADJUSTMENT", "4"),
  ], "EUR");
  expect(pool.quantity.toFixed()).toBe("8");
  expect(pool.totalCost.toFixed()).toBe("44");
  expect(wacPerUnit(pool)!.toFixed()).toBe("5.5");
});
