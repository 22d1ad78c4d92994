import { describe, expect, test } from "bun:test";
import { addDays } from "../../../core/dates/calendar.ts";
import { Decimal } from "../../../core/money/decimal.ts";
import { allPeriodReturns, calendarPeriods, PERIOD_LENGTHS } from "../../../core/portfolio/period-returns.calc.ts";
import { buildReport } from "../../../core/portfolio/report.calc.ts";
import type { ReportInput } from "../../../core/portfolio/report-input.ts";
import { input } from "./report-input.sample.ts";

/**
 * The sample ledger run on to mid-July, with deposits, a withdrawal and trades in later months
 * and a close on the 15th of every month, so months, quarters and the year differ.
 */
function longInput(): ReportInput {
  const base = input(false, { periodReturns: true });
  let id = 100;
  const tx = (over: Partial<ReportInput["transactions"][number]>) => ({
    id: id++, brokerId: 1, assetId: null, quantity: "0", amount: null, currency: null, relatedId: null, partnerBrokerId: null,
    partnerDate: null, costBasisOverride: null, costBasisCurrency: null, splitLinked: false, type: "DEPOSIT", date: "", ...over,
  });
  const closes = (first: number, step: number) => {
    const dates: string[] = [], out: string[] = [];
    for (let m = 2; m <= 7; m++) { dates.push(`2024-0${m}-15`); out.push((first + (m % 2 === 0 ? step : -step) * m).toFixed(4)); }
    return { dates, out };
  };
  const q1 = closes(100, 1.7), q2 = closes(100, 2.3);
  return {
    ...base,
    transactions: [...base.transactions,
      tx({ type: "DEPOSIT", date: "2024-02-20", amount: "20000", currency: "EUR" }),
      tx({ type: "BUY", date: "2024-03-01", assetId: 1, quantity: "40", amount: "-4100", currency: "EUR" }),
      tx({ type: "WITHDRAWAL", date: "2024-04-10", amount: "-15000", currency: "EUR" }),
      tx({ type: "BUY", date: "2024-05-02", brokerId: 2, assetId: 2, quantity: "12", amount: "-1200", currency: "USD" }),
      tx({ type: "SELL", date: "2024-06-28", assetId: 1, quantity: "-20", amount: "2150.5", currency: "EUR" }),
    ],
    quotes: {
      ...base.quotes,
      1: { dates: [...base.quotes[1]!.dates, ...q1.dates], closes: [...base.quotes[1]!.closes, ...q1.out] },
      2: { dates: [...base.quotes[2]!.dates, ...q2.dates], closes: [...base.quotes[2]!.closes, ...q2.out] },
    },
    end: "2024-07-17",
  };
}

const json = (i: ReportInput) => JSON.parse(JSON.stringify(buildReport(i))) as any;

