import "reflect-metadata";
import { describe, expect, test } from "bun:test";
import { ExactSum } from "../../../core/transactions/balances.calc.ts";

const sumOf = (...texts: string[]) => {
  const s = new ExactSum();
  for (const t of texts) s.add(t);
  return s;
};

describe("an exact sum kept as text in a ledger checkpoint", () => {
  test("its text has every digit, and reading it back gives the same sum", () => {
    for (const [texts, expected] of [
      [["0.1", "0.2", "-0.30001"], "-0.00001"],
      [["-5e-2"], "-0.05"],
      [["1234567890123.0123456789", "-0.0000000001"], "1234567890123.0123456788"],
      [["7", "-7.00"], "0.00"],
      [["12", "3"], "15"],
    ] as const) {
      const s = sumOf(...texts);
      expect(s.toText()).toBe(expected);
      expect(s.toDecimal().eq(expected)).toBe(true);
      expect(sumOf(s.toText()).toText()).toBe(expected);
    }
  });
});
