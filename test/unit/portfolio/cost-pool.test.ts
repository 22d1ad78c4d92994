import { describe, expect, test } from "bun:test";
import { CostPool } from "../../../core/money/cost-pool.ts";
import { Decimal, isAboveZero, isBelowZero } from "../../../core/money/decimal.ts";
import { WacBook } from "../../../core/portfolio/lots-wac.ts";
import { wacSeries } from "../../../core/portfolio/wac-series.calc.ts";
import { wacPerUnit, wacPool } from "../../../core/transactions/wac.calc.ts";

const d = (x: string | number) => new Decimal(x);

describe("one weighted-average-cost pool", () => {
  test("short covered by a larger buy: only the units above zero are held, at the buy's unit cost", () => {
    const pool = new CostPool();
    expect(pool.remove(d(5), d(500)).realized.toFixed()).toBe("0");
    expect(pool.quantity.toFixed()).toBe("-5");
    expect(pool.cost.toFixed()).toBe("-500");
    expect(pool.add(d(10), d(1000)).toFixed()).toBe("0");
    expect(pool.quantity.toFixed()).toBe("5");
    expect(pool.average()!.toFixed()).toBe("100");
  });

  test("covering a short realises its proceeds share minus the cover's cost", () => {
    const pool = new CostPool();
    pool.remove(d(5), d(500));
    expect(pool.add(d(2), d(160)).toFixed()).toBe("40");
    expect(pool.quantity.toFixed()).toBe("-3");
    expect(pool.add(d(10), d(800)).toFixed()).toBe(String(300 - 3 * 80));
    expect(pool.average()!.toFixed()).toBe("80");
  });

  test("a sale beyond the long units realises on the long part and opens a short with the rest of the proceeds", () => {
    const pool = new CostPool();
    pool.add(d(2), d(100));
    const out = pool.remove(d(5), d(300));
    expect(out.cost.toFixed()).toBe("100");
    expect(out.realized.toFixed()).toBe("20");
    expect(pool.quantity.toFixed()).toBe("-3");
    expect(pool.cost.toFixed()).toBe("-180");
  });

  test("clamp policy: a reduction beyond the pool empties it", () => {
    const pool = new CostPool("clamp");
    pool.add(d(1), d(10));
    pool.remove(d(3));
    expect(pool.quantity.toFixed()).toBe("0");
  });

  test("the broker summary, the lots analysis and the WAC series read 'short 5 at 100, buy 10 at 100' as WAC 100", () => {
    const row = (type: string, quantity: string, amount: string) =>
      ({ type, quantity, amount, currency: "EUR", cost_basis_override: null, cost_basis_currency: null });
    expect(wacPerUnit(wacPool([row("SELL", "-5", "500"), row("BUY", "10", "-1000")], "EUR"))!.toFixed()).toBe("100");
    const book = new WacBook();
    book.outflow(1, d(5));
    book.inflow(1, d(10), d(1000));
    expect(book.pool(1).average()!.toFixed()).toBe("100");
    const series = wacSeries({
      assetCurrency: "EUR", end: null, start: null, routes: {}, series: {},
      rows: [
        { id: 1, date: "2024-01-01", type: "SELL", quantity: "-5", amount: "500", currency: "EUR", costBasisCurrency: null, costBasisMode: null, costBasisOverride: null, split: false },
        { id: 2, date: "2024-01-02", type: "BUY", quantity: "10", amount: "-1000", currency: "EUR", costBasisCurrency: null, costBasisMode: null, costBasisOverride: null, split: false },
      ],
    });
    expect(series.series.at(-1)!.wac).toBe("100");
  });
});

test("isAboveZero and isBelowZero answer what gt(0) and lt(0) answer, zeros of either sign, infinities and NaN included", () => {
  const values = ["0", "-0", "0.000", "-0.000", "1e-30", "-1e-30", "0.5", "-0.5", "123456789.123456789", "-7", "Infinity", "-Infinity", "NaN"];
  const third = new Decimal(1).div(3);
  const all = [...values.map((v) => new Decimal(v)), third, third.neg(), third.minus(third), third.neg().plus(third)];
  for (const x of all) expect([x.toString(), isAboveZero(x), isBelowZero(x)]).toEqual([x.toString(), x.gt(0), x.lt(0)]);
});
