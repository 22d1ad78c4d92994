import { afterAll, describe, expect, test } from "bun:test";
import { threadId } from "node:worker_threads";
import { type WacSeriesInput, wacSeries } from "../../core/portfolio/wac-series.calc.ts";
import { poolSize, shutdownWorkerPool } from "../../host/workers/pool.ts";
import { runCalculation } from "../../host/api/run-calculation.ts";

afterAll(() => shutdownWorkerPool());

const row = (id: number, date: string, quantity: string, amount: string) => ({
  id, date, type: Number(quantity) > 0 ? "BUY" : "SELL", quantity, amount, currency: "EUR",
  costBasisCurrency: null, costBasisMode: null, costBasisOverride: null, split: false,
});
const input = (price: number): WacSeriesInput => ({
  assetCurrency: "EUR", start: null, end: null, routes: {}, series: {},
  rows: [row(1, "2020-01-01", "10", "-100"), row(2, "2020-07-01", "10", String(-10 * price)), row(3, "2021-01-01", "-5", "80")],
});

describe("worker pool", () => {
  test("the pool is sized from the core count", () => {
    expect(poolSize()).toBeGreaterThanOrEqual(1);
    expect(poolSize()).toBeLessThanOrEqual(navigator.hardwareConcurrency);
  });

  test("a core calculation (WAC series) runs off the request thread and matches the main-thread result", async () => {
    const { result, threadId: workerThread } = await runCalculation("wacSeries", input(20));
    expect(workerThread).not.toBe(threadId);
    expect(result).toEqual(wacSeries(input(20)));
    expect(result.series.at(-1)!.wac).toBe("15");
  });

  test("calculations run in parallel and each gets its own answer", async () => {
    const out = await Promise.all(Array.from({ length: 8 }, (_, i) => runCalculation("wacSeries", input(10 + 2 * i))));
    out.forEach(({ result }, i) => expect(result.series.at(-1)!.wac).toBe(String((100 + 10 * (10 + 2 * i)) / 20)));
  });

  test("an unknown calculation is rejected", async () => {
    await expect(runCalculation("nope" as any, {} as any)).rejects.toThrow("Unknown calculation");
  });
});
