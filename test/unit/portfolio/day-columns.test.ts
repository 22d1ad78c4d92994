import { describe, expect, test } from "bun:test";
import { addDays, dayNumber, dayText } from "../../../core/dates/calendar.ts";
import type { SqlReader } from "../../../core/db/sql-reader.ts";
import { Decimal } from "../../../core/money/decimal.ts";
import { columnOfTexts, decimalAt, patchColumn, valueText } from "../../../core/portfolio/day-columns.ts";
import { FxTable } from "../../../core/portfolio/fx-table.calc.ts";
import { PriceBook } from "../../../core/portfolio/price-book.calc.ts";
import { buildReport } from "../../../core/portfolio/report.calc.ts";
import { loadFx, loadQuotesAndSplits } from "../../../core/portfolio/report-input.loader.ts";
import { fxSeriesKey, type ReportInput, seriesColumns } from "../../../core/portfolio/report-input.ts";
import { input } from "./report-input.sample.ts";

/** 30 significant digits: a double holds 15–17, so any rounding changes the value. */
const WIDE_CLOSE = "123456789012345.678901234567890";
const WIDE_RATE = "1.23456789012345678901234567891";

/** A reader answering the loader's price, split, route and rate queries from fixed rows. */
function reader(prices: { asset_id: number; date: string; close: string }[], rates: { date: string; rate: string }[]): SqlReader {
  return {
    all: async <T>(sql: string) => (sql.includes("FROM price_history") ? prices : sql.includes("FROM fx_rates") ? rates : []) as T[],
  };
}

describe("day-indexed columns", () => {
  test("a close or rate that does not fit a scaled integer is kept exact", async () => {
    const db = reader(
      [{ asset_id: 1, date: "2024-01-02", close: "10.5" }, { asset_id: 1, date: "2024-01-03", close: WIDE_CLOSE }, { asset_id: 2, date: "2024-01-02", close: "0.000000000000000123456789012345678" }],
      [{ date: "2024-01-02", rate: WIDE_RATE }],
    );
    const { quotes } = await loadQuotesAndSplits(db, [1, 2], "2024-01-10");
    expect(valueText(quotes[1]!, 1)).toBe(WIDE_CLOSE);
    expect(valueText(quotes[2]!, 0)).toBe("0.000000000000000123456789012345678");
    const { rates, fxPairs } = await loadFx(db, ["USD"], "EUR", "2024-01-10");
    const key = fxSeriesKey("EUR", "USD", "MANUAL");
    expect(valueText(rates[key]!, 0)).toBe(WIDE_RATE);

    // The engine reads the exact values: the valuation price, the rate, and a report's market value.
    const asset = { id: 1, name: "A", ticker: null, type: "STOCK", currency: "EUR", quoteBaseQuantity: "1", hasProvider: false, sectors: null, geography: null };
    expect(new PriceBook([asset], quotes, [], []).at(1, "2024-01-04")!.price.toFixed()).toBe(WIDE_CLOSE.replace(/0+$/, ""));
    const usd = new FxTable("EUR", fxPairs, rates).rate("USD", "2024-01-02")!;
    expect(usd.toFixed()).toBe(new Decimal(1).div(WIDE_RATE).toFixed());
    const report = buildReport({
      ...input(false), transactions: [
        { id: 1, brokerId: 1, assetId: 1, type: "BUY", date: "2024-01-02", quantity: "1", amount: "-10.5", currency: "EUR", relatedId: null,
          partnerBrokerId: null, partnerDate: null, costBasisOverride: null, costBasisCurrency: null, splitLinked: false },
      ],
      assets: [asset], columns: { quotes: { 1: quotes[1]! }, rates: {} }, quotes: {}, fxPairs: [], fxSeries: {},
    }) as any;
    expect(report.summary.market_value.amount).toBe("123456789012345.6789012346");
  });

  test("a close or rate is given back as the text it was read from", () => {
    const texts = ["100.50", "0.05", "-0.00", "-12.5", "7", "0", "999999999999999", "1000000000000000", "1e5", "007", ".5", "+1", "5.", "-"];
    const col = columnOfTexts(texts.map((_, i) => addDays("2024-01-01", i)), texts);
    expect(texts.map((_, i) => valueText(col, i))).toEqual(texts);
    // Up to 15 significant digits sit in the numbers; more, or another spelling, keep their text.
    expect([...col.wide!.keys()]).toEqual([7, 8, 9, 10, 11, 12, 13]);
  });

  test("day numbers count whole days from 1970-01-01 and give back the day's text", () => {
    expect(dayNumber("1970-01-01")).toBe(0);
    expect(dayNumber("1969-12-31")).toBe(-1);
    for (let d = "1999-12-01"; d <= "2001-03-31"; d = addDays(d, 1)) {
      expect(dayNumber(d)).toBe(Date.parse(`${d}T00:00:00Z`) / 86_400_000);
      expect(dayText(dayNumber(d))).toBe(d);
    }
  });

  test("a series patched from a day keeps its rows before it and takes the reloaded ones; the same rows give the same series", () => {
    const prev = columnOfTexts(["2024-01-01", "2024-01-02", "2024-01-03"], ["1", WIDE_CLOSE, "3"]);
    const since = dayNumber("2024-01-03");
    expect(patchColumn(prev, columnOfTexts(["2024-01-03"], ["3"]), since)).toBe(prev);
    const patched = patchColumn(prev, columnOfTexts(["2024-01-03", "2024-01-04"], ["3.5", WIDE_RATE]), since);
    expect(Array.from(patched.days, dayText)).toEqual(["2024-01-01", "2024-01-02", "2024-01-03", "2024-01-04"]);
    expect([0, 1, 2, 3].map((i) => valueText(patched, i))).toEqual(["1", WIDE_CLOSE, "3.5", WIDE_RATE]);
  });

  test("the report of an input as columns is the report of its text series, also after a structured clone", () => {
    const text = input(true);
    const columns: ReportInput = { ...text, columns: seriesColumns(text), quotes: {}, fxSeries: {} };
    const expected = JSON.stringify(buildReport(text));
    expect(JSON.stringify(buildReport(columns))).toBe(expected);
    expect(JSON.stringify(buildReport(structuredClone(columns)))).toBe(expected);
  });
});

