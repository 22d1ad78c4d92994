import { afterAll, describe, expect, test } from "bun:test";
import { threadId } from "node:worker_threads";
import { xirr } from "../../core/portfolio/xirr.calc.ts";
import { poolSize, runCalculation, shutdownWorkerPool } from "../../host/workers/pool.ts";

afterAll(() => shutdownWorkerPool());

const flows = [
  { date: "2020-01-01", amount: "-1000" },
  { date: "2020-07-01", amount: "-500" },
  { date: "2021-01-01", amount: "1650" },
];

describe("worker pool", () => {
  test("the pool is sized from the core count", () => {
    expect(poolSize()).toBeGreaterThanOrEqual(1);
    expect(poolSize()).toBeLessThanOrEqual(navigator.hardwareConcurrency);
  });

  test("a core calculation (XIRR) runs off the request thread and matches the main-thread result", async () => {
    const { result, threadId: workerThread } = await runCalculation("xirr", { cashFlows: flows });
    expect(workerThread).not.toBe(threadId);
    expect(result).toEqual(xirr(flows));
    // the rate zeroes the net present value of the flows (ACT/365 from the first date)
    const r = Number(result.rate);
    const npv = -1000 + -500 * (1 + r) ** (-182 / 365) + 1650 * (1 + r) ** (-366 / 365);
    expect(Math.abs(npv)).toBeLessThan(1e-6);
    expect(r).toBeGreaterThan(0.1);
    expect(r).toBeLessThan(0.15);
  });

  test("calculations run in parallel and each gets its own answer", async () => {
    const inputs = Array.from({ length: 8 }, (_, i) => [
      { date: "2020-01-01", amount: "-100" },
      { date: "2021-01-01", amount: String(100 + i * 10) },
    ]);
    const out = await Promise.all(inputs.map((cashFlows) => runCalculation("xirr", { cashFlows })));
    // 2020 is a leap year: 366 days at ACT/365
    out.forEach(({ result }, i) => expect(Number(result.rate)).toBeCloseTo((1 + i / 10) ** (365 / 366) - 1, 9));
  });

  test("an unknown calculation is rejected", async () => {
    await expect(runCalculation("nope" as any, {} as any)).rejects.toThrow("Unknown calculation");
  });
});
