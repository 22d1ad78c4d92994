import { expect, test } from "bun:test";
import { addDays, addMonths, daysBetween, eachDay, indexOnOrBefore, today } from "../../../core/dates/calendar.ts";

test("calendar: addDays crosses months, years and leap days", () => {
  expect(addDays("2024-02-28", 1)).toBe("2024-02-29");
  expect(addDays("2024-03-01", -1)).toBe("2024-02-29");
  expect(addDays("2023-12-31", 1)).toBe("2024-01-01");
});

test("calendar: daysBetween is signed", () => {
  expect(daysBetween("2024-01-01", "2025-01-01")).toBe(366);
  expect(daysBetween("2024-01-10", "2024-01-01")).toBe(-9);
});

test("calendar: eachDay is inclusive and empty when the end is before the start", () => {
  expect(eachDay("2024-02-28", "2024-03-01")).toEqual(["2024-02-28", "2024-02-29", "2024-03-01"]);
  expect(eachDay("2024-03-02", "2024-03-01")).toEqual([]);
});

test("calendar: indexOnOrBefore finds the latest date on or before the day", () => {
  const dates = ["2024-01-01", "2024-01-05", "2024-01-09"];
  expect(indexOnOrBefore(dates, "2023-12-31")).toBe(-1);
  expect(indexOnOrBefore(dates, "2024-01-05")).toBe(1);
  expect(indexOnOrBefore(dates, "2024-01-08")).toBe(1);
  expect(indexOnOrBefore(dates, "2025-01-01")).toBe(2);
});

test("calendar: today is the UTC day of the clock", () => {
  expect(today({ now: () => new Date("2024-03-05T23:30:00Z") })).toBe("2024-03-05");
});

test("calendar: addMonths clamps the day to the target month (the signals' windows)", () => {
  expect(addMonths("2024-03-31", -1)).toBe("2024-02-29");
  expect(addMonths("2023-03-31", -1)).toBe("2023-02-28");
  expect(addMonths("2024-02-29", -12)).toBe("2023-02-28");
  expect(addMonths("2024-01-15", -1)).toBe("2023-12-15");
  expect(addMonths("2024-05-31", -60)).toBe("2019-05-31");
  expect(addMonths("2023-11-30", 3)).toBe("2024-02-29");
});
