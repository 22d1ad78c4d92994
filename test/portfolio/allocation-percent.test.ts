/**
 * Allocation percentages computed in integers (core/portfolio/allocation-percent.ts) must be the
 * text the Decimal path writes, `dec(amount.div(total).times(100))`, character for character:
 * random amounts and totals of every size and number of decimals, negative components, zero,
 * and the quotients where the 34-digit rounding creates a tie at the 10th decimal.
 */
import { expect, test } from "bun:test";
import { Decimal } from "../../core/money/decimal.ts";
import { decimalParts, percentFromDoubles, percentText, percentTextInIntegers } from "../../core/portfolio/allocation-percent.ts";
import { dec } from "../../core/portfolio/report.dto.ts";
import { randomDecimals } from "./random-decimals.ts";

const decimalPath = (amount: Decimal, total: Decimal): string => dec(amount.div(total).times(100));
const integerPath = (amount: Decimal, total: Decimal): string | null => percentText(decimalParts(amount), decimalParts(total));

function check(amount: string, total: string): void {
  const a = new Decimal(amount);
  const t = new Decimal(total);
  expect({ amount, total, text: integerPath(a, t) }).toEqual({ amount, total, text: decimalPath(a, t) });
}

const { int, randomDecimal } = randomDecimals(20261129);

test("integer percentages equal the Decimal division's text on random amounts and totals", () => {
  for (let i = 0; i < 20_000; i++) {
    const total = randomDecimal(16, 18);
    if (new Decimal(total).isZero()) continue;
    const amount = i % 3 === 0 ? randomDecimal(16, 18) : new Decimal(total).times(randomDecimal(0, int(1, 20))).toFixed();
    check(int(0, 9) === 0 ? `-${amount}` : amount, total);
  }
});

test("integer percentages equal the Decimal division's text on 34-digit sums like the day's totals", () => {
  for (let i = 0; i < 5_000; i++) {
    // Sums that hit the 34-digit precision: rounded operands with every digit used.
    const total = new Decimal(randomDecimal(16, 18)).plus(randomDecimal(16, 18)).times(randomDecimal(3, 18)).abs();
    if (total.isZero()) continue;
    const amount = total.times(randomDecimal(0, 34));
    check(amount.toFixed(), total.toFixed());
  }
});

test("integer percentages keep the Decimal path's double rounding at a tie made by the 34-digit quotient", () => {
  // 0.1234567890134999…9 (40 digits): 34 digits round it up to …135 exactly, a tie at the 10th
  // decimal of the percentage that half-even takes to …014 (one rounding would give …013).
  check("0.1234567890134999999999999999999999999999", "1");
  check("0.1234567890124999999999999999999999999999", "1");
  check("-0.1234567890134999999999999999999999999999", "1");
  check("0.1234567890135", "1");
  check("0.1234567890125", "1");
  check("1", "3");
  check("2", "3");
  check("1", "7");
  check("9999999999999999.999999999999999999", "9999999999999999.999999999999999999");
  check("9999999999999999.999999999999999998", "9999999999999999.999999999999999999");
  check("0.000000000000000001", "9999999999999999.999999999999999999");
  check("99999999999999999999999999999999", "1");
  check("-999999999999999999999999999999.99", "0.01");
  check("0", "5");
  check("0.00000000000000000000000001", "1");
  check("0.000000000000049999999999", "1");
  check("0.00000000000005", "1");
  check("0.000000000000050000000001", "1");
  check("123456789", "123456789000");
  check("99999999999999999999999999999999995", "1000000000000000000000000000000000000");
});

test("a quotient of 10^34 % or more is left to the Decimal path", () => {
  expect(integerPath(new Decimal("1e40"), new Decimal("1"))).toBeNull();
  expect(integerPath(new Decimal("9999999999999999.999999999999999999"), new Decimal("0.000000000000000001"))).toBeNull();
  expect(integerPath(new Decimal("-9999999999999999.999999999999999999"), new Decimal("0.000000000000000001"))).toBeNull();
  expect(integerPath(new Decimal("1"), new Decimal("0"))).toBeNull();
});

