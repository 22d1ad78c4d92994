import type { EntityManager } from "typeorm";
import { ROWS_PER_YIELD, yieldToEventLoop } from "./snapshot-reader.ts";

/** A section whose rows are keyed (a price by asset and day, a rate by pair, provider and day): see {@link RestoreContext.upsertKeyed}. */
export interface KeyedRows<R> {
  readonly table: string;
  /** The inserted columns, in the order `values` gives them. */
  readonly columns: readonly string[];
  /** The keys stored before the restore (of the rows a duplicate would hit). */
  readonly stored: Set<string>;
  key(row: R): string;
  values(row: R): unknown[];
  /** Gives the stored row of `row`'s key the exported values (`overwrite_existing`). */
  update(row: R, values: unknown[]): Promise<unknown>;
  /**
   * A later row with the key of one inserted here counts as its duplicate (skipped, or an update
   * with overwrite) instead of a second insert; `stored` takes the inserted keys.
   */
  readonly firstWins?: boolean;
}

/**
 * What the stages of one restore share, inside its single write transaction: the rows of every
 * section, the id maps (document id → stored id) each stage fills for the ones below it, and
 * the counts and warnings of the answer.
 */
export class RestoreContext {
  readonly ids = new Map<string, Map<number, number>>();
  readonly restored: Record<string, number> = {};
  readonly skipped: Record<string, number> = {};
  readonly warnings: string[] = [];
  /** Document ids of brokers kept as they were (a duplicate without overwrite): their transactions are skipped. */
  readonly keptBrokers = new Set<number>();
  /** Stored ids of brokers this restore created. */
  readonly createdBrokers = new Set<number>();
  /** Stored ids of matched assets the caller may not change (kept by another user; docs/assets.md). */
  readonly lockedAssets = new Set<number>();
  /** Stored ids of assets that existed before the restore (matched, not created). */
  readonly matchedAssets = new Set<number>();

  constructor(
    readonly tx: EntityManager,
    readonly userId: number,
    readonly isSuperuser: boolean,
    readonly overwrite: boolean,
    readonly sections: Record<string, Record<string, any>[]>,
  ) {}

  rows(section: string): Record<string, any>[] {
    return this.sections[section] ?? [];
  }

  map(section: string): Map<number, number> {
    let m = this.ids.get(section);
    if (!m) this.ids.set(section, (m = new Map()));
    return m;
  }

  /** The stored id of a document id, or null for null. */
  mapped(section: string, id: number | null): number | null {
    return id === null ? null : this.map(section).get(id) ?? null;
  }

  count(section: string, restored: number, skipped: number): void {
    this.restored[section] = (this.restored[section] ?? 0) + restored;
    this.skipped[section] = (this.skipped[section] ?? 0) + skipped;
  }

  /**
   * The keyed stages' loop: a row whose key is not stored is inserted (in chunks, after the loop),
   * a stored one is updated with `overwrite_existing` or else kept and counted as skipped.
   */
  async upsertKeyed<R>(section: string, rows: readonly R[], spec: KeyedRows<R>): Promise<void> {
    const fresh: unknown[][] = [];
    let replaced = 0;
    let skipped = 0;
    for (const row of rows) {
      const key = spec.key(row);
      const values = spec.values(row);
      if (!spec.stored.has(key)) {
        if (spec.firstWins) spec.stored.add(key);
        fresh.push(values);
      } else if (this.overwrite) {
        await spec.update(row, values);
        replaced++;
      } else skipped++;
    }
    await this.insert(spec.table, spec.columns, fresh);
    this.count(section, fresh.length + replaced, skipped);
  }

  /** The first free id of an AUTOINCREMENT table: ids are handed out before rows are written, so links are set in one pass. */
  async nextId(table: string): Promise<number> {
    if (this.postgres) {
      // The identity's sequence remembers ids of deleted rows, as sqlite_sequence does.
      const [row] = await this.tx.query(
        `SELECT GREATEST(COALESCE((SELECT max(id) FROM "${table}"), 0), COALESCE(pg_sequence_last_value(pg_get_serial_sequence('"${table}"', 'id')), 0)) + 1 AS next`,
      );
      return Number(row.next);
    }
    const [row] = await this.tx.query(
      `SELECT max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = ?), 0), coalesce((SELECT max(id) FROM "${table}"), 0)) + 1 AS next`,
      [table],
    );
    return Number(row.next);
  }

  /**
   * Multi-row INSERTs of at most 200 rows each. bun:sqlite is synchronous, so the loop hands the
   * event loop back every few thousand rows and the server keeps answering during a long restore
   * (the transaction stays open; other writes wait in the writer queue, reads see the state before).
   */
  async insert(table: string, columns: readonly string[], rows: unknown[][]): Promise<void> {
    const per = Math.max(1, Math.min(200, Math.floor(8_000 / columns.length)));
    const cols = columns.map((c) => `"${c}"`).join(", ");
    const one = `(${columns.map(() => "?").join(", ")})`;
    let sinceYield = 0;
    for (let i = 0; i < rows.length; i += per) {
      const chunk = rows.slice(i, i + per);
      await this.tx.query(`INSERT INTO "${table}" (${cols}) VALUES ${chunk.map(() => one).join(", ")}`, chunk.flat());
      sinceYield += chunk.length;
      if (sinceYield >= ROWS_PER_YIELD) {
        sinceYield = 0;
        await yieldToEventLoop();
      }
    }
    // Ids given explicitly do not move PostgreSQL's identity sequence: move it past them (SQLite's
    // AUTOINCREMENT follows the largest id by itself).
    if (this.postgres && columns.includes("id") && rows.length > 0) {
      await this.tx.query(`SELECT setval(pg_get_serial_sequence('"${table}"', 'id'), (SELECT max(id) FROM "${table}"))`);
    }
  }

  private get postgres(): boolean {
    return this.tx.connection.options.type === "postgres";
  }
}
