import type { DataSource, EntityManager } from "typeorm";
import { type DataChange, openDeclarations } from "./data-changes.ts";
import { WriteGate } from "./write-gate.ts";

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

/**
 * What a write reports once it ended, for operators and the scale-out bench (host/main.ts logs it
 * at debug level): `queuedMs` waiting for its turn among the process's writes, `ms` in the
 * database (every attempt, back-off included), and each serialisation failure that made it run again.
 */
export interface WriteObserver {
  retried(event: { attempt: number; code: string; delayMs: number }): void;
  ended(event: { queuedMs: number; ms: number; attempts: number; committed: boolean }): void;
}

/** PostgreSQL's "could not serialize access" and "deadlock detected": the transaction is run again. */
const RETRYABLE = new Set(["40001", "40P01"]);
const MAX_ATTEMPTS = 8;
/** The wait before attempt n + 1 is random below min(cap, base × 2^(n − 1)) ms ("full jitter"). */
const BACKOFF_BASE_MS = 5;
const BACKOFF_CAP_MS = 200;

/**
 * The one gateway to the database (SQLite by default; PostgreSQL when DATABASE_URL is set, see
 * docs/decisions.md "PostgreSQL"). On SQLite, writes run one at a time in a transaction on the writer
 * connection (SQLite has one writer, and TypeORM shares one connection, so two open
 * transactions would collide). Reads use a separate read-only connection that, under WAL,
 * only ever sees committed data, so a read never observes a half-written batch.
 * On PostgreSQL, `writer` is a pool of write connections whose transactions are SERIALIZABLE
 * (several writes may commit to one broker at once: the ledger's all-or-nothing batches and their
 * balance checks must see each other) and `reader` a separate pool for reads. Up to
 * `concurrentWrites` writes run at once; one that fails to serialise runs again from the start,
 * alone in this process (docs/decisions.md "PostgreSQL", concurrent writes).
 */
export class Database {
  private readonly gate: WriteGate;
  private journal: ChangeJournal | null = null;
  private observer: WriteObserver | null = null;
  private readonly written: (() => void)[] = [];

  constructor(
    readonly writer: DataSource,
    readonly reader: DataSource,
    options: { concurrentWrites?: number } = {},
  ) {
    this.gate = new WriteGate(options.concurrentWrites ?? 1);
  }

  /** Manager for plain reads outside any write. */
  get reads(): EntityManager {
    return this.reader.manager;
  }

  /**
   * Runs `work` in a write transaction; a throw rolls everything back. On PostgreSQL `work` may run
   * more than once (after a serialisation failure, on a fresh transaction), so it acts only through `tx`.
   */
  write<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    return this.postgres ? this.serializable(work) : this.sqliteWrite(work);
  }

  /** Calls `listener` after each committed write (the host's checkpoints of SQLite's log). */
  onWritten(listener: () => void): void {
    this.written.push(listener);
  }

  /** A listener's failure must not turn a committed write into a failed one: it is left out. */
  private notifyWritten(): void {
    for (const listener of this.written) {
      try {
        listener();
      } catch {
        // Nothing to undo: the write is committed, and the listener runs again at the next one.
      }
    }
  }

  /** Reports each write's wait, time and retries to `observer` (set once at start-up). */
  observeWrites(observer: WriteObserver): void {
    this.observer = observer;
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
    const queued = performance.now();
    await this.gate.enter();
    const started = performance.now();
    let committed = false;
    try {
      const result = await this.writer.transaction((tx) => this.journaled(tx, work));
      committed = true;
      this.journal?.committed();
      this.notifyWritten();
      return result;
    } finally {
      this.gate.leave();
      this.observer?.ended({ queuedMs: started - queued, ms: performance.now() - started, attempts: 1, committed });
    }
  }

  /**
   * A SERIALIZABLE transaction (the writer pool's sessions default to it:
   * host/db/postgres-data-source.ts), run again after a random back-off on a serialisation failure
   * or deadlock. The first attempt runs beside the process's other writes; a repeated one waits
   * until they are done and keeps new ones out, so two writes of this process never fail each other
   * twice (only writes of other processes can make it fail again).
   */
  private async serializable<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    const queued = performance.now();
    let started = queued;
    let committed = false;
    let attempt = 1;
    try {
      for (; ; attempt++) {
        await this.gate.enter(attempt > 1);
        if (attempt === 1) started = performance.now();
        let delayMs: number;
        try {
          const result = await this.writer.transaction((tx) => this.journaled(tx, work));
          committed = true;
          this.journal?.committed();
          this.notifyWritten();
          return result;
        } catch (error) {
          const code = (error as { code?: string; driverError?: { code?: string } }).driverError?.code ?? (error as { code?: string }).code;
          if (attempt >= MAX_ATTEMPTS || !code || !RETRYABLE.has(code)) throw error;
          delayMs = Math.random() * Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** (attempt - 1));
          this.observer?.retried({ attempt, code, delayMs });
        } finally {
          this.gate.leave();
        }
        await new Promise((resolve) => setTimeout(resolve, delayMs));
      }
    } finally {
      this.observer?.ended({ queuedMs: started - queued, ms: performance.now() - started, attempts: attempt, committed });
    }
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

  private closing: (() => Promise<void>)[] = [];

  /** Runs `stop` when the database closes, before its connections do (a background thread of the host). */
  onClose(stop: () => Promise<void>): void {
    this.closing.push(stop);
  }

  async close(): Promise<void> {
    await this.gate.drained();
    for (const stop of this.closing.splice(0)) await stop();
    if (this.reader !== this.writer && this.reader.isInitialized) await this.reader.destroy();
    if (this.writer.isInitialized) await this.writer.destroy();
  }
}