test("integer percentages equal the Decimal path at every distance from a tie at the 10th decimal", () => {
  // 12.3456789012|5 (a tie) moved by one unit of the 13th to the 45th digit after it, both ways:
  // the 34-digit quotient reaches the tie from the nearer distances only, and one rounding
  // straight to 10 decimals is right only from the farther ones.
  for (let k = 1; k <= 33; k++) {
    const zeros = "0".repeat(k - 1);
    for (const amount of [`0.1234567890125${zeros}1`, `0.1234567890124${"9".repeat(k)}`, `0.1234567890135${zeros}1`, `0.1234567890134${"9".repeat(k)}`]) {
      check(amount, "1");
      check(`-${amount}`, "1");
      check(new Decimal(amount).times(3).toFixed(), "3");
      check(new Decimal(amount).times("7.1").toFixed(), "7.1");
    }
  }
});

/** The text of the doubles' digits as `percentText` writes them (null: the doubles declined). */
function doublesText(amount: Decimal, total: Decimal): string | null {
  const n = percentFromDoubles(decimalParts(amount), decimalParts(total));
  if (n < 0) return null;
  if (n === 0) return "0";
  return (amount.isNeg() ? "-" : "") + new Decimal(n).div(1e10).toFixed();
}

test("the fast path gives the exact percentages of the BigInt path", () => {
  // Day-like amounts and totals (34-digit converted values and their sums), shares of every size
  // down to below 10^-10 %, negative components, and far exponents: wherever the doubles decide,
  // their digits are the BigInt path's and the Decimal division's.
  let decided = 0;
  let cases = 0;
  for (let i = 0; i < 30_000; i++) {
    const divisor = new Decimal(randomDecimal(2, 8));
    const total = new Decimal(randomDecimal(12, 18)).div(divisor.isZero() ? 1 : divisor).abs();
    if (total.isZero()) continue;
    const kind = int(0, 3);
    const share = kind === 0 ? new Decimal(randomDecimal(0, 34)) : new Decimal(1).div(int(1, 10 ** int(1, 15)));
    // A short amount (a value in the target currency, few decimals) against a 34-digit total:
    // exponents 25 and more apart.
    let amount = kind === 3 ? total.times(share).toDecimalPlaces(int(0, 2)) : total.times(share);
    if (amount.isZero()) continue;
    if (int(0, 9) === 0) amount = amount.neg();
    cases++;
    const fast = doublesText(amount, total);
    if (fast === null) continue;
    decided++;
    const exact = percentTextInIntegers(decimalParts(amount), decimalParts(total));
    expect({ amount: amount.toFixed(), total: total.toFixed(), fast }).toEqual({ amount: amount.toFixed(), total: total.toFixed(), fast: exact! });
    expect(fast).toBe(decimalPath(amount, total));
  }
  // The doubles decide nearly all of them (not: within their error of a tie, or 10^5 % and more).
  expect(decided).toBeGreaterThan(cases * 0.99);
});

test("the fast path leaves a percentage within its error of a tie at the 10th decimal to the BigInt path", () => {
  // Exactly on a tie, and a unit of the 34th digit to either side: the doubles cannot tell them
  // apart, so they decline and the integers round (half-even on the exact tie).
  for (const amount of ["0.0000000000005", "0.1234567890125", "0.1234567890135", "0.00000000000049999999999999999999", "0.00000000000050000000000000000001"]) {
    for (const [a, t] of [[amount, "1"], [new Decimal(amount).times("3.7").toFixed(), "3.7"], [`-${amount}`, "1"]] as const) {
      expect(percentFromDoubles(decimalParts(new Decimal(a)), decimalParts(new Decimal(t)))).toBe(-1);
      check(a, t);
    }
  }
  // Exponents beyond the doubles' powers of ten, and totals beyond the double range, also decline.
  expect(percentFromDoubles(decimalParts(new Decimal("1e-330")), decimalParts(new Decimal("1")))).toBe(-1);
  expect(percentFromDoubles(decimalParts(new Decimal("1")), decimalParts(new Decimal("1e400")))).toBe(-1);
});
