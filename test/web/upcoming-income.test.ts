import { expect, test } from "bun:test";
import { addMonths, cadenceMonths, upcomingIncome } from "../../web/src/lib/upcoming-income.ts";

test("adding months keeps the day, clamped to the month's end", () => {
  expect(addMonths("2026-01-31", 1)).toBe("2026-02-28");
  expect(addMonths("2026-11-15", 3)).toBe("2027-02-15");
  expect(addMonths("2028-02-29", 12)).toBe("2029-02-28");
});

test("the cadence is the median gap of the last events, rounded to a usual number of months", () => {
  expect(cadenceMonths(["2025-03-10", "2025-06-12", "2025-09-09", "2025-12-11"])).toBe(3);
  expect(cadenceMonths(["2024-05-02", "2025-05-05"])).toBe(12);
  expect(cadenceMonths(["2025-01-15", "2025-02-14", "2025-03-17", "2025-07-15"])).toBe(1);
  expect(cadenceMonths(["2025-05-05"])).toBeNull();
});

test("confirmed payments are future events times the units held; projected ones repeat the cadence at the last amount per unit", () => {
  const rows = upcomingIncome({
    today: "2026-11-29",
    quantities: new Map([[1, "12.5"], [2, "100"], [3, "7"]]),
    events: new Map([
      // quarterly USD dividend, the next one already announced for 2026-12-10 at 0.26
      [1, [
        { date: "2026-03-10", type: "DIVIDEND", amount: "0.24", currency: "USD" },
        { date: "2026-06-10", type: "DIVIDEND", amount: "0.24", currency: "USD" },
        { date: "2026-09-10", type: "DIVIDEND", amount: "0.25", currency: "USD" },
        { date: "2026-12-10", type: "DIVIDEND", amount: "0.26", currency: "USD" },
        { date: "2026-09-01", type: "SPLIT", amount: "2", currency: "USD" },
      ]],
      // yearly EUR dividend
      [2, [{ date: "2025-05-05", type: "DIVIDEND", amount: "1.10", currency: "EUR" }, { date: "2026-05-04", type: "DIVIDEND", amount: "1.2", currency: "EUR" }]],
      // a single CHF payment: no cadence, nothing projected
      [3, [{ date: "2026-04-01", type: "DIVIDEND", amount: "3", currency: "CHF" }]],
    ]),
    rates: new Map([["USD", "0.95"]]),
    base: "EUR",
  });
  expect(rows.map((r) => [r.date, r.assetId, r.status, r.perUnit, r.amount, r.baseAmount])).toEqual([
    // 0.26 × 12.5 = 3.25 USD; × 0.95 = 3.0875 EUR
    ["2026-12-10", 1, "confirmed", "0.26", "3.25", "3.0875"],
    ["2027-03-10", 1, "projected", "0.26", "3.25", "3.0875"],
    // 1.2 × 100 = 120 EUR, a year after 2026-05-04
    ["2027-05-04", 2, "projected", "1.2", "120", "120"],
    ["2027-06-10", 1, "projected", "0.26", "3.25", "3.0875"],
    ["2027-09-10", 1, "projected", "0.26", "3.25", "3.0875"],
  ]);
});

test("an amount in a currency without a rate keeps no base amount", () => {
  const rows = upcomingIncome({
    today: "2026-11-29", base: "EUR", rates: new Map(),
    quantities: new Map([[4, "10"]]),
    events: new Map([[4, [{ date: "2027-01-05", type: "INTEREST", amount: "0.5", currency: "GBP" }]]]),
  });
  expect(rows).toEqual([{ assetId: 4, date: "2027-01-05", type: "INTEREST", status: "confirmed", perUnit: "0.5", quantity: "10", amount: "5", currency: "GBP", baseAmount: null }]);
});
