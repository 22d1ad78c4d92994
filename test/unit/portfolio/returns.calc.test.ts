import { describe, expect, test } from "bun:test";
import { Decimal } from "../../../core/money/decimal.ts";
import { checkMwrrSeries, type Mwrr, mwrrSeries, mwrrSummary, solveXirr, twrrSeries } from "../../../core/portfolio/returns.calc.ts";

const d = (xs: string[]) => xs.map((x) => new Decimal(x));
const point = (cumulative: number | null): Mwrr => ({ rate: cumulative, annualized: null, cumulative, days: 1, reason: null });

describe("TWRR", () => {
  test("flows count at the end of the day: a deposit is removed from the day's end value", () => {
    expect(twrrSeries(d(["1000", "1100", "1710"]), d(["1000", "0", "500"])).map((x) => x.toFixed())).toEqual(["0", "0.1", "0.21"]);
  });

  test("a day after a NAV at or below zero has a holding-period return of 0", () => {
    expect(twrrSeries(d(["0", "0", "500", "550"]), d(["0", "0", "500", "0"])).map((x) => x.toFixed())).toEqual(["0", "0", "0", "0.1"]);
  });
});

describe("MWRR", () => {
  test("two flows one year apart give the plain return", () => {
    expect(solveXirr(100, [], [], 1, 110, 0.1)).toBeCloseTo(0.1, 12);
  });

  test("falls back to bisection when Newton starts far off", () => {
    expect(solveXirr(100, [], [], 1, 5000, -0.95)).toBeCloseTo(49, 9);
  });

  test("not calculable: zero-day period, NAV at or below zero, no net invested capital", () => {
    expect(mwrrSummary(d(["100"]), d(["100"])).reason).toBe("zero_day_period");
    expect(mwrrSummary(d(["100", "0"]), d(["100", "0"])).reason).toBe("nav_not_positive");
    expect(mwrrSummary(d(["100", "50"]), d(["100", "-150"])).reason).toBe("no_net_invested_capital");
  });

  test("annualised only from 30 days; cumulative always", () => {
    const navs = d(Array.from({ length: 31 }, (_, i) => String(100 + i)));
    const flows = d(["100", ...Array.from({ length: 30 }, () => "0")]);
    const series = mwrrSeries(navs, flows, true);
    expect(series[29]!.annualized).toBeNull();
    expect(series[30]!.annualized).not.toBeNull();
    expect(series[30]!.cumulative!).toBeCloseTo(0.3, 10);
    expect(series[29]!.cumulative!).toBeCloseTo(0.29, 10);
  });
});

describe("series check: MWRR_SERIES_UNRELIABLE", () => {
  const dates = ["2024-01-01", "2024-01-02", "2024-01-03"];

  test("within max(0.005, 5 % of |summary|) the series is kept", () => {
    const series = [point(null), point(0.1), point(0.104)];
    expect(checkMwrrSeries(0.1, series, dates, () => { throw new Error("no rebuild"); })).toEqual({ series });
  });

  test("beyond the tolerance a cold rebuild that agrees replaces the series", () => {
    const cold = [point(null), point(0.1), point(0.1)];
    expect(checkMwrrSeries(0.1, [point(null), point(0.1), point(0.2)], dates, () => cold)).toEqual({ series: cold });
  });

  test("a rebuild that still disagrees nulls every point and reports params in percent rounded to two decimals", () => {
    const warm = [point(null), point(0.1), point(0.2)];
    const out = checkMwrrSeries(0.1, warm, dates, () => [point(null), point(0.15), point(0.123456)]);
    expect(out.series.every((p) => p.cumulative === null && p.annualized === null)).toBe(true);
    expect(out.unreliable).toEqual({ summaryCum: 10, seriesCum: 12.35, divergencePp: 2.35, firstBadDate: "2024-01-02" });
  });

  test("the tolerance floor is 0.005 for small returns; a missing last value is unreliable", () => {
    expect(checkMwrrSeries(0.01, [point(null), point(0.014)], dates.slice(0, 2), () => []).unreliable).toBeUndefined();
    const out = checkMwrrSeries(0.01, [point(null), point(null)], dates.slice(0, 2), () => [point(null), point(null)]);
    expect(out.unreliable).toEqual({ summaryCum: 1, seriesCum: null, divergencePp: null, firstBadDate: "2024-01-02" });
  });

  test("fewer than two history points are never checked", () => {
    expect(checkMwrrSeries(0.1, [point(5)], dates.slice(0, 1), () => []).unreliable).toBeUndefined();
  });
});
