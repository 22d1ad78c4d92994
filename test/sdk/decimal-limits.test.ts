import { describe, expect, test } from "bun:test";
import * as coreLimits from "../../core/money/decimal-limits.ts";
import { boundedDecimal, DECIMAL_LIMITS, DecimalStringSchema, isLimitMessage, limitMessage, withinLimits, z } from "../../sdk/index.ts";

// The supported range of decimals (docs/errors.md): 16 digits before the point, 18 after, 30 in all.

const issues = (schema: z.ZodType, value: unknown) => {
  const parsed = schema.safeParse(value);
  return parsed.success ? [] : parsed.error.issues.map((i) => i.message);
};

describe("boundedDecimal(kind): a DecimalStringSchema refined with the supported range", () => {
  test("the largest values of the range pass and keep their text", () => {
    for (const value of ["9999999999999999", "-9999999999999999", "0.123456789012345678", "123456789012.123456789012345678", "1.5000000000000000000000", "0"]) {
      expect([value, boundedDecimal("amount").safeParse(value).data]).toEqual([value, value]);
    }
  });

  test("one digit more before the point, after it or in all fails with limitMessage(kind) alone", () => {
    const cases = [["amount", "12345678901234567"], ["rate", `0.${"0".repeat(18)}1`], ["price", "1234567890123456.123456789012345"], ["quantity", `-1${"0".repeat(40)}`]] as const;
    for (const [kind, value] of cases) expect([kind, value, issues(boundedDecimal(kind), value)]).toEqual([kind, value, [limitMessage(kind)]]);
    expect(limitMessage("amount")).toBe("outside the supported range of amounts: at most 16 digits before the decimal point, 18 after and 30 in all");
    expect(limitMessage("rate")).toBe("outside the supported range of rates: at most 16 digits before the decimal point, 18 after and 30 in all");
  });

  test("a string that is no decimal gets the decimal-string message only, never the limit's", () => {
    for (const value of ["1e5", `${"1".repeat(40)}x`, "01", 5]) {
      const got = issues(boundedDecimal("amount"), value);
      expect([value, got]).toEqual([value, issues(DecimalStringSchema, value)]);
      expect(got).toHaveLength(1);
    }
  });

  test("inside an object the issue points at the field, and further refinements run only on values in range", () => {
    const schema = z.object({ rate: boundedDecimal("rate").refine((s) => !s.startsWith("-"), { message: "must not be negative", when: (p) => p.issues.length === 0 }) });
    const parsed = schema.safeParse({ rate: `-0.${"1".repeat(19)}` });
    expect(parsed.success ? [] : parsed.error.issues.map((i) => [i.path, i.message])).toEqual([[["rate"], limitMessage("rate")]]);
    expect(issues(schema, { rate: "-0.5" })).toEqual(["must not be negative"]);
  });

  test("leading zeros of the integer part and trailing zeros of the fraction do not count", () => {
    expect(withinLimits(`0.${"1".repeat(18)}${"0".repeat(10)}`, "rate")).toBe(true);
    expect(withinLimits(`1${"0".repeat(15)}.${"0".repeat(30)}`, "amount")).toBe(true);
    expect(isLimitMessage(limitMessage("quantity"))).toBe(true);
    expect(isLimitMessage("must be greater than 0")).toBe(false);
  });

  test("core and the host use the SDK's one implementation", () => {
    expect(coreLimits.withinLimits).toBe(withinLimits);
    expect(coreLimits.limitMessage).toBe(limitMessage);
    expect(coreLimits.DECIMAL_LIMITS).toBe(DECIMAL_LIMITS);
  });
});
