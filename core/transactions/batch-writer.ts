import type { EntityManager } from "typeorm";
import { eventLoopBreather, IMPORT_SLICE_MS, yieldToEventLoop } from "../async/yield-to-event-loop.ts";
import { ID_CHUNK } from "./batch-loader.ts";
import type { BatchState } from "./batch-state.ts";
import { type LedgerRow, storeTags } from "./ledger-row.ts";
import { Transaction } from "./transaction.entity.ts";

/**
 * Multi-row inserts of 1,000 rows or more fail in TypeORM on SQLite (STACK.md c); 500 is safe. 100
 * keeps each statement (compiled and run on the request thread, a turn for other requests between
 * two) a few ms: 250 rows were 7–13 ms of the thread's CPU during a 50,000-row import.
 */
const INSERT_CHUNK = 100;

function columns(row: LedgerRow): Partial<Transaction> {
  return {
    brokerId: row.brokerId, assetId: row.assetId, type: row.type, date: row.date, quantity: row.quantity,
    amount: row.amount, currency: row.currency, tags: storeTags(row.tags), description: row.description,
    costBasisOverride: row.costBasisOverride, costBasisCurrency: row.costBasisCurrency,
    costBasisMode: row.costBasisMode, assetEventId: row.assetEventId,
  };
}

/**
 * Writes the working set: deletes, then the new rows (bulk inserts), then every changed stored
 * row and every new pair link. The related_transaction_id foreign key is deferred, so links may
 * point at each other in any order within the transaction.
 */
export async function writeBatch(tx: EntityManager, state: BatchState): Promise<void> {
  const deleted = [...state.deleted].map((k) => state.rows.get(k)!.id!);
  for (let i = 0; i < deleted.length; i += ID_CHUNK) {
    const chunk = deleted.slice(i, i + ID_CHUNK);
    await tx.query(`DELETE FROM transactions WHERE id IN (${chunk.map(() => "?").join(",")})`, chunk);
  }
  // The walks over every created row give other requests a turn every few ms (an import's 50,000 rows).
  const breathe = eventLoopBreather(IMPORT_SLICE_MS);
  const created: LedgerRow[] = [];
  for (const key of state.created) {
    await breathe();
    created.push(state.rows.get(key)!);
  }
  await insertCreated(tx, created);
  for (const key of state.dirty) {
    if (!state.deleted.has(key)) await updateRow(tx, state, state.rows.get(key)!, true);
  }
  for (const key of state.created) {
    await breathe();
    const row = state.rows.get(key)!;
    if (row.relatedKey !== null) await updateRow(tx, state, row, false);
  }
}

/** The columns a new row is inserted with; `id`, `created_at` and `updated_at` take their defaults. */
const INSERT_COLUMNS = [
  "broker_id", "asset_id", "type", "date", "quantity", "amount", "currency", "related_transaction_id", "tags", "description",
  "cost_basis_override", "cost_basis_currency", "cost_basis_mode", "asset_event_id",
] as const;

function insertValues(row: LedgerRow): unknown[] {
  return [
    row.brokerId, row.assetId, row.type, row.date, row.quantity, row.amount, row.currency, null, storeTags(row.tags), row.description,
    row.costBasisOverride, row.costBasisCurrency, row.costBasisMode, row.assetEventId,
  ];
}

/** Each inserted column's PostgreSQL type, for its array in {@link POSTGRES_INSERT}. */
const POSTGRES_TYPES: Record<(typeof INSERT_COLUMNS)[number], string> = {
  broker_id: "bigint", asset_id: "bigint", type: "varchar", date: "date", quantity: "numeric", amount: "numeric", currency: "varchar",
  related_transaction_id: "bigint", tags: "varchar", description: "varchar", cost_basis_override: "numeric", cost_basis_currency: "varchar",
  cost_basis_mode: "varchar", asset_event_id: "bigint",
};

/**
 * On PostgreSQL a chunk's rows go as one array per column, unnested into rows: one statement of 14
 * parameters whatever its size, where a `VALUES` list of 100 rows had 1,400 for the server to parse
 * and plan. 50,000 rows in one transaction: 0.92–0.95 s against 1.29–1.35 s (docs/decisions.md).
 * The ids come back in the order of the arrays' rows, as they did from `VALUES`.
 */
