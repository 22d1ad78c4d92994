import { describe, expect, test } from "bun:test";
import { AssetValues } from "../../../core/portfolio/asset-values.ts";
import { partsOfText } from "../../../core/portfolio/exact-decimal.ts";
import type { DayState } from "../../../core/portfolio/replay.calc.ts";
import type { AssetInfo } from "../../../core/portfolio/report-input.ts";
import { allocationPoints, buildReport } from "../../../core/portfolio/report.calc.ts";
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

describe("allocation points", () => {
  const asset = (id: number, sectors: Record<string, string> | null): AssetInfo => ({
    id, name: `A${id}`, ticker: null, type: "STOCK", currency: "EUR", quoteBaseQuantity: "1", hasProvider: false, sectors, geography: null,
  });
  const assets = new Map([[1, asset(1, { Energy: "0.7000", Utilities: "0.3000" })], [2, asset(2, { Energy: "1" })], [3, asset(3, null)]]);
  const day = (date: string, values: [number, string][]): DayState =>
    ({ date, assetValues: AssetValues.of(new Map(values.map(([id, v]) => [id, partsOfText(v)]))) }) as unknown as DayState;
  const components = (d: DayState) => allocationPoints(d, assets).sector.components;

  test("each day's component sums are that day's own, whatever the days before summed", () => {
    expect(components(day("2024-01-01", [[1, "100"], [2, "50"], [3, "10"]]))).toEqual([
      { name: "Energy", value: "75", amount: "120" }, { name: "Utilities", value: "18.75", amount: "30" }, { name: "Unknown", value: "6.25", amount: "10" },
    ]);
    // The next day holds other assets: no component carries the previous day's sums.
    expect(components(day("2024-01-02", [[2, "20"], [3, "20"]]))).toEqual([
      { name: "Energy", value: "50", amount: "20" }, { name: "Unknown", value: "50", amount: "20" },
    ]);
    expect(components(day("2024-01-03", [[1, "10"]]))).toEqual([
      { name: "Energy", value: "70", amount: "7" }, { name: "Utilities", value: "30", amount: "3" },
    ]);
  });
});
