import { describe, expect, test } from "bun:test";
import { xirr } from "../../core/portfolio/xirr.calc.ts";

describe("xirr", () => {
  test("one year, +10 % gives 0.1", () => {
    expect(xirr([{ date: "2021-01-01", amount: "-100" }, { date: "2022-01-01", amount: "110" }]).rate).toBe("0.100000000000");
  });

  test("a loss gives a negative rate", () => {
    expect(Number(xirr([{ date: "2021-01-01", amount: "-100" }, { date: "2022-01-01", amount: "80" }]).rate)).toBeCloseTo(-0.2, 10);
  });

  test("flows of one sign only have no rate", () => {
    expect(xirr([{ date: "2021-01-01", amount: "-100" }, { date: "2022-01-01", amount: "-80" }]).rate).toBeNull();
    expect(xirr([{ date: "2021-01-01", amount: "-100" }]).rate).toBeNull();
  });

  test("order of input does not matter", () => {
    const a = [{ date: "2022-01-01", amount: "110" }, { date: "2021-01-01", amount: "-100" }];
    expect(xirr(a).rate).toBe("0.100000000000");
  });
});