const POSTGRES_INSERT = `INSERT INTO "transactions" (${INSERT_COLUMNS.map((c) => `"${c}"`).join(", ")}) SELECT * FROM unnest(${
  INSERT_COLUMNS.map((c, i) => `$${i + 1}::${POSTGRES_TYPES[c]}[]`).join(", ")}) RETURNING "id"`;

/** Rows per statement on PostgreSQL: one column array each, built on the request thread (a turn for other requests between two). */
const POSTGRES_INSERT_CHUNK = 500;

/** `INSERT … VALUES (?, …), …` of `count` rows (SQLite). */
function insertSql(count: number): string {
  const tuple = `(${INSERT_COLUMNS.map(() => "?").join(", ")})`;
  return `INSERT INTO "transactions" (${INSERT_COLUMNS.map((c) => `"${c}"`).join(", ")}) VALUES ${Array(count).fill(tuple).join(", ")}`;
}

/** The chunk's values as one array per column, in {@link INSERT_COLUMNS}' order. */
function columnArrays(rows: readonly LedgerRow[]): unknown[][] {
  const arrays: unknown[][] = INSERT_COLUMNS.map(() => new Array(rows.length));
  rows.forEach((row, r) => insertValues(row).forEach((v, c) => { arrays[c]![r] = v; }));
  return arrays;
}

/**
 * One INSERT per chunk, its SQL written here: TypeORM's query builder spent most of a 50,000-row
 * import building the statements (4 of 6.6 s), and its re-select of generated columns is not
 * needed. On SQLite the ids are the statement's last rowid counted back: one multi-row INSERT on
 * an AUTOINCREMENT table inside the single write transaction assigns consecutive rowids. On
 * PostgreSQL (where another process may insert at the same time) the statement returns its ids,
 * in the order of its rows.
 */
async function insertCreated(tx: EntityManager, rows: LedgerRow[]): Promise<void> {
  const postgres = tx.connection.options.type === "postgres";
  const size = postgres ? POSTGRES_INSERT_CHUNK : INSERT_CHUNK;
  for (let i = 0; i < rows.length; i += size) {
    // Other requests get a turn between chunks (a 5,000-row batch held the loop ~300 ms); writes
    // still queue behind this transaction (core/db/database.ts), reads use the reader connection.
    if (i > 0) await yieldToEventLoop();
    const chunk = rows.slice(i, i + size);
    const result = postgres
      ? await tx.query(POSTGRES_INSERT, columnArrays(chunk))
      : await tx.query(insertSql(chunk.length), chunk.flatMap(insertValues));
    if (postgres) {
      const ids = (result as { id: number | string }[]).map((r) => Number(r.id));
      if (ids.length !== chunk.length) throw new Error(`insert returned ${ids.length} ids for ${chunk.length} rows`);
      chunk.forEach((row, j) => { row.id = ids[j]!; });
      continue;
    }
    const last = Number(result);
    if (!Number.isSafeInteger(last) || last < chunk.length) throw new Error(`insert returned no rowid (${String(result)})`);
    chunk.forEach((row, j) => { row.id = last - chunk.length + 1 + j; });
  }
}

async function updateRow(tx: EntityManager, state: BatchState, row: LedgerRow, all: boolean): Promise<void> {
  const relatedTransactionId = row.relatedKey === null ? null : state.rows.get(row.relatedKey)!.id;
  await tx.createQueryBuilder().update(Transaction)
    .set(all ? { ...columns(row), relatedTransactionId } : { relatedTransactionId })
    .where("id = :id", { id: row.id }).execute();
}

/** Stores a computed cost basis on a row already written. */
export async function storeCostBasis(tx: EntityManager, id: number, amount: string, currency: string): Promise<void> {
  await tx.createQueryBuilder().update(Transaction)
    .set({ costBasisOverride: amount, costBasisCurrency: currency }).where("id = :id", { id }).execute();
}
