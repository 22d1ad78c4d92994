import { describe, expect, test } from "bun:test";
import { replay } from "../../../core/portfolio/replay.calc.ts";
import { input } from "./report-input.sample.ts";

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
});
