/**
 * The history's JSON text (core/portfolio/report.dto.ts `historyPointWriter`): the engine writes
 * each point straight as text, so the text must be exactly the wire point's JSON (docs/portfolio.md
 * "Report"), key order, rounding to 10 places and nulls included. Expected texts written by hand.
 */
import { describe, expect, test } from "bun:test";
import { Decimal } from "../../../core/money/decimal.ts";
import { historyPointWriter, historyWire } from "../../../core/portfolio/report.dto.ts";
import type { HistoryPoint } from "../../../core/portfolio/report.types.ts";

const d = (s: string) => new Decimal(s);

function point(date: string, over: Partial<HistoryPoint> = {}): HistoryPoint {
  return {
    date, cashValue: d("100"), marketValue: d("250.5"), inTransitMarketValue: d("0"), navValue: d("350.5"), openCostBasis: d("200"),
    inTransitBookValue: d("0"), bookValue: d("300"), capitalBaseline: d("300"), bookAssetLike: d("200"), cashFromContributedCapital: d("100"),
    cashFromGeneratedReturns: d("0"), totalPnl: d("50.5"), unrealizedGainLoss: d("50.5"), twrr: d("0.1683333333333333333"),
    mwrrAnnualized: 0.25, mwrrCumulative: null, roi: null, ...over,
  };
}

const money = (a: string) => `{"code":"EUR","amount":"${a}"}`;
const expected = (date: string, f: Record<string, string>) =>
  `{"date":"${date}","cash_value":${money(f.cash ?? "100")},"market_value":${money("250.5")},"in_transit_market_value":${money("0")},` +
  `"nav_value":${money("350.5")},"open_cost_basis":${money("200")},"in_transit_book_value":${money("0")},"book_value":${money("300")},` +
  `"capital_baseline":${money("300")},"book_asset_like":${money("200")},"cash_from_contributed_capital":${money("100")},` +
  `"cash_from_generated_returns":${money("0")},"total_pnl":${money(f.pnl ?? "50.5")},"unrealized_gain_loss":${money("50.5")},` +
  `"twrr":"0.1683333333","mwrr_annualized":"0.25","mwrr_cumulative":null,"roi":${f.roi ?? "null"}}`;

describe("history points written as JSON text", () => {
  test("the text is the wire point's JSON: key order, 10 places, nulls", () => {
    const write = historyPointWriter("EUR");
    expect(write(point("2025-01-02"))).toBe(expected("2025-01-02", {}));
    expect(JSON.parse(write(point("2025-01-02")))).toEqual(historyWire([point("2025-01-02")], "EUR")[0]!);
  });

  test("a figure repeated by object reuses its text; a new object of another value is written anew", () => {
    const write = historyPointWriter("EUR");
    const cash = d("100");
    const first = point("2025-01-02", { cashValue: cash });
    expect(write(first)).toBe(expected("2025-01-02", {}));
    expect(write(point("2025-01-03", { cashValue: cash }))).toBe(expected("2025-01-03", {}));
    expect(write(point("2025-01-06", { cashValue: d("-0.00000000004"), totalPnl: d("-1.23456789015"), roi: d("0.5") })))
      .toBe(expected("2025-01-06", { cash: "0", pnl: "-1.2345678902", roi: '"0.5"' }));
  });

  test("a non-finite statistic is null, never NaN or Infinity", () => {
    const write = historyPointWriter("USD");
    const text = write(point("2025-01-02", { mwrrAnnualized: Number.POSITIVE_INFINITY, mwrrCumulative: Number.NaN }));
    expect(text).toContain('"mwrr_annualized":null,"mwrr_cumulative":null');
    expect(text).toContain('"cash_value":{"code":"USD","amount":"100"}');
  });
});
