import { describe, expect, test } from "bun:test";
import { ScheduledInvestmentParamsSchema } from "./params.ts";

const period = (start: string, end: string, extra: Record<string, unknown> = {}) => ({
  annual_rate: "0.035", end_date: end, maturation_frequency: "MONTHLY", start_date: start, ...extra,
});
const base = { initial_value: { amount: "10000.00", code: "EUR" }, schedule: [period("2024-01-01", "2024-12-31")] };

function issues(input: unknown): string[] {
  const result = ScheduledInvestmentParamsSchema.safeParse(input);
  return (result.error?.issues ?? []).map((issue) => `${issue.path.join(".")}: ${issue.message}`);
}

describe("provider params", () => {
  test("defaults: SIMPLE, ACT/365, no events, no payout", () => {
    const params = ScheduledInvestmentParamsSchema.parse(base);
    expect(params.interest_type).toBe("SIMPLE");
    expect(params.day_count).toBe("ACT/365");
    expect(params.asset_events).toEqual([]);
    expect(params.schedule[0]!.generate_interest).toBe(false);
  });

  test("every optional key given, with null late_interest, passes", () => {
    expect(issues({ ...base, asset_events: [], day_count: "30/360", interest_type: "COMPOUND", late_interest: null })).toEqual([]);
  });

  test("unknown keys are refused at every level", () => {
    expect(issues({ ...base, extra: 1 })).toEqual([': Unrecognized key: "extra"']);
    expect(issues({ ...base, schedule: [period("2024-01-01", "2024-02-01", { rate: "0.1" })] })).toEqual(['schedule.0: Unrecognized key: "rate"']);
  });

  test("amounts and rates are decimal strings; rates are fractions and not negative", () => {
    expect(issues({ ...base, initial_value: { amount: 10000, code: "EUR" } })).toHaveLength(1);
    expect(issues({ ...base, schedule: [period("2024-01-01", "2024-02-01", { annual_rate: "3.5%" })] })).toHaveLength(1);
    expect(issues({ ...base, schedule: [period("2024-01-01", "2024-02-01", { annual_rate: "-0.01" })] })).toEqual(["schedule.0.annual_rate: must not be negative"]);
    expect(issues({ ...base, initial_value: { amount: "0", code: "EUR" } })).toEqual(["initial_value.amount: must be greater than 0"]);
  });

  test("a period ends on or after its start", () => {
    expect(issues({ ...base, schedule: [period("2024-02-01", "2024-01-31")] })).toEqual(["schedule.0.end_date: must not be before start_date"]);
  });

  test("overlapping or unordered periods are refused with the contiguous start date", () => {
    const overlapping = { ...base, schedule: [period("2024-01-01", "2024-06-30"), period("2024-06-30", "2024-12-31")] };
    expect(issues(overlapping)).toEqual([
      "schedule.1.start_date: overlaps period 0 (ends 2024-06-30): periods must be in date order and must not overlap; a contiguous period starts on 2024-07-01",
    ]);
    expect(issues({ ...base, schedule: [period("2024-07-01", "2024-12-31"), period("2024-01-01", "2024-06-30")] })).toHaveLength(1);
  });

  test("contiguous periods and gaps between periods pass", () => {
    expect(issues({ ...base, schedule: [period("2024-01-01", "2024-06-30"), period("2024-07-01", "2024-12-31")] })).toEqual([]);
    expect(issues({ ...base, schedule: [period("2024-01-01", "2024-03-31"), period("2024-07-01", "2024-12-31")] })).toEqual([]);
  });

  test("at least one period", () => {
    expect(issues({ ...base, schedule: [] })).toEqual(["schedule: needs at least one period"]);
  });

  test("asset events: the asset's currency, not before the start, one per date and type, SPLIT refused", () => {
    const event = (date: string, type: string, amount: string, code = "EUR") => ({ date, type, value: { amount, code } });
    expect(issues({ ...base, asset_events: [event("2024-02-01", "PRICE_ADJUSTMENT", "-5.00", "USD")] })).toEqual([
      "asset_events.0.value.code: must be the initial_value currency EUR",
    ]);
    expect(issues({ ...base, asset_events: [event("2023-12-31", "PRICE_ADJUSTMENT", "5.00")] })).toEqual([
      "asset_events.0.date: must not be before the first start_date 2024-01-01",
    ]);
    expect(issues({ ...base, asset_events: [event("2024-02-01", "INTEREST", "5.00"), event("2024-02-01", "INTEREST", "6.00")] })).toEqual([
      "asset_events.1: another INTEREST event is already listed on 2024-02-01",
    ]);
    expect(issues({ ...base, asset_events: [event("2024-02-01", "INTEREST", "-5.00")] })).toEqual([
      "asset_events.0.value.amount: must not be negative (only a PRICE_ADJUSTMENT may be)",
    ]);
    expect(issues({ ...base, asset_events: [event("2024-02-01", "SPLIT", "2")] })).toHaveLength(1);
    expect(issues({ ...base, asset_events: [{ ...event("2024-02-01", "DIVIDEND", "1.00"), notes: "paid" }] })).toEqual([]);
  });

  test("late interest: its end_date comes after the last end_date; grace_days is a whole number", () => {
    expect(issues({ ...base, late_interest: { annual_rate: "0.1", end_date: "2024-12-31" } })).toEqual([
      "late_interest.end_date: must be after the last period's end_date 2024-12-31",
    ]);
    expect(issues({ ...base, late_interest: { annual_rate: "0.1", grace_days: 1.5 } })).toHaveLength(1);
    const late = ScheduledInvestmentParamsSchema.parse({ ...base, late_interest: { annual_rate: "0.1" } }).late_interest;
    expect<unknown>(late).toEqual({ annual_rate: "0.1", grace_days: 0 });
  });

  test("a malformed amount never reaches the value checks", () => {
    expect(issues({ ...base, initial_value: { amount: "abc", code: "EUR" } })).toEqual([
      "initial_value.amount: must be a plain decimal string such as -12.50 (no exponent)",
    ]);
  });
});
