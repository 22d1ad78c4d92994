import { describe, expect, test } from "bun:test";
import { compareDecimal, negateDecimal, roundDecimal, signOf } from "../../web/src/lib/decimal.ts";
import { formatDate, formatDecimal, formatMoney, formatPercent, fractionToPercent } from "../../web/src/lib/format.ts";

describe("decimal strings, rounded on their digits", () => {
  test("half away from zero, carrying through every digit", () => {
    expect(roundDecimal("1.005", 2)).toBe("1.01"); // (1.005).toFixed(2) is "1.00" with floats
    expect(roundDecimal("-1.005", 2)).toBe("-1.01");
    expect(roundDecimal("9.995", 2)).toBe("10.00");
    expect(roundDecimal("999.9999", 0)).toBe("1000");
    expect(roundDecimal("0.004", 2)).toBe("0.00");
    expect(roundDecimal("-0.004", 2)).toBe("0.00"); // no "-0.00"
    expect(roundDecimal("12", 2)).toBe("12");
  });
  test("values beyond float precision keep every digit", () => {
    expect(roundDecimal("12345678901234567890.125", 2)).toBe("12345678901234567890.13");
    expect(compareDecimal("0.30000000000000000001", "0.3")).toBe(1);
    expect(compareDecimal("-2", "-10")).toBe(1);
    expect(signOf("-0.000")).toBe(0);
    expect(negateDecimal("5.10")).toBe("-5.10");
    expect(negateDecimal("-5")).toBe("5");
  });
});

describe("money by locale", () => {
  test("currency symbol, grouping and decimal mark follow the locale", () => {
    expect(formatMoney("1234.5", "USD", "en-US")).toBe("$1,234.50");
    expect(formatMoney("-1234.565", "EUR", "de-DE")).toBe("-1.234,57\u00a0€");
    expect(formatMoney("1000", "JPY", "en-US")).toBe("¥1,000");
    expect(formatMoney("1.2345", "BHD", "en-US")).toContain("1.235");
  });
  test("amounts larger than a float can hold are shown exactly", () => {
    expect(formatMoney("98765432109876543.21", "EUR", "en-US")).toBe("€98,765,432,109,876,543.21");
    expect(formatDecimal("12345678901234567890.123456789", "en-US")).toBe("12,345,678,901,234,567,890.123456789");
  });
  test("missing and malformed values", () => {
    expect(formatMoney(null, "EUR", "en-US")).toBe("—");
    expect(formatMoney("abc", "EUR", "en-US")).toBe("abc");
  });
});

describe("percentages and dates", () => {
  test("percent units with sign and locale", () => {
    expect(formatPercent("12.345", "en-US", { signed: true })).toBe("+12.35%");
    expect(formatPercent("-3.1", "de-DE", { signed: true })).toBe("-3,10\u00a0%");
    expect(formatPercent("0", "en-US", { signed: true })).toBe("0.00%");
    expect(formatPercent("2", "en-US")).toBe("2.00%");
  });
  test("a fraction becomes percent units by moving the point", () => {
    expect(fractionToPercent("0.1234")).toBe("12.34");
    expect(fractionToPercent("-0.005")).toBe("-0.5");
    expect(fractionToPercent("1.5")).toBe("150");
  });
  test("calendar dates do not shift with the time zone", () => {
    expect(formatDate("2024-03-05", "en-US")).toBe("Mar 5, 2024");
    expect(formatDate("2024-03-05", "de-DE")).toBe("05.03.2024");
  });
});
