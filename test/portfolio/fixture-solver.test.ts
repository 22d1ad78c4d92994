/** The fixtures' own XIRR (fixture-runner.ts) against closed forms, so the references it produces can be trusted. */
import { expect, test } from "bun:test";
import { mwrrOf, npv, solveXirr } from "./fixture-runner.ts";

test("fixture XIRR: one year, +10 % → r = 0.1", () => {
  const r = solveXirr([["2023-01-01", -1000], ["2024-01-01", 1100]])!; // 365 days (2023 is not a leap year)
  expect(Math.abs(r - 0.1)).toBeLessThan(1e-12);
});

test("fixture XIRR: two flows over 60 days → r = 1.2^(365/60) − 1, cumulative 0.2", () => {
  const flows: [string, number][] = [["2024-01-01", -1000], ["2024-03-01", 1200]];
  const m = mwrrOf(flows, 60);
  expect(Math.abs(m.rate - (Math.pow(1.2, 365 / 60) - 1))).toBeLessThan(1e-9);
  expect(Math.abs(m.cumulative - 0.2)).toBeLessThan(1e-12);
  expect(Math.abs(npv(flows, m.rate))).toBeLessThan(1e-9);
});

test("fixture XIRR: same-date amounts are summed; intermediate flows solve to NPV 0", () => {
  const flows: [string, number][] = [["2024-02-01", -10500], ["2024-02-15", -5000], ["2024-03-15", 3000], ["2024-04-30", 13200]];
  const r = solveXirr(flows)!;
  expect(Math.abs(npv(flows, r))).toBeLessThan(1e-8);
  expect(solveXirr([["2024-01-01", -100], ["2024-01-05", -50], ["2024-01-05", 160]])).toBeCloseTo(solveXirr([["2024-01-01", -100], ["2024-01-05", 110]])!, 12);
});

test("fixture XIRR: no sign change → no root", () => {
  expect(solveXirr([["2024-01-01", -100], ["2024-02-01", -50]])).toBeNull();
});
