import { expect, test } from "bun:test";
import { collectionPlan } from "../../host/workers/calc.worker.ts";

const MB = 1024 * 1024;

test("a worker task that grew the heap by 16 MB is collected in full right after its answer, whatever its length", () => {
  expect(collectionPlan(5, 16 * MB)).toEqual({ prompt: true });
  expect(collectionPlan(2_000, 200 * MB)).toEqual({ prompt: true });
});

test("a long task whose heap hardly grew (a resumed report) gets a concurrent collection at once and its full one only once the thread is idle, so the next report never waits behind it", () => {
  expect(collectionPlan(20, 0)).toEqual({ prompt: false, concurrent: true, idleMs: 500 });
  expect(collectionPlan(95, 15 * MB)).toEqual({ prompt: false, concurrent: true, idleMs: 500 });
});

test("a short task is collected in full once the thread stayed idle 25 ms (a batch of small tool items is not slowed)", () => {
  expect(collectionPlan(3, MB)).toEqual({ prompt: false, concurrent: false, idleMs: 25 });
});
