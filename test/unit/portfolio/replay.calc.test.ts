import { describe, expect, test } from "bun:test";
import { replay } from "../../../core/portfolio/replay.calc.ts";
import { input, wideInput } from "./report-input.sample.ts";

describe("replay", () => {
  test("exact scaled-integer valuation: every day's figures equal the per-asset Decimal path to the last digit", () => {
    const fast = replay(input(false)).days;
    const decimal = replay(input(true)).days;
    expect(fast.length).toBe(10);
    for (let i = 0; i < fast.length; i++) {
      for (const k of ["cash", "marketValue", "nav", "openCost", "unrealized", "capitalBaseline", "flow"] as const) {
        expect(`${fast[i]!.date} ${k} ${fast[i]![k].toFixed()}`).toBe(`${decimal[i]!.date} ${k} ${decimal[i]![k].toFixed()}`);
      }
    }
  });

  test("a day's market value is Σ quantity × price × rate over assets (share-weighted)", () => {
    const d = replay(input(false)).days.find((x) => x.date === "2024-01-03")!;
    // EUR: 3.125 × 100.1234 + 10 × 9875.5 / 100; USD: 7 × 0.333333 × 100.07 at 1 EUR = 1.1 USD
    const expected = 3.125 * 100.1234 + 10 * 98.755 + (7 * 0.333333 * 100.07) / 1.1;
    expect(d.marketValue.toNumber()).toBeCloseTo(expected, 9);
  });

  test("exact scaled-integer valuation past 2^53: products and partial sums beyond the safe range, a short, equal to the Decimal path", () => {
    const fast = replay(wideInput(false)).days;
    const decimal = replay(wideInput(true)).days;
    // Σ quantity × close of each day (report-input.sample.ts), worked with Python's decimal module at 60 digits.
    expect(fast.find((d) => d.date === "2024-01-02")!.marketValue.toFixed()).toBe("810066.6900011729");
    expect(fast.find((d) => d.date === "2024-01-03")!.marketValue.toFixed()).toBe("12193266363612.3400887944");
    for (let i = 0; i < fast.length; i++) {
      for (const k of ["cash", "marketValue", "nav", "openCost", "unrealized"] as const) {
        expect(`${fast[i]!.date} ${k} ${fast[i]![k].toFixed()}`).toBe(`${decimal[i]!.date} ${k} ${decimal[i]![k].toFixed()}`);
      }
    }
  });
});
