import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "bun:test";
import type { ImportResult } from "../../sdk/index.ts";

const FIXTURES = join(import.meta.dir, "..", "fixtures", "brim");

/**
 * Every data line of a sample (each non-blank line below the header line `headerLine`, quoted line
 * breaks not splitting a line) is accounted for: it gave a row, or it is listed in `skippedRows`
 * with a reason, and never both.
 */
export function expectEveryLineAccounted(broker: string, name: string, result: ImportResult, headerLine: number): void {
  const text = readFileSync(join(FIXTURES, broker, name), "latin1");
  const lines = text.split(/\r?\n/).map((l, i) => ({ l, n: i + 1 })).filter(({ l, n }) => n > headerLine && l.replace(/[,;\s]/g, "") !== "");
  const data = lines.map(({ n }) => n);
  const classified = new Set(result.transactions.map((t) => t.row));
  const skipped = (result.skippedRows ?? []).map((s) => s.line);
  expect((result.skippedRows ?? []).filter((s) => s.reason.trim() === "")).toEqual([]);
  expect(skipped.filter((n) => classified.has(n))).toEqual([]);
  expect([...new Set([...classified, ...skipped])].sort((a, b) => a! - b!)).toEqual(data);
}
