import { describe, expect, test } from "bun:test";
import { Decimal } from "../../sdk/index.ts";
import { accrue, addMonths, dayNumber, isoDay, yearFraction } from "./day-count.calc.ts";

const asDecimal = (f: { denominator: number; numerator: number }) => new Decimal(f.numerator).div(f.denominator);

describe("ACT/365 and ACT/360 divide the actual days by 365 or 360", () => {
  test("10 days in January", () => {
    expect(yearFraction("2024-01-01", "2024-01-11", "ACT/365")).toEqual({ denominator: 365, numerator: 10 });
    expect(yearFraction("2024-01-01", "2024-01-11", "ACT/360")).toEqual({ denominator: 360, numerator: 10 });
  });

  test("across a leap February: 31 + 29 = 60 days", () => {
    expect(yearFraction("2024-01-01", "2024-03-01", "ACT/360")).toEqual({ denominator: 360, numerator: 60 });
  });

  test("the same day is 0", () => {
    expect(yearFraction("2024-05-05", "2024-05-05", "ACT/365").numerator).toBe(0);
  });

  test("a later start is refused", () => {
    expect(() => yearFraction("2024-01-02", "2024-01-01", "ACT/365")).toThrow(RangeError);
  });
});

describe("ACT/ACT (ISDA) splits the days by calendar year", () => {
  test("11 days of 2023 and 9 of 2024: 11/365 + 9/366", () => {
    const fraction = yearFraction("2023-12-21", "2024-01-10", "ACT/ACT");
    expect(asDecimal(fraction).toFixed(30)).toBe(new Decimal(11).div(365).plus(new Decimal(9).div(366)).toFixed(30));
  });

  test("a whole leap year is 1, a whole common year is 1", () => {
    expect(asDecimal(yearFraction("2024-01-01", "2025-01-01", "ACT/ACT")).toFixed()).toBe("1");
    expect(asDecimal(yearFraction("2023-01-01", "2024-01-01", "ACT/ACT")).toFixed()).toBe("1");
  });

  test("three calendar years: 2023-07-01 to 2025-07-01 is 184/365 + 1 + 181/365", () => {
    const expected = new Decimal(184).div(365).plus(1).plus(new Decimal(181).div(365));
    expect(asDecimal(yearFraction("2023-07-01", "2025-07-01", "ACT/ACT")).toFixed(30)).toBe(expected.toFixed(30));
  });
});

describe("30/360 is the US bond basis", () => {
  const days = (from: string, to: string) => yearFraction(from, to, "30/360").numerator;

  test("D1 31 becomes 30", () => expect(days("2024-01-31", "2024-02-29")).toBe(29));
  test("D2 31 stays when D1 is below 30", () => expect(days("2024-02-29", "2024-03-31")).toBe(32));
  test("D2 31 becomes 30 when D1 is 30 or 31", () => {
    expect(days("2024-04-30", "2024-05-31")).toBe(30);
    expect(days("2024-03-31", "2024-05-31")).toBe(60);
  });
  test("mid-month to month end of 31 days counts 16", () => expect(days("2024-01-15", "2024-01-31")).toBe(16));
  test("a year is 360 days", () => expect(yearFraction("2023-12-31", "2024-12-31", "30/360")).toEqual({ denominator: 360, numerator: 360 }));
});

describe("addMonths is month-end aware and never drifts", () => {
  test("a month-end anchor stays on month ends", () => {
    expect<string[]>([1, 2, 3, 13].map((k) => addMonths("2024-01-31", k))).toEqual(["2024-02-29", "2024-03-31", "2024-04-30", "2025-02-28"]);
    expect<string>(addMonths("2023-02-28", 1)).toBe("2023-03-31");
    expect<string>(addMonths("2024-02-29", 12)).toBe("2025-02-28");
  });

  test("another day is kept, clamped to the month's length", () => {
    expect<string[]>([1, 2].map((k) => addMonths("2024-01-30", k))).toEqual(["2024-02-29", "2024-03-30"]);
    expect<string>(addMonths("2024-11-15", 3)).toBe("2025-02-15");
  });
});

describe("day numbers", () => {
  test("round-trip and count", () => {
    expect<string>(isoDay(dayNumber("2024-02-29"))).toBe("2024-02-29");
    expect(dayNumber("2024-03-01") - dayNumber("2024-02-28")).toBe(2);
    expect(dayNumber("1970-01-01")).toBe(0);
  });

  test("agree with the calendar every day from 1899 to 2101", () => {
    for (let days = dayNumber("1899-01-01"); days <= dayNumber("2101-12-31"); days += 1) {
      const expected = new Date(days * 86_400_000).toISOString().slice(0, 10);
      if (isoDay(days) !== expected || dayNumber(expected) !== days) throw new Error(`day ${days}: ${isoDay(days)} vs ${expected}`);
    }
  });
});

describe("accrue multiplies first and divides once", () => {
  test("10000 x 0.0365 x 10/365 is exactly 10", () => {
    expect(accrue(new Decimal("10000"), new Decimal("0.0365"), { denominator: 365, numerator: 10 }).toFixed()).toBe("10");
  });
});
