import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { ImportedTransaction, ImportFileMeta, ImportResult } from "../../sdk/index.ts";
import { describeFile } from "../../sdk/import/index.ts";
import { Decimal } from "../../sdk/index.ts";

const norm = (v: string) => new Decimal(v).toFixed();

const FIXTURES = join(import.meta.dir, "..", "fixtures", "brim");

/** A sample report of test/fixtures/brim/<broker>/<name>, with the meta the host would build. */
export function fixture(broker: string, name: string): { bytes: Uint8Array; file: ImportFileMeta } {
  const bytes = new Uint8Array(readFileSync(join(FIXTURES, broker, name)));
  return { bytes, file: describeFile(bytes, name) };
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
