import { describe, expect, test } from "bun:test";
import { currency, decimal, type CurrencyCode, type DecimalString, type IsoDate, isoDate, type Money } from "../../sdk/index.ts";

describe("literal constructors for branded values", () => {
  test("decimal, currency and isoDate brand valid literals without a cast", () => {
    const price: Money = { amount: decimal("42.00"), currency: currency("USD") };
    const day: IsoDate = isoDate("2024-02-29");
    const typed: [DecimalString, CurrencyCode] = [price.amount, price.currency];
    expect(typed.map(String)).toEqual(["42.00", "USD"]);
    expect(String(day)).toBe("2024-02-29");
  });

  test("a literal that does not fit throws a TypeError naming it", () => {
    expect(() => decimal("1e5")).toThrow(TypeError);
    expect(() => decimal("1,5")).toThrow('"1,5" is not a decimal string');
    expect(() => currency("usd")).toThrow('"usd" is not a currency code');
    expect(() => isoDate("2023-02-29")).toThrow("is not a date");
  });
});
