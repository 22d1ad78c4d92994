import { describe, expect, test } from "bun:test";
import { Decimal, toDecimalString } from "../../../core/money/decimal.ts";
import { withinComputed } from "../../../core/money/decimal-limits.ts";

// The rule a restore holds server-computed columns to (FX rates, automatic cost bases, provider values).
describe("withinComputed", () => {
  test("accepts what the 34-digit arithmetic produces from values within the input limits", () => {
    for (const value of [
      new Decimal(1).div("0.9"), new Decimal(100).div(3), new Decimal(1).div("0.000000000000000001"),
      new Decimal("0.000000000000000001").div("9999999999999999"), new Decimal(-100).div(7), new Decimal(0),
    ]) expect(withinComputed(toDecimalString(value))).toBe(true);
    expect(withinComputed("00012.5000")).toBe(true);
  });

  test("refuses more than 34 significant digits, 10^34 or more, and less than 10^-34", () => {
    expect(withinComputed(`1.${"1".repeat(33)}`)).toBe(true);
    expect(withinComputed(`1.${"1".repeat(34)}`)).toBe(false);
    expect(withinComputed("9".repeat(34))).toBe(true);
    expect(withinComputed(`1${"0".repeat(34)}`)).toBe(false);
    expect(withinComputed(`0.${"0".repeat(33)}1`)).toBe(true);
    expect(withinComputed(`0.${"0".repeat(34)}1`)).toBe(false);
    expect(withinComputed("123456789012345678901234567890123456789012345678901234567890")).toBe(false);
  });
});
