import { describe, expect, test } from "bun:test";
import { solveXirr } from "../../core/portfolio/returns.calc.ts";

// The one XIRR solver (core/portfolio/returns.calc.ts): −navStart at t = 0, flows, +navEnd at tEnd (years).
describe("xirr", () => {
  test("one year, +10 % gives 0.1", () => {
    expect(solveXirr(100, [], [], 1, 110, 0.1)).toBeCloseTo(0.1, 12);
  });

  test("a loss gives a negative rate", () => {
    expect(solveXirr(100, [], [], 1, 80, 0.1)).toBeCloseTo(-0.2, 10);
  });

  test("flows of one sign only have no rate", () => {
    expect(solveXirr(100, [], [], 1, -80, 0.1)).toBeNull();
  });

  test("an intermediate flow is discounted at its own time", () => {
    const r = solveXirr(1000, [182 / 365], [-500], 366 / 365, 1650, 0.1)!;
    expect(Math.abs(-1000 - 500 * (1 + r) ** (-182 / 365) + 1650 * (1 + r) ** (-366 / 365))).toBeLessThan(1e-6);
  });
});
