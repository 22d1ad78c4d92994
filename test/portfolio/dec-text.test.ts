/**
 * Every money and return figure of a report is written by `dec` (core/portfolio/report.dto.ts)
 * from the Decimal's digits in integers: it must be decimal.js's own text, character for
 * character (at most 10 decimals half-even, no trailing zeros, "0" for zero), on every size of value.
 */
import { expect, test } from "bun:test";
import { Decimal } from "../../core/money/decimal.ts";
import { dec } from "../../core/portfolio/report.dto.ts";
import { decimalJsText } from "./decimal-text.ts";
import { randomDecimals } from "./random-decimals.ts";

const { int, randomDecimal } = randomDecimals(20261130);

function check(d: Decimal): void {
  expect({ value: d.toString(), text: dec(d) }).toEqual({ value: d.toString(), text: decimalJsText(d) });
}

test("dec writes decimal.js's 10-decimal half-even text for random values, 34-digit products and quotients", () => {
  for (let i = 0; i < 20_000; i++) {
    const x = new Decimal(randomDecimal(18, 20));
    const sign = int(0, 3) === 0 ? -1 : 1;
    const kind = int(0, 3);
    // Plain values, 34-digit products (a converted amount), quotients (a rate inverted) and tiny values.
    const d = kind === 0 ? x : kind === 1 ? x.times("0.9012345678901234567890123456789012") : kind === 2 ? (x.isZero() ? x : new Decimal(1).div(x)) : x.times("1e-15");
    check(d.times(sign));
  }
});

test("dec keeps decimal.js's ties, carries and zeros at the 10th decimal", () => {
  for (const x of [
    "0", "-0", "0.00000000005", "0.00000000015", "0.00000000025", "-0.00000000005", "-0.00000000015", "0.000000000049999999999",
    "0.000000000050000000001", "9.99999999995", "-9.99999999995", "99999999999.99999999995", "12.3400000000", "1e20", "-1e-30",
    "123456789012345678901234567890.1234", "0.1234567890500000000000000000000001", "0.12345678905", "0.12345678915", "1.5e-10", "2.5e-10",
  ]) check(new Decimal(x));
});
