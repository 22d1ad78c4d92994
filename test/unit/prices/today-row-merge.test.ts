import { describe, expect, test } from "bun:test";
import { mergeTodayRow, sameDayPrices } from "../../../core/prices/today-row.calc.ts";

describe("current price: a quote dated today creates or extends today's row", () => {
  test("no row yet: open, high, low and close all equal the quote", () => {
    expect(mergeTodayRow(null, "0.1")).toEqual({ open: "0.1", high: "0.1", low: "0.1", close: "0.1" });
  });

  test("a higher quote widens high, keeps low and open, replaces close", () => {
    expect(mergeTodayRow({ open: "100", high: "101", low: "99.5", close: "100.75" }, "101.25"))
      .toEqual({ open: "100", high: "101.25", low: "99.5", close: "101.25" });
  });

  test("a lower quote widens low", () => {
    expect(mergeTodayRow({ open: "100", high: "101", low: "99.5", close: "100.75" }, "99.25"))
      .toEqual({ open: "100", high: "101", low: "99.25", close: "99.25" });
  });

  test("open is set only when missing; a missing high or low becomes the quote", () => {
    expect(mergeTodayRow({ open: null, high: null, low: null, close: "5" }, "6")).toEqual({ open: "6", high: "6", low: "6", close: "6" });
  });

  test("strings are kept as written, compared by value not text (\"101.250\" equals \"101.25\")", () => {
    expect(mergeTodayRow({ open: "1", high: "101.250", low: "9.0", close: "10" }, "101.25"))
      .toEqual({ open: "1", high: "101.250", low: "9.0", close: "101.25" });
    expect(mergeTodayRow({ open: "1", high: "99.999999999999999999", low: "1", close: "1" }, "100").high).toBe("100");
  });

  test("sameDayPrices tells an unchanged merge so nothing is rewritten", () => {
    const row = { open: "1", high: "2", low: "1", close: "2" };
    expect(sameDayPrices(row, mergeTodayRow(row, "2"))).toBe(true);
    expect(sameDayPrices(row, mergeTodayRow(row, "1.5"))).toBe(false);
  });
});
