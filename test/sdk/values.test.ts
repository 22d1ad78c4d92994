import { describe, expect, test } from "bun:test";
import { Decimal as RawDecimal } from "decimal.js";
import {
  CurrencyCodeSchema,
  Decimal,
  DecimalStringSchema,
  IsoDateRangeSchema,
  IsoDateSchema,
  toDecimalString,
  toIsoDate,
} from "../../sdk/index.ts";

const text = (value: string): string => value;
const accepts = (schema: { safeParse(v: unknown): { success: boolean } }, value: unknown) => schema.safeParse(value).success;

describe("branded schemas", () => {
  test("DecimalString accepts plain fixed-point with an optional leading minus", () => {
    for (const value of ["0", "-0", "12", "-12.50", "0.0000001", "123456789012345678901234567890.123"]) {
      expect([value, accepts(DecimalStringSchema, value)]).toEqual([value, true]);
    }
  });

  test("DecimalString rejects exponents, signs, leading zeros, separators, blanks and non-strings", () => {
    for (const value of ["1e5", "1E-7", "+1", "01", ".5", "5.", "1,5", " 1", "1 ", "", "NaN", "Infinity", "--1", 1.5, null]) {
      expect([value, accepts(DecimalStringSchema, value)]).toEqual([value, false]);
    }
  });

  test("IsoDate accepts only real calendar days in YYYY-MM-DD form (no year 0000)", () => {
    for (const value of ["2024-02-29", "2000-02-29", "1999-12-31", "0001-01-01"]) expect([value, accepts(IsoDateSchema, value)]).toEqual([value, true]);
    for (const value of ["2023-02-29", "1900-02-29", "2024-13-01", "2024-04-31", "2024-00-10", "2024-2-1", "2024-01-01T00:00:00Z", "20240101", "0000-01-01", "0000-02-29"]) {
      expect([value, accepts(IsoDateSchema, value)]).toEqual([value, false]);
    }
  });

  test("an IsoDate range must not end before it starts", () => {
    expect(accepts(IsoDateRangeSchema, { from: "2024-01-01", to: "2024-01-01" })).toBe(true);
    const parsed = IsoDateRangeSchema.safeParse({ from: "2024-02-01", to: "2024-01-31" });
    expect(parsed.error?.issues.map((i) => [i.path, i.message])).toEqual([[["from"], "from must not be after to"]]);
  });

  test("CurrencyCode accepts exactly three upper-case letters", () => {
    expect(["EUR", "USD", "XAU"].every((c) => accepts(CurrencyCodeSchema, c))).toBe(true);
    expect(["eur", "EURO", "EU", "E1R", ""].some((c) => accepts(CurrencyCodeSchema, c))).toBe(false);
  });

  test("parsing returns the same string, now branded", () => {
    expect(DecimalStringSchema.parse("-1.50") as string).toBe("-1.50");
    expect(IsoDateSchema.parse("2024-02-29") as string).toBe("2024-02-29");
  });
});

describe("Decimal", () => {
  test("is one clone with 34 significant digits and half-even rounding, leaving decimal.js itself untouched", () => {
    expect(Decimal.precision).toBe(34);
    expect(Decimal.rounding).toBe(RawDecimal.ROUND_HALF_EVEN);
    expect(RawDecimal.precision).toBe(20);
    expect(new Decimal(1).div(3).toString()).toBe(`0.${"3".repeat(34)}`);
    expect(["0.5", "1.5", "2.5", "-2.5"].map((v) => new Decimal(v).toDecimalPlaces(0).toString())).toEqual(["0", "2", "2", "-2"]);
  });

  test("adds decimal strings exactly, where floats would not", () => {
    expect(new Decimal("0.1").plus("0.2").toString()).toBe("0.3");
  });

  test("toDecimalString writes fixed notation with no exponent at any magnitude", () => {
    expect(text(toDecimalString(new Decimal("1e-7")))).toBe("0.0000001");
    expect(text(toDecimalString(new Decimal("1e21")))).toBe("1000000000000000000000");
    expect(text(toDecimalString(new Decimal("-123.4500")))).toBe("-123.45");
    expect(text(toDecimalString(new Decimal(2).pow(-30)))).not.toContain("e");
    expect(accepts(DecimalStringSchema, toDecimalString(new Decimal("9.99e-25")))).toBe(true);
  });

  test("toDecimalString writes negative zero as 0 and refuses NaN and infinities", () => {
    expect(text(toDecimalString(new Decimal("-0")))).toBe("0");
    expect(() => toDecimalString(new Decimal(NaN))).toThrow(RangeError);
    expect(() => toDecimalString(new Decimal(Infinity))).toThrow(RangeError);
  });
});

test("toIsoDate takes the UTC day of an instant and refuses invalid dates", () => {
  expect(toIsoDate(new Date("2024-03-05T23:30:00-02:00")) as string).toBe("2024-03-06");
  expect(toIsoDate(new Date("2024-03-05T00:00:00Z")) as string).toBe("2024-03-05");
  expect(() => toIsoDate(new Date("nope"))).toThrow(RangeError);
});
