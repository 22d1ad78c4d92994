import { describe, expect, test } from "bun:test";
import { z } from "zod";
import { PricePointInput, PricePoints } from "../../../host/api/assets/prices.schema.ts";

// PricePoints checks points by hand for speed; PricePointInput is the documented zod rule. They must agree.
const documented = z.array(PricePointInput).min(1);

const samples: [string, unknown][] = [
  ["close only", { date: "2024-01-02", close: "101.25" }],
  ["every field", { date: "2024-02-29", open: "1", high: "2.5", low: "0.5", close: "2", volume: "100", currency: "usd" }],
  ["numbers", { date: "2024-01-02", close: 0.1, open: 3, volume: 0 }],
  ["nulls keep", { date: "2024-01-02", close: "1", open: null, high: null, low: null, volume: null }],
  ["volume -1 clears", { date: "2024-01-02", close: "1", volume: -1 }],
  ["close missing", { date: "2024-01-02" }],
  ["close zero", { date: "2024-01-02", close: "0.00" }],
  ["close negative", { date: "2024-01-02", close: "-3" }],
  ["close with exponent", { date: "2024-01-02", close: "1e3" }],
  ["close with leading zero", { date: "2024-01-02", close: "01" }],
  ["open zero", { date: "2024-01-02", close: "1", open: "0" }],
  ["volume -2", { date: "2024-01-02", close: "1", volume: "-2" }],
  ["not a calendar day", { date: "2023-02-29", close: "1" }],
  ["a timestamp", { date: "2024-01-02T00:00:00Z", close: "1" }],
  ["unknown key", { date: "2024-01-02", close: "1", adjusted: "1" }],
  ["bad currency", { date: "2024-01-02", close: "1", currency: "EURO" }],
  ["not an object", "2024-01-02"],
  ["infinite number", { date: "2024-01-02", close: Number.POSITIVE_INFINITY }],
];

describe("price point rules: the fast check agrees with the documented schema", () => {
  test.each(samples)("%s", (_, point) => {
    const fast = PricePoints.safeParse([point]);
    const slow = documented.safeParse([point]);
    expect(fast.success).toBe(slow.success);
    if (fast.success && slow.success) expect(fast.data).toEqual(slow.data as never);
    if (!fast.success) expect(fast.error.issues[0]!.path[0]).toBe(0);
  });

  test("an empty list of points is refused", () => {
    expect(PricePoints.safeParse([]).success).toBe(false);
  });

  test("issues point at the field: prices[1].close", () => {
    const result = PricePoints.safeParse([{ date: "2024-01-02", close: "1" }, { date: "2024-01-03", close: "-1" }]);
    expect(result.success).toBe(false);
    expect(result.error!.issues.map((i) => i.path)).toEqual([[1, "close"]]);
  });
});
