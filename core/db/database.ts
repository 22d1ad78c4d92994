import type { DataSource, EntityManager } from "typeorm";
import { type DataChange, openDeclarations } from "./data-changes.ts";

/** A prepared lookup: synchronous on SQLite (bun:sqlite), a promise on PostgreSQL; callers await it. */
export interface PreparedRead<Row> {
  get(...params: unknown[]): Row | null | undefined | Promise<Row | null | undefined>;
}

/**
 * Stores each write's declared changes in its own transaction (`Database.journalChanges`;
 * host/db/change-journal.ts has the SQL of both databases).
 */
export interface ChangeJournal {
  /** Inside the transaction, before the write's work; its result goes to `finish`. */
  begin(tx: EntityManager): Promise<unknown>;
  /**
   * Inside the transaction, after the work: stores `declared`, and an undated change for each
   * cache group whose tables the write changed without declaring anything of that group.
   */
  finish(tx: EntityManager, began: unknown, declared: readonly DataChange[]): Promise<void>;
  /** After a commit, outside the transaction: housekeeping (pruning old rows). */
  committed(): void;
}

/** PostgreSQL's "could not serialize access" and "deadlock detected": the transaction is run again. */
const RETRYABLE = new Set(["40001", "40P01"]);
const MAX_ATTEMPTS = 8;

/**
 * The one gateway to the database (SQLite by default; PostgreSQL when DATABASE_URL is set, see
 * docs/decisions.md "PostgreSQL"). On SQLite, writes run one at a time in a transaction on the writer
 * connection (SQLite has one writer, and TypeORM shares one connection, so two open
 * transactions would collide). Reads use a separate read-only connection that, under WAL,
 * only ever sees committed data, so a read never observes a half-written batch.
 * On PostgreSQL, `writer` and `reader` are one pool; each write is a SERIALIZABLE transaction
 * (several processes may commit to one broker at once: the ledger's all-or-nothing batches and
 * their balance checks must see each other), run again from the start on a serialisation failure.
 */
export class Database {
  private queue: Promise<unknown> = Promise.resolve();
  private journal: ChangeJournal | null = null;

  constructor(
    readonly writer: DataSource,
    readonly reader: DataSource,
  ) {}

  /** Manager for plain reads outside any write. */
  get reads(): EntityManager {
    return this.reader.manager;
  }

  /** Runs `work` in a serialised write transaction; a throw rolls everything back. */
  write<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    const run = this.queue.then(() => this.postgres ? this.serializable(work) : this.sqliteWrite(work));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /**
   * Every write from now on stores what it declared (`declareChange`, core/db/data-changes.ts)
   * in its own transaction (docs/decisions.md "Declared changes"). Set once at start-up.
   */
  journalChanges(journal: ChangeJournal): void {
    this.journal = journal;
  }

  /** `work` with its declarations opened before and stored after it, inside the transaction. */
  private async journaled<T>(tx: EntityManager, work: (tx: EntityManager) => Promise<T>): Promise<T> {
    const declared = openDeclarations(tx);
    const journal = this.journal;
    const began = journal ? await journal.begin(tx) : undefined;
    const value = await work(tx);
    if (journal) await journal.finish(tx, began, declared);
    return value;
  }

  private async sqliteWrite<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    const result = await this.writer.transaction((tx) => this.journaled(tx, work));
    this.journal?.committed();
    return result;
  }

  /**
   * A prepared statement on the read-only connection, for hot paths (the per-request account
   * reload) where TypeORM's query building costs more than the query. Same committed-only view.
   */
  prepareRead<Row>(sql: string): PreparedRead<Row> {
    if (this.postgres) return { get: async (...params) => ((await this.reader.query(sql, params)) as Row[])[0] };
    const connection = (this.reader.driver as unknown as { databaseConnection: { prepare(sql: string): any } }).databaseConnection;
    return connection.prepare(sql);
  }

  /** True on PostgreSQL (DATABASE_URL), false on SQLite. */
  get postgres(): boolean {
    return this.writer.options.type === "postgres";
  }

  private async serializable<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        const result = await this.writer.transaction("SERIALIZABLE", (tx) => this.journaled(tx, work));
        this.journal?.committed();
        return result;
      } catch (error) {
        const code = (error as { code?: string; driverError?: { code?: string } }).driverError?.code ?? (error as { code?: string }).code;
        if (attempt >= MAX_ATTEMPTS || !code || !RETRYABLE.has(code)) throw error;
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt));
      }
    }
  }

  private closing: (() => Promise<void>)[] = [];

  /** Runs `stop` when the database closes, before its connections do (a background thread of the host). */
  onClose(stop: () => Promise<void>): void {
    this.closing.push(stop);
  }

  async close(): Promise<void> {
    await this.queue;
    for (const stop of this.closing.splice(0)) await stop();
    if (this.reader !== this.writer && this.reader.isInitialized) await this.reader.destroy();
    if (this.writer.isInitialized) await this.writer.destroy();
  }
}
