import { describe, expect, test } from "bun:test";
import { type ConvertLeg, convertAlong, eachDay, indexOnOrBefore, invertRate } from "../../../core/fx/convert.calc.ts";
import { Decimal } from "../../../core/money/decimal.ts";

const series = (points: [string, string][]) => ({ dates: points.map((p) => p[0]), rates: points.map((p) => new Decimal(p[1])) });
const leg = (from: string, to: string, points: [string, string][]): ConvertLeg => ({ from, to, series: series(points) });

describe("convert.calc", () => {
  test("a native leg multiplies by the stored rate on the day, without backward-fill info", () => {
    const c = convertAlong(new Decimal(100), [leg("EUR", "USD", [["2024-01-02", "1.1"]])], "2024-01-02")!;
    expect(c.amount.toString()).toBe("110");
    expect(c.rate.toString()).toBe("1.1");
    expect(c.backwardFill).toBeUndefined();
  });

  test("backward fill is unlimited and reports the rate's date and days back", () => {
    const c = convertAlong(new Decimal(1), [leg("EUR", "USD", [["2020-01-01", "1.2"], ["2020-02-01", "1.3"]])], "2024-02-01")!;
    expect(c.rate.toString()).toBe("1.3");
    expect(c.backwardFill).toEqual({ actualRateDate: "2020-02-01", daysBack: 1461 });
  });

  test("no rate on or before the day gives null (no forward fill)", () => {
    expect(convertAlong(new Decimal(1), [leg("EUR", "USD", [["2024-01-05", "1.1"]])], "2024-01-04")).toBeNull();
  });

  test("a reversed leg (walked quote→base) inverts the stored rate to 34 significant digits", () => {
    const c = convertAlong(new Decimal(3), [leg("USD", "EUR", [["2024-01-02", "3"]])], "2024-01-02")!;
    expect(c.rate.toString()).toBe(invertRate(new Decimal(3)).toString());
    expect(c.rate.toString()).toBe("0.3333333333333333333333333333333333");
    expect(c.amount.toSignificantDigits(30).toString()).toBe("1");
  });

  test("a 3-step chain multiplies the legs, and the oldest leg date is reported", () => {
    const legs = [
      leg("CHF", "EUR", [["2024-01-01", "0.5"]]), // CHF < EUR: the stored CHF-EUR rate, walked natively
      leg("EUR", "USD", [["2024-01-03", "2"]]),
      leg("USD", "JPY", [["2024-01-02", "4"]]), // stored JPY-USD = 4 means 1 JPY = 4 USD; walked USD→JPY: 1/4
    ];
    const c = convertAlong(new Decimal(10), legs, "2024-01-03")!;
    expect(c.rate.toString()).toBe("0.25");
    expect(c.amount.toString()).toBe("2.5");
    expect(c.backwardFill).toEqual({ actualRateDate: "2024-01-01", daysBack: 2 });
  });

  test("an empty chain is the identity", () => {
    expect(convertAlong(new Decimal("7.5"), [], "2024-01-01")!.amount.toString()).toBe("7.5");
  });

  test("helpers: binary search and day expansion", () => {
    expect(indexOnOrBefore(["2024-01-01", "2024-01-05"], "2023-12-31")).toBe(-1);
    expect(indexOnOrBefore(["2024-01-01", "2024-01-05"], "2024-01-04")).toBe(0);
    expect(indexOnOrBefore(["2024-01-01", "2024-01-05"], "2024-01-05")).toBe(1);
    expect(eachDay("2024-02-28", "2024-03-01")).toEqual(["2024-02-28", "2024-02-29", "2024-03-01"]);
  });
});
