import { describe, expect, test } from "bun:test";
import { Decimal, type IsoDate } from "../../sdk/index.ts";
import { amountText, maturationDates } from "./schedule.calc.ts";

const d = (text: string) => text as IsoDate;
const FAR = d("2100-01-01");

describe("maturation dates: start_date + k x frequency before end_date, then end_date", () => {
  test("DAILY", () => {
    expect<string[]>(maturationDates(d("2024-01-01"), d("2024-01-03"), "DAILY", FAR)).toEqual(["2024-01-02", "2024-01-03"]);
  });

  test("WEEKLY ends with a shorter cycle", () => {
    expect<string[]>(maturationDates(d("2024-01-01"), d("2024-01-20"), "WEEKLY", FAR)).toEqual(["2024-01-08", "2024-01-15", "2024-01-20"]);
  });

  test("MONTHLY from a month end follows month ends, then the end date", () => {
    expect<string[]>(maturationDates(d("2024-01-31"), d("2024-05-15"), "MONTHLY", FAR)).toEqual([
      "2024-02-29", "2024-03-31", "2024-04-30", "2024-05-15",
    ]);
  });

  test("QUARTERLY landing on the end date lists it once", () => {
    expect<string[]>(maturationDates(d("2024-01-15"), d("2025-01-15"), "QUARTERLY", FAR)).toEqual([
      "2024-04-15", "2024-07-15", "2024-10-15", "2025-01-15",
    ]);
  });

  test("SEMIANNUAL from a month end", () => {
    expect<string[]>(maturationDates(d("2024-08-31"), d("2025-08-31"), "SEMIANNUAL", FAR)).toEqual(["2025-02-28", "2025-08-31"]);
  });

  test("ANNUAL from 29 February keeps to month ends", () => {
    expect<string[]>(maturationDates(d("2024-02-29"), d("2027-03-01"), "ANNUAL", FAR)).toEqual([
      "2025-02-28", "2026-02-28", "2027-02-28", "2027-03-01",
    ]);
  });

  test("a period shorter than one step matures only at its end", () => {
    expect<string[]>(maturationDates(d("2023-12-21"), d("2024-01-10"), "MONTHLY", FAR)).toEqual(["2024-01-10"]);
  });

  test("open-ended runs stop at the horizon; without a frequency only the end counts", () => {
    expect<string[]>(maturationDates(d("2024-01-31"), null, "MONTHLY", d("2024-04-15"))).toEqual(["2024-02-29", "2024-03-31"]);
    expect<string[]>(maturationDates(d("2024-01-31"), d("2024-06-30"), undefined, FAR)).toEqual(["2024-06-30"]);
    expect<string[]>(maturationDates(d("2024-01-31"), null, undefined, FAR)).toEqual([]);
    expect<string[]>(maturationDates(d("2024-01-01"), d("2024-03-01"), "MONTHLY", d("2024-02-15"))).toEqual(["2024-02-01"]);
  });
});

describe("amounts are written with at least two decimals and every digit they have", () => {
  test("examples", () => {
    expect<string>(amountText(new Decimal("10010"))).toBe("10010.00");
    expect<string>(amountText(new Decimal("10041.031"))).toBe("10041.031");
    expect<string>(amountText(new Decimal("-0"))).toBe("0.00");
    expect<string>(amountText(new Decimal("-40.5"))).toBe("-40.50");
  });
});
