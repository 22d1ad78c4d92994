import { expect, test } from "bun:test";
import { amountBand, inBounds } from "../../../core/transactions/amount-filter.calc.ts";

test("amount filters compare absolute amounts exactly, bounds inclusive; rows without cash never match", () => {
  expect(inBounds("-100.00", { min: "100" })).toBe(true);
  expect(inBounds("99.9999999999999999", { min: "100" })).toBe(false);
  expect(inBounds("100.0000000000000001", { max: "100" })).toBe(false);
  expect(inBounds(null, { min: "0" })).toBe(false);
  expect(inBounds(null, { max: "1" })).toBe(false);
});

test("the float band only ever widens the exact bounds", () => {
  const band = amountBand({ min: "100", max: "200" })!;
  expect(band.lo!).toBeLessThan(100);
  expect(band.hi!).toBeGreaterThan(200);
  expect(band.sureLo!).toBeGreaterThan(100);
  expect(band.sureHi!).toBeLessThan(200);
  expect(amountBand({})).toBeNull();
});
