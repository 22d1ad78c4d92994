/**
 * The allocation history's per-asset valuation in integers (core/portfolio/exact-decimal.ts) must
 * give the value the Decimal chain gives, step for step: quantity × close, × rate, the sums per
 * currency, asset and component, their order and their wire text. Random quantities, closes and
 * rates of every size (inverted rates use all 34 digits), negative quantities, and the rounding
 * edges: ties at the 35th digit, 9…9 carrying to a power of ten, cancellation, far exponents.
 */
import { expect, test } from "bun:test";
import { Decimal } from "../../core/money/decimal.ts";
import { cmp, type DecimalParts, partsOf, partsOfText, plus, times, toDecimal, wireText } from "../../core/portfolio/exact-decimal.ts";
import { buildReport } from "../../core/portfolio/report.calc.ts";
import { decimalJsText } from "./decimal-text.ts";
import { randomDecimals } from "./random-decimals.ts";
import { input } from "../unit/portfolio/report-input.sample.ts";

const { int, randomDecimal } = randomDecimals(20261129);
/** A rate as the FX table makes it: stored, inverted (34 digits) or through two legs. */
function randomRate(): Decimal {
  const stored = new Decimal(randomDecimal(4, 10));
  if (stored.isZero()) return new Decimal(1);
  const kind = int(0, 2);
  return kind === 0 ? stored : kind === 1 ? new Decimal(1).div(stored) : new Decimal(1).div(stored).times(randomDecimal(3, 8) || "1");
}

/** Same value, leading digit and wire text as the Decimal (the percentages and comparisons read the leading digit). */
function same(parts: DecimalParts, d: Decimal, what: string): void {
  expect({ what, value: toDecimal(parts).toString(), top: parts.m === 0n ? 0 : parts.top, text: wireText(parts) })
    .toEqual({ what, value: d.toString(), top: d.isZero() ? 0 : d.e, text: decimalJsText(d) });
}

test("integer valuation equals the Decimal chain: quantity × close × rate, summed per asset and component", () => {
  for (let day = 0; day < 3_000; day++) {
    let totalD = new Decimal(0);
    let totalP = partsOf(totalD);
    const assets = int(1, 12);
    for (let i = 0; i < assets; i++) {
      const qtyText = randomDecimal(int(0, 1) ? 6 : 16, int(0, 1) ? 6 : 18);
      const qty = new Decimal(int(0, 9) === 0 ? `-${qtyText}` : qtyText);
      const close = new Decimal(randomDecimal(int(0, 1) ? 5 : 16, int(0, 1) ? 4 : 18));
      const rate = randomRate();
      const localD = qty.times(close);
      const localP = times(partsOf(qty), partsOf(close));
      same(localP, localD, `${qty} × ${close}`);
      const valueD = localD.times(rate);
      const valueP = times(localP, partsOf(rate));
      same(valueP, valueD, `${localD} × ${rate}`);
      const weight = new Decimal(randomDecimal(0, 4));
      same(times(valueP, partsOf(weight)), valueD.times(weight), `${valueD} × ${weight}`);
      const before = totalD;
      totalD = totalD.plus(valueD);
      totalP = plus(totalP, valueP);
      same(totalP, totalD, `${before} + ${valueD}`);
      expect(cmp(valueP, totalP)).toBe(valueD.cmp(totalD));
      expect(cmp(totalP, valueP)).toBe(totalD.cmp(valueD));
    }
  }
});

