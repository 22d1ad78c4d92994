import { describe, expect, test } from "bun:test";
import { type WacSeriesInput, type WacSeriesRow, wacSeries } from "../../../core/portfolio/wac-series.calc.ts";

let nextId = 0;
const row = (date: string, type: string, quantity: string, extra: Partial<WacSeriesRow> = {}): WacSeriesRow => ({
  amount: null, costBasisCurrency: null, costBasisMode: null, costBasisOverride: null, currency: null,
  date, id: ++nextId, quantity, split: false, type, ...extra,
});
const buy = (date: string, quantity: string, paid: string, currency = "EUR") => row(date, "BUY", quantity, { amount: `-${paid}`, currency });
const sell = (date: string, quantity: string) => row(date, "SELL", `-${quantity}`, { amount: "1", currency: "EUR" });
const run = (rows: WacSeriesRow[], extra: Partial<WacSeriesInput> = {}) =>
  wacSeries({ assetCurrency: "EUR", end: null, rows, routes: {}, series: {}, start: null, ...extra });
const points = (rows: WacSeriesRow[], extra: Partial<WacSeriesInput> = {}) =>
  run(rows, extra).series.map((p) => [p.date, p.effect, p.poolQty, p.wac]);

describe("wacSeries", () => {
  test("an addition with a cost moves the WAC to the weighted average", () => {
    expect(points([buy("2024-01-01", "10", "100"), buy("2024-01-02", "10", "200")])).toEqual([
      ["2024-01-01", "add", "10", "10"], ["2024-01-02", "add", "20", "15"],
    ]);
  });

  test("a reduction keeps the WAC", () => {
    expect(points([buy("2024-01-01", "3", "100"), sell("2024-01-02", "1"), buy("2024-01-03", "1", "0")])).toEqual([
      ["2024-01-01", "add", "3", "33.33333333333333333333333333333333"],
      ["2024-01-02", "reduce", "2", "33.33333333333333333333333333333333"],
      ["2024-01-03", "add", "3", "22.22222222222222222222222222222222"],
    ]);
  });

  test("same-day additions are applied before reductions", () => {
    const rows = [buy("2024-01-01", "10", "100"), sell("2024-01-02", "10"), buy("2024-01-02", "10", "300")];
    expect(points(rows)).toEqual([
      ["2024-01-01", "add", "10", "10"], ["2024-01-02", "add", "20", "20"], ["2024-01-02", "reduce", "10", "20"],
    ]);
  });

  test("an emptied pool resets", () => {
    const rows = [buy("2024-01-01", "10", "100"), sell("2024-01-02", "10"), buy("2024-01-03", "5", "100")];
    expect(points(rows)).toEqual([
      ["2024-01-01", "add", "10", "10"], ["2024-01-02", "reduce", "0", null], ["2024-01-03", "add", "5", "20"],
    ]);
  });

  test("a reduction beyond the pool clamps it to 0", () => {
    expect(points([buy("2024-01-01", "1", "10"), sell("2024-01-02", "3"), buy("2024-01-03", "2", "30")])).toEqual([
      ["2024-01-01", "add", "1", "10"], ["2024-01-02", "reduce", "0", null], ["2024-01-03", "add", "2", "15"],
    ]);
  });

  test("inbound without cost is add_zero_cost", () => {
    const rows = [buy("2024-01-01", "10", "100"), row("2024-01-02", "ADJUSTMENT", "10")];
    expect(points(rows)).toEqual([["2024-01-01", "add", "10", "10"], ["2024-01-02", "add_zero_cost", "20", "5"]]);
  });

  test("an inbound override adds its per-unit cost times the quantity", () => {
    const rows = [buy("2024-01-01", "10", "100"), row("2024-01-02", "TRANSFER", "10", { costBasisOverride: "30", costBasisCurrency: "EUR" })];
    expect(points(rows)).toEqual([["2024-01-01", "add", "10", "10"], ["2024-01-02", "add", "20", "20"]]);
  });

  test("auto cost basis is add_at_wac", () => {
    const rows = [
      buy("2024-01-01", "10", "100"),
      row("2024-01-02", "ADJUSTMENT", "5", { costBasisMode: "auto" }),
      row("2024-01-03", "TRANSFER", "5", { costBasisMode: "auto-detail", costBasisOverride: "40", costBasisCurrency: "EUR" }),
    ];
    expect(points(rows)).toEqual([
      ["2024-01-01", "add", "10", "10"], ["2024-01-02", "add_at_wac", "15", "10"], ["2024-01-03", "add_at_wac", "20", "17.5"],
    ]);
  });

  test("split keeps total cost", () => {
    const rows = [
      buy("2024-01-01", "10", "100"),
      row("2024-02-01", "ADJUSTMENT", "10", { split: true }),
      row("2024-03-01", "ADJUSTMENT", "-15", { split: true }),
    ];
    expect(points(rows)).toEqual([
      ["2024-01-01", "add", "10", "10"], ["2024-02-01", "add_zero_cost", "20", "5"], ["2024-03-01", "reduce", "5", "20"],
    ]);
  });

  test("currency is that of the most recent acquisition with a cost, else the asset's", () => {
    expect(run([row("2024-01-01", "ADJUSTMENT", "1")], { assetCurrency: "USD" }).currency).toBe("USD");
    const usd = { "EUR/USD|MANUAL": { dates: ["2024-01-01"], rates: ["2"] } };
    const routes = { EUR: [[{ from: "EUR", series: "EUR/USD|MANUAL", to: "USD" }]] };
    expect(run([buy("2024-01-01", "1", "10", "EUR"), buy("2024-01-02", "1", "10", "USD")], { routes, series: usd }).currency).toBe("USD");
  });

  test("foreign cost converted at the transaction date", () => {
    // EUR→USD over the stored EUR/USD series; USD→EUR would walk it reversed (1/rate).
    const series = { "EUR/USD|MANUAL": { dates: ["2024-01-01", "2024-01-10"], rates: ["2", "4"] } };
    const routes = { USD: [[{ from: "USD", series: "EUR/USD|MANUAL", to: "EUR" }]] };
    const rows = [buy("2024-01-05", "1", "20", "USD"), buy("2024-01-10", "1", "40", "USD"), buy("2024-01-11", "2", "40", "EUR")];
    const out = run(rows, { routes, series });
    expect(out.currency).toBe("EUR");
    expect(out.series.map((p) => [p.effect, p.wac])).toEqual([["add", "10"], ["add", "10"], ["add", "15"]]);
    expect(out.missingFxPairs).toEqual([]);
  });

  test("missing rate listed, and that cost counted as unknown", () => {
    const series = { "EUR/USD|MANUAL": { dates: ["2024-01-10"], rates: ["2"] } };
    const routes = { USD: [[{ from: "USD", series: "EUR/USD|MANUAL", to: "EUR" }]] };
    const rows = [buy("2024-01-05", "1", "20", "USD"), buy("2024-01-06", "1", "20", "USD"), buy("2024-01-20", "2", "40", "EUR")];
    const out = run(rows, { routes, series });
    expect(out.series.map((p) => [p.effect, p.poolQty, p.wac])).toEqual([["add_zero_cost", "1", "0"], ["add_zero_cost", "2", "0"], ["add", "4", "10"]]);
    expect(out.missingFxPairs).toEqual([{ pair: "USD/EUR", dates: ["2024-01-05", "2024-01-06"] }]);
  });

  test("a route is tried after another that has no rate on the day", () => {
    const series = { a: { dates: ["2024-02-01"], rates: ["2"] }, b: { dates: ["2024-01-01"], rates: ["4"] } };
    const routes = { USD: [[{ from: "USD", series: "a", to: "EUR" }], [{ from: "USD", series: "b", to: "EUR" }]] };
    expect(run([buy("2024-01-05", "1", "40", "USD"), buy("2024-01-06", "1", "10", "EUR")], { routes, series }).series[0]!.wac).toBe("10");
  });

  test("date_range filters the points but the pool is built from the first row", () => {
    const rows = [buy("2024-01-01", "10", "100"), buy("2024-02-01", "10", "300"), sell("2024-03-01", "5")];
    expect(points(rows, { start: "2024-02-01", end: "2024-02-28" })).toEqual([["2024-02-01", "add", "20", "20"]]);
  });

  test("rows moving no quantity give no point", () => {
    expect(points([row("2024-01-01", "DIVIDEND", "0", { amount: "5", currency: "EUR" })])).toEqual([]);
  });
});
