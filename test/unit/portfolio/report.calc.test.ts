import { describe, expect, test } from "bun:test";
import { buildReport } from "../../../core/portfolio/report.calc.ts";
import { input } from "./report-input.sample.ts";

const report = (flags = {}) => JSON.parse(JSON.stringify(buildReport(input(false, flags)))) as any;

describe("report", () => {
  test("history has one point per day of the period; net worth = cash + market value + in transit", () => {
    const r = report();
    expect(r.history.length).toBe(10);
    const s = r.summary;
    expect(Number(s.net_worth.amount)).toBeCloseTo(Number(s.cash_total.amount) + Number(s.market_value.amount) + Number(s.in_transit_market_value.amount), 8);
    expect(r.history.at(-1).nav_value).toEqual(s.net_worth);
  });

  test("sections not asked for are null", () => {
    const r = report({ summary: false, history: false });
    expect(r.summary).toBeNull();
    expect(r.history).toBeNull();
    expect(r.allocation_history).toBeNull();
    expect(r.positions_contribution).toBeNull();
    expect(r.data_quality.issues.map((i: any) => i.code)).toContain("MWRR_NOT_CALCULABLE");
  });

  test("money is written with at most 10 decimals; returns are never NaN or Infinity", () => {
    const r = report({ positionsContribution: true, breakdown: true });
    const json = JSON.stringify(r);
    expect(json).not.toMatch(/NaN|Infinity/);
    for (const p of r.history) for (const v of Object.values(p) as any[]) {
      const amount = typeof v === "object" && v !== null ? v.amount : typeof v === "string" && v !== p.date ? v : null;
      if (amount !== null) expect(amount).toMatch(/^-?\d+(\.\d{1,10})?$/);
    }
  });
});