test("integer sums and products round like Decimal at the 34-digit edges", () => {
  const pairs: [string, string][] = [
    // Ties at the 35th digit: half-even keeps an even 34th digit, raises an odd one.
    ["1234567890123456789012345678901234", "0.5"],
    ["1234567890123456789012345678901235", "0.5"],
    ["1234567890123456789012345678901234", "0.50000000000000000000000000000000001"],
    // 9…9 carrying to a power of ten.
    ["9999999999999999999999999999999999", "0.5"],
    ["9999999999999999999999999999999999", "0.4999999999999999"],
    ["0.9999999999999999999999999999999999", "0.00000000000000000000000000000000005"],
    // Cancellation down to a few digits, and to zero.
    ["1234567890123456789012345678901234", "-1234567890123456789012345678901233"],
    ["0.1234", "-0.1234"],
    ["-5", "5"],
    // Exponents far apart, both signs.
    ["1e30", "1e-30"],
    ["1e30", "-1e-30"],
    ["1234567890123456789012345678901234", "-1e-40"],
    ["1234567890123456789012345678901234", "1e-40"],
    ["-9999999999999999999999999999999999", "-0.5"],
    ["0", "0.000000000000000000000000000001"],
    ["7", "0"],
  ];
  for (const [x, y] of pairs) {
    const a = new Decimal(x);
    const b = new Decimal(y);
    same(plus(partsOf(a), partsOf(b)), a.plus(b), `${x} + ${y}`);
    same(plus(partsOf(b), partsOf(a)), b.plus(a), `${y} + ${x}`);
    same(times(partsOf(a), partsOf(b)), a.times(b), `${x} × ${y}`);
    expect(cmp(partsOf(a), partsOf(b))).toBe(a.cmp(b));
    expect(cmp(partsOf(b), partsOf(a))).toBe(b.cmp(a));
  }
  // Products whose 35th digit is a tie: (10^17 + 5) × (10^17 − 5) ends in …75 past 34 digits.
  for (const [x, y] of [["100000000000000005", "99999999999999995"], ["3333333333333333.5", "3"], ["0.00012345", "1e-30"]]) {
    same(times(partsOf(new Decimal(x!)), partsOf(new Decimal(y!))), new Decimal(x!).times(y!), `${x} × ${y}`);
  }
  // Wire text: ties at the 10th decimal, values that round to zero, no trailing zeros.
  for (const x of ["0.00000000005", "0.00000000015", "-0.00000000005", "0.000000000049", "12.3400000000", "1e20", "-0.12345678905"]) {
    expect({ x, text: wireText(partsOf(new Decimal(x))) }).toEqual({ x, text: decimalJsText(new Decimal(x)) });
  }
});

test("closes read from their text have the value of the Decimal parsed from it", () => {
  const texts = ["224.2023", "0.0012", "-0.0012", "000123.4500", "0", "0.000", "-0", "7", "1e5", "1.5E-3", "9999999999999999.999999999999999999"];
  for (let i = 0; i < 2_000; i++) texts.push((int(0, 9) === 0 ? "-" : "") + randomDecimal(16, 18));
  for (const text of texts) {
    const d = new Decimal(text);
    const p = partsOfText(text);
    same(p, d, text);
  }
});

test("the report's allocation history is the Decimal chain's: quantity × price, × the inverted rate, summed in ledger order", () => {
  const r = JSON.parse(JSON.stringify(buildReport(input(true)))) as { allocation_history: Record<string, { date: string; components: unknown[] }[]> };
  // 10 January: asset 1 (EUR) 2.025 at its close 99.99999; asset 2 (USD, a 0.333333 share) at its
  // trade price of 6 January (newer than its close), converted at 1 / 1.0937 (34 digits); asset 3
  // (EUR) a bond quoted per 100. All are stocks without a classification: one component each.
  const v1 = new Decimal("3.125").plus(new Decimal("-1.1")).times("99.99999");
  const qty2 = new Decimal("7").times("0.333333").plus(new Decimal("0.333").times("0.333333"));
  const v2 = qty2.times(new Decimal("33.3").div("0.333")).times(new Decimal(1).div("1.0937"));
  const v3 = new Decimal("10").times(new Decimal("9875.5").div("100"));
  const total = new Decimal(0).plus(v1).plus(v2).plus(v3);
  const expected = { date: "2024-01-10", components: [{ name: "STOCK", value: "100", amount: decimalJsText(total) }] };
  expect(r.allocation_history.type!.at(-1)).toEqual(expected);
  expect(r.allocation_history.sector!.at(-1)).toEqual({ ...expected, components: [{ ...expected.components[0]!, name: "Unknown" }] });
});
