import { describe, expect, test } from "bun:test";
import { FxTable } from "../../../core/portfolio/fx-table.calc.ts";
import { fxSeriesKey } from "../../../core/portfolio/report-input.ts";
import { Decimal } from "../../../core/money/decimal.ts";

const manual = { [fxSeriesKey("EUR", "USD", "MANUAL")]: { dates: ["2024-01-02", "2024-01-10"], rates: ["1.25", "1.1"] } };

describe("FX table", () => {
  test("the target converts at 1; a pair's manual rate converts with unlimited backward fill (quote→base divides)", () => {
    const fx = new FxTable("EUR", [{ base: "EUR", quote: "USD", routes: [] }], manual);
    expect(fx.rate("EUR", "2020-01-01")!.toFixed()).toBe("1");
    expect(fx.convert(new Decimal(10), "USD", "2024-01-09")!.toFixed()).toBe("8");
    expect(fx.missing()).toEqual([]);
  });

  test("a date before the first rate and a currency without a pair are recorded as missing, by kind", () => {
    const fx = new FxTable("EUR", [{ base: "EUR", quote: "USD", routes: [] }], manual);
    expect(fx.rate("USD", "2024-01-01")).toBeNull();
    expect(fx.rate("GBP", "2024-01-03")).toBeNull();
    expect(fx.rate("GBP", "2024-01-04", false)).toBeNull();
    expect(fx.missing().map((m) => [m.slug, m.kind, [...m.dates]])).toEqual([
      ["EUR-GBP", "none", ["2024-01-03"]], ["EUR-USD", "manual", ["2024-01-01"]],
    ]);
  });
});
