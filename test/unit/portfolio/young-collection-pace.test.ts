/**
 * The pace of a cold replay's young collections (core/portfolio/report-engine.ts): once 3,500 rows
 * were applied or 512 days valued and points written since the last, whichever comes first.
 */
import { expect, test } from "bun:test";
import { FULL_COLLECTION_ROWS, YOUNG_COLLECTION_DAYS, YOUNG_COLLECTION_ROWS, youngCollectionPace } from "../../../core/portfolio/report-engine.ts";

/** The steps after which a collection ran, for `rows[i]` rows applied before step i. */
function collectedAfter(rows: readonly number[]): number[] {
  const at: number[] = [];
  let step = 0;
  const tick = youngCollectionPace(() => at.push(step));
  for (; step < rows.length; step++) tick(rows[step]!);
  return at;
}

test("young collections come every 512 days or history points when few rows are applied", () => {
  expect([YOUNG_COLLECTION_DAYS, YOUNG_COLLECTION_ROWS]).toEqual([512, 3_500]);
  // No rows at all (history points): the 512th, 1024th and 1536th steps.
  expect(collectedAfter(new Array(1600).fill(0))).toEqual([511, 1023, 1535]);
  // Five rows a day: 2,560 rows by the 512th day, under 3,500.
  expect(collectedAfter(new Array(1100).fill(5))).toEqual([511, 1023]);
});

test("young collections come every 3,500 rows applied when a ledger has many rows a day", () => {
  // 27 rows a day (the dense 100k ledger): the 130th day brings the 3,510th row.
  expect(collectedAfter(new Array(400).fill(27))).toEqual([129, 259, 389]);
  // One day of 4,000 rows (an opening import): collected after it, and the count starts again.
  expect(collectedAfter([4_000, ...new Array(600).fill(0)])).toEqual([0, 512]);
  // Rows before the first day valued come with it: exactly 3,500 collects at once.
  expect(collectedAfter([3_500, 0, 0])).toEqual([0]);
  expect(collectedAfter([3_499, 0])).toEqual([]);
  expect(collectedAfter([3_499, 1])).toEqual([1]);
});

test("a collection is a full one once 50,000 rows were applied since the last full one", () => {
  expect(FULL_COLLECTION_ROWS).toBe(50_000);
  const kinds: string[] = [];
  const tick = youngCollectionPace(() => kinds.push("young"), () => kinds.push("full"));
  // 27 rows a day for 3,700 days (the dense 100k ledger): a collection every 130 days, 28 in all;
  // the 14th brings the 49,140th row, the 15th the 52,650th: full; the 29th would be the next.
  for (let day = 0; day < 3_700; day++) tick(27);
  expect(kinds.length).toBe(28);
  expect(kinds.map((k, i) => (k === "full" ? i : -1)).filter((i) => i >= 0)).toEqual([14]);
  // Without a full collector, every collection is a young one (the pace alone).
  const only: number[] = [];
  const young = youngCollectionPace(() => only.push(1));
  for (let day = 0; day < 3_700; day++) young(27);
  expect(only.length).toBe(28);
});
