import { expect, test } from "bun:test";
import { moveItem, reorderPlan } from "../../web/src/lib/reorder.ts";

test("moving an item keeps the others in order; positions are clamped", () => {
  expect(moveItem(["a", "b", "c", "d"], 3, 0)).toEqual(["d", "a", "b", "c"]);
  expect(moveItem(["a", "b", "c", "d"], 0, 2)).toEqual(["b", "c", "a", "d"]);
  expect(moveItem(["a", "b", "c"], 1, 99)).toEqual(["a", "c", "b"]);
  expect(moveItem(["a", "b", "c"], 1, -5)).toEqual(["b", "a", "c"]);
  expect(moveItem(["a", "b"], 7, 0)).toEqual(["a", "b"]);
});

test("a new order reuses the pair's priorities and touches only the routes that move", () => {
  const r = (priority: number, name: string) => ({ priority, name });
  const before = [r(1, "ecb"), r(2, "fed"), r(5, "boe"), r(9, "snb")];
  const plan = reorderPlan(before, moveItem(before, 2, 0));
  expect(plan.creates.map((c) => [c.route.name, c.priority])).toEqual([["boe", 1], ["ecb", 2], ["fed", 5]]);
  expect(plan.deletes).toEqual([5, 1, 2]);
  expect(reorderPlan(before, before)).toEqual({ deletes: [], creates: [] });
});
