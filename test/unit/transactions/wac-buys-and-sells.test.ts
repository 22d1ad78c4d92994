import { expect, test } from "bun:test";
import { type WacRow, wacPerUnit, wacPool } from "../../../core/transactions/wac.calc.ts";

const buy = (quantity: string, amount: string, currency = "EUR"): WacRow =>
  ({ type: "BUY", quantity, amount, currency, cost_basis_override: null, cost_basis_currency: null });
const sell = (quantity: string, amount: string): WacRow =>
  ({ type: "SELL", quantity, amount, currency: "EUR", cost_basis_override: null, cost_basis_currency: null });

test("WAC: buys average their cost; a sell removes cost at the average, leaving it unchanged", () => {
  const pool = wacPool([buy("10", "-100"), buy("30", "-500"), sell("-20", "400")], "EUR");
  expect(pool.quantity.toFixed()).toBe("20");
  expect(pool.totalCost.toFixed()).toBe("300");
  expect(wacPerUnit(pool)!.toFixed()).toBe("15");
});

test("WAC: an emptied pool starts again from the next buy", () => {
  const pool = wacPool([buy("10", "-100"), sell("-10", "120"), buy("4", "-50")], "EUR");
  expect(wacPerUnit(pool)!.toFixed()).toBe("12.5");
});

test("WAC: no units held means no average", () => {
  expect(wacPerUnit(wacPool([], "EUR"))).toBeNull();
});

test("WAC: a purchase in another currency than the asset's marks the pool as mixed", () => {
  expect(wacPool([buy("1", "-10", "USD")], "EUR").mixedCurrencies).toBe(true);
});

test("WAC: a sale keeps the average exactly, without re-dividing a rounded total", () => {
  const pool = wacPool([buy("3", "-10"), buy("4", "-20.5"), sell("-2", "30")], "EUR");
  expect(wacPerUnit(pool)!.toFixed()).toBe("4.357142857142857142857142857142857");
});

test("WAC: units bought back after a short position start a fresh pool at that purchase's price", () => {
  const pool = wacPool([sell("-2", "20"), buy("5", "-60")], "EUR");
  expect(pool.quantity.toFixed()).toBe("3");
  expect(wacPerUnit(pool)!.toFixed()).toBe("12");
});
