import { describe, expect, test } from "bun:test";
import { aggregationScale } from "../../core/brokers/share-scale.ts";
import { checkShares, parseShare } from "../../core/brokers/share.ts";
import { Decimal } from "../../core/money/decimal.ts";

describe("share-weighted aggregation", () => {
  test("OWNER rows scale by their share; EDITOR and VIEWER rows see full data (scale 1)", () => {
    expect(aggregationScale({ role: "OWNER", sharePercentage: "0.250000" }).toFixed(6)).toBe("0.250000");
    expect(aggregationScale({ role: "OWNER", sharePercentage: "0.000000" }).isZero()).toBe(true);
    expect(aggregationScale({ role: "EDITOR", sharePercentage: "0.000000" }).toFixed()).toBe("1");
    expect(aggregationScale({ role: "VIEWER", sharePercentage: "0.000000" }).toFixed()).toBe("1");
  });

  test("the scale is exact decimal arithmetic", () => {
    const value = new Decimal("1000.10");
    expect(value.times(aggregationScale({ role: "OWNER", sharePercentage: "0.333333" })).toFixed()).toBe("333.3663333");
  });
});

describe("share rules", () => {
  test("sum at most 1 (exactly 1 is fine), only OWNER above 0", () => {
    expect(() => checkShares([{ userId: 1, role: "OWNER", share: parseShare("0.5") }, { userId: 2, role: "OWNER", share: parseShare("0.5") }])).not.toThrow();
    expect(() => checkShares([{ userId: 1, role: "OWNER", share: parseShare("0.5") }, { userId: 2, role: "OWNER", share: parseShare("0.500001") }])).toThrow("at most 1.000000");
    expect(() => checkShares([{ userId: 1, role: "VIEWER", share: parseShare("0.1") }])).toThrow("Only an OWNER");
    expect(() => checkShares([{ userId: 1, role: "OWNER", share: parseShare("0") }])).not.toThrow();
  });
});