describe("a column value as a Decimal", () => {
  /** The Decimal's fields, as decimal.js's parser lays them out. */
  const fields = (d: Decimal) => { const x = d as unknown as { s: number; e: number; d: number[] }; return { s: x.s, e: x.e, d: [...x.d] }; };

  test("decimalAt makes the Decimal the column's text parses to: the same sign, exponent and words, for every length and scale", () => {
    let seed = 12345;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const texts = ["0", "-0", "0.00", "-0.00", "1", "-1", "10", "1000000", "10000000", "0.1", "0.0000001", "0.00000001", "1234567.1234567",
      "999999999999999", "-99999999999999.9", "0.000000000000001", "5.0000000", "12345678901234.5", "100000000000000", WIDE_CLOSE, "-" + WIDE_RATE];
    for (let n = 0; n < 20_000; n++) {
      const digits = 1 + Math.floor(rnd() * 15);
      let t = "";
      for (let k = 0; k < digits; k++) t += String(k === 0 ? 1 + Math.floor(rnd() * 9) : rnd() < 0.3 ? 0 : Math.floor(rnd() * 10));
      const scale = Math.floor(rnd() * 24);
      const padded = t.padStart(scale + 1, "0");
      const text = (rnd() < 0.3 ? "-" : "") + (scale === 0 ? padded : `${padded.slice(0, padded.length - scale)}.${padded.slice(padded.length - scale)}`);
      texts.push(text);
    }
    const column = columnOfTexts(texts.map((_, i) => dayText(i + 1)), texts);
    for (let i = 0; i < texts.length; i++) {
      const made = decimalAt(column.digits, column.scales, column.wide, i);
      const parsed = new Decimal(texts[i]!);
      expect({ text: texts[i], ...fields(made) }).toEqual({ text: texts[i], ...fields(parsed) });
      expect(made.toFixed()).toBe(parsed.toFixed());
      // And it computes like one: a sum and a product with a 34-digit operand.
      const third = new Decimal(1).div(3);
      expect(made.plus(third).times(third).toFixed()).toBe(parsed.plus(third).times(third).toFixed());
    }
    expect(texts.length).toBeGreaterThan(20_000);
  });
});