describe("period returns", () => {
  test("calendar periods start at the first computed day, then at the close before each period, and end at the last computed day", () => {
    expect(calendarPeriods("2024-02-20", "2024-05-03", "month")).toEqual([
      { begins: "2024-02-01", start: "2024-02-20", end: "2024-02-29" },
      { begins: "2024-03-01", start: "2024-02-29", end: "2024-03-31" },
      { begins: "2024-04-01", start: "2024-03-31", end: "2024-04-30" },
      { begins: "2024-05-01", start: "2024-04-30", end: "2024-05-03" },
    ]);
    expect(calendarPeriods("2023-11-30", "2024-04-01", "quarter")).toEqual([
      { begins: "2023-10-01", start: "2023-11-30", end: "2023-12-31" },
      { begins: "2024-01-01", start: "2023-12-31", end: "2024-03-31" },
      { begins: "2024-04-01", start: "2024-03-31", end: "2024-04-01" },
    ]);
    expect(calendarPeriods("2024-01-01", "2025-01-01", "year")).toEqual([
      { begins: "2024-01-01", start: "2024-01-01", end: "2024-12-31" },
      { begins: "2025-01-01", start: "2024-12-31", end: "2025-01-01" },
    ]);
    // A period ending on the first computed day is a one-day period, kept like the report of one day.
    expect(calendarPeriods("2024-01-31", "2024-02-02", "month")).toEqual([
      { begins: "2024-01-01", start: "2024-01-31", end: "2024-01-31" },
      { begins: "2024-02-01", start: "2024-01-31", end: "2024-02-02" },
    ]);
  });

  test("each period's TWRR and MWRR are, to the digit, the summary of a report over that period alone", () => {
    const whole = longInput();
    const r = json(whole);
    expect(r.metadata.included_features).toContain("period_returns");
    expect(r.period_returns.month.length).toBe(7);
    expect(r.period_returns.quarter.length).toBe(3);
    expect(r.period_returns.year.length).toBe(1);
    let compared = 0;
    for (const length of ["month", "quarter", "year"] as const) {
      for (const p of r.period_returns[length]) {
        const alone = json({ ...whole, start: p.date_from, end: p.date_to, flags: { ...whole.flags, history: false, periodReturns: false } }).summary;
        expect({ at: `${length} ${p.period_begin}`, ...p }).toEqual({
          at: `${length} ${p.period_begin}`, period_begin: p.period_begin, date_from: p.date_from, date_to: p.date_to,
          twrr_percent: alone.twrr_percent, mwrr_available: alone.mwrr_available, mwrr_annualized_percent: alone.mwrr_annualized_percent,
          mwrr_cumulative_percent: alone.mwrr_cumulative_percent, mwrr_period_days: alone.mwrr_period_days,
        });
        compared++;
      }
    }
    expect(compared).toBe(11);
    // The year is the whole period: its figures are the summary's.
    expect(r.period_returns.year[0].twrr_percent).toBe(r.summary.twrr_percent);
    expect(r.period_returns.year[0].mwrr_cumulative_percent).toBe(r.summary.mwrr_cumulative_percent);
    // Months differ from one another (the ledger moves), so the comparison is not between zeros.
    expect(new Set(r.period_returns.month.map((p: any) => p.twrr_percent)).size).toBeGreaterThan(4);
  });

  test("periods kept from an earlier run are taken only when they end before the first changed day; the others equal a cold computation to the digit", () => {
    // Two and a half years of days with flows; each run below changes the days from `changed` on.
    const dates = Array.from({ length: 900 }, (_, i) => addDays("2023-01-01", i));
    const flows = dates.map((_, i) => new Decimal(i % 17 === 3 ? 1000 + i : i % 29 === 5 ? -300 : 0));
    const before = dates.map((_, i) => new Decimal(10_000 + i * 37 + (i % 7) * 211 + (i > 3 ? 1000 : 0)).div(3));
    const first = allPeriodReturns(dates, before, flows);
    // The growth is kept for the last two calendar years only (2024 and 2025: from the day after 2023-12-31).
    expect(first.growthFrom).toBe(365);
    expect(first.growth.year[364]).toBeUndefined();
    expect(first.growth.month[100]).toBeUndefined();
    expect(first.growth.year[365]).toBeInstanceOf(Decimal);
    // 2023-05-12 (before the kept growth: its year is computed whole), then 2024-12-01 (its year continues from the kept growth).
    for (const [changed, kept] of [[131, 4 + 1], [700, 23 + 7 + 1]] as const) {
      const after = before.map((v, i) => (i >= changed ? v.plus(i % 5 === 0 ? 250 : -75) : v));
      const resumed = allPeriodReturns(dates, after, flows, { ...first, days: changed });
      const cold = allPeriodReturns(dates, after, flows);
      expect(JSON.stringify(resumed.periods)).toBe(JSON.stringify(cold.periods));
      expect(resumed.growth.year.map(String)).toEqual(cold.growth.year.map(String));
      let taken = 0;
      for (const length of PERIOD_LENGTHS) {
        for (const [k, p] of resumed.periods[length].entries()) {
          const endsBefore = p.end < dates[changed]!;
          // A period ending before the change is the kept object itself; the others are computed again.
          expect({ changed, length, begins: p.begins, kept: p === first.periods[length][k] }).toEqual({ changed, length, begins: p.begins, kept: endsBefore });
          if (endsBefore) taken++;
        }
      }
      expect(taken).toBe(kept);
      // And the months after the change do differ from the first run's (the check is not between equal figures).
      expect(resumed.periods.month.at(-1)!.twrrPercent.eq(first.periods.month.at(-1)!.twrrPercent)).toBe(false);
    }
  });

  test("not asked for: period_returns is null and not among the included features", () => {
    const r = json({ ...longInput(), flags: { ...longInput().flags, periodReturns: false } });
    expect(r.period_returns).toBeNull();
    expect(r.metadata.included_features).not.toContain("period_returns");
  });
});
