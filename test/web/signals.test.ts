import { expect, test } from "bun:test";
import { alignToDates, crossovers, signalsFor } from "../../web/src/lib/signals.ts";

test("the overlays ask for each signal instance once", () => {
  expect(signalsFor(new Set())).toEqual([]);
  expect(signalsFor(new Set(["crossovers", "sma_fast"] as const)).map((s) => [s.instance_id, s.signal_code, s.params])).toEqual([
    ["sma_fast", "SMA", { period: 50 }],
    ["sma_slow", "SMA", { period: 200 }],
  ]);
  expect(signalsFor(new Set(["bollinger"] as const))[0]).toEqual({ instance_id: "bollinger", signal_code: "BOLLINGER", params: { period: 20, std_dev: 2 } });
});

test("signal outputs land on the chart's dates; warm-up and missing days are gaps", () => {
  const dates = ["2024-01-01", "2024-01-02", "2024-01-03", "2024-01-04"];
  expect(alignToDates(dates, [{ date: "2024-01-02", value: null }, { date: "2024-01-03", value: 10.5 }, { date: "2023-12-31", value: 9 }]))
    .toEqual([null, null, 10.5, null]);
  expect(alignToDates(dates, undefined)).toEqual([null, null, null, null]);
});

test("crossovers: up and down, touching is not crossing, gaps are skipped", () => {
  const dates = ["d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7"];
  const slow = [10, 10, 10, 10, 10, null, 10, 10];
  const fast = [null, 9, 10, 11, 10, 8, 9, 12];
  // d1 below, d2 equal, d3 above → up at d3; d4 equal, d5 gap, d6 below → down at d6; d7 above → up.
  expect(crossovers(dates, fast, slow)).toEqual([
    { index: 3, date: "d3", direction: "up" },
    { index: 6, date: "d6", direction: "down" },
    { index: 7, date: "d7", direction: "up" },
  ]);
  // Touching from below and going back down is no crossover.
  expect(crossovers(["a", "b", "c"], [9, 10, 9], [10, 10, 10])).toEqual([]);
});
