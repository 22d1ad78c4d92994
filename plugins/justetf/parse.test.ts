import { describe, expect, test } from "bun:test";
import type { IsoDateRange } from "../../sdk/index.ts";
import { CardsSchema, ChartSchema, decimalOf, historyOf, metadataOf, quoteOf, searchHitsOf } from "./parse.ts";

const EUR = "EUR" as Parameters<typeof quoteOf>[2];
const point = (date: string, raw: number) => ({ date, value: { localized: String(raw), raw } });
const chart = (extra: object = {}) =>
  ChartSchema.parse({ latestQuote: { localized: "1,234.5", raw: 1234.5 }, latestQuoteDate: "2024-01-02", series: [], ...extra });

describe("numbers become exact decimal strings", () => {
  test("through their shortest round-trip form, without float artefacts or exponents", () => {
    expect<unknown>(decimalOf(86.105)).toBe("86.105");
    expect<unknown>(decimalOf(0.1)).toBe("0.1");
    expect<unknown>(decimalOf(1e21)).toBe("1000000000000000000000");
    expect<unknown>(decimalOf(1e-7)).toBe("0.0000001");
    expect<unknown>(decimalOf(-0)).toBe("0");
  });

  test("a non-finite number is a bad response", () => {
    expect(() => decimalOf(Number.NaN)).toThrow(expect.objectContaining({ reason: "bad-response" }));
  });
});

describe("the chart answer", () => {
  test("the quote is latestQuote.raw on latestQuoteDate in the requested currency", () => {
    expect<unknown>(quoteOf(chart(), "IE00B4L5Y983", EUR)).toEqual({ currency: "EUR", date: "2024-01-02", price: "1234.5" });
  });

  test("no latest quote is not-found; an impossible date is bad-response", () => {
    expect(() => quoteOf(chart({ latestQuote: null }), "X", EUR)).toThrow(expect.objectContaining({ reason: "not-found" }));
    expect(() => quoteOf(chart({ latestQuoteDate: "2023-02-29" }), "X", EUR)).toThrow(expect.objectContaining({ reason: "bad-response" }));
  });

  test("history keeps the range's days, one per day (the last wins), oldest first", () => {
    const series = [point("2024-01-03", 3), point("2024-01-01", 1), point("2024-01-03", 4), point("2023-12-31", 0)];
    const range = { from: "2024-01-01", to: "2024-01-03" } as IsoDateRange;
    expect<unknown>(historyOf(chart({ series }), range)).toEqual([{ close: "1", date: "2024-01-01" }, { close: "4", date: "2024-01-03" }]);
  });
});

describe("search and cards", () => {
  test("screener rows become hits with the ISIN as identifier, deduplicated, without a claimed currency", () => {
    const rows = [{ isin: "ie00b4l5y983", name: " World " }, { isin: "IE00B4L5Y983", name: "Again" }, { isin: "", name: "Blank" }];
    expect(searchHitsOf({ data: rows })).toEqual([{ identifier: "IE00B4L5Y983", name: "World" }]);
  });

  test("the card of the ISIN gives the name; a missing card is not-found", () => {
    const cards = CardsSchema.parse({ etfs: [{ isin: "IE00B4L5Y983", name: "iShares Core MSCI World" }] });
    expect<unknown>(metadataOf(cards, "IE00B4L5Y983", EUR)).toEqual({ currency: "EUR", name: "iShares Core MSCI World" });
    expect(() => metadataOf(cards, "LU0274208692", EUR)).toThrow(expect.objectContaining({ reason: "not-found" }));
  });
});
