import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { ImportedTransaction, ImportFileMeta, ImportResult } from "../../sdk/index.ts";
import { describeFile, describeWorkbook } from "../../sdk/import/index.ts";
import { Decimal } from "../../sdk/index.ts";

const norm = (v: string) => new Decimal(v).toFixed();

const FIXTURES = join(import.meta.dir, "..", "fixtures", "brim");

/** A sample report of test/fixtures/brim/<broker>/<name>, with the meta the host would build. */
export function fixture(broker: string, name: string): { bytes: Uint8Array; file: ImportFileMeta } {
  const bytes = new Uint8Array(readFileSync(join(FIXTURES, broker, name)));
  return { bytes, file: describeFile(bytes, name) };
}

/** A workbook sample with the meta the host builds for spreadsheets (the first rows of each sheet in `sheets`). */
export async function workbookFixture(broker: string, name: string): Promise<{ bytes: Uint8Array; file: ImportFileMeta }> {
  const bytes = new Uint8Array(readFileSync(join(FIXTURES, broker, name)));
  return { bytes, file: await describeWorkbook(bytes, name) };
}

/**
 * Every data line of a report is accounted for: each of `lines` is the `row` of a transaction or of a
 * warning. Returns the lines that are neither (expected: none).
 */
export function unaccounted(result: ImportResult, lines: readonly number[]): number[] {
  const seen = new Set<number>([...result.transactions.map((t) => t.row ?? 0), ...result.warnings.map((w) => w.row ?? 0)]);
  return lines.filter((n) => !seen.has(n));
}

/**
 * One classified row as a pinned line: `row type date quantity amount currency identifiers [order] [pair]`.
 * Quantities and amounts normalised (`-1.00` reads `-1`): the value is pinned, not its spelling.
 */
export function pinned(tx: ImportedTransaction): string {
  const ids = [tx.isin, tx.symbol].filter(Boolean).join("/");
  return [
    tx.row ?? "-", tx.type, tx.date, `q=${norm(tx.quantity ?? "0")}`, tx.cash ? `${norm(tx.cash.amount)} ${tx.cash.currency}` : "no-cash",
    ids || "-", ...(tx.orderId ? [`order=${tx.orderId.slice(0, 8)}`] : []), ...(tx.pairKey ? ["pair"] : []),
  ].join(" ");
}

export const pinAll = (result: ImportResult) => result.transactions.map(pinned);
