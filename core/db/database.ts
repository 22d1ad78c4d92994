import type { DataSource, EntityManager } from "typeorm";

/** A prepared lookup: synchronous on SQLite (bun:sqlite), a promise on PostgreSQL; callers await it. */
export interface PreparedRead<Row> {
  get(...params: unknown[]): Row | null | undefined | Promise<Row | null | undefined>;
}

/** Reads the cache generations inside a write and hears of them once it committed (`Database.witnessGenerations`). */
export interface GenerationWitness {
  read(tx: EntityManager): Promise<Record<string, string>>;
  committed(before: Record<string, string>, after: Record<string, string>): void;
}

/** PostgreSQL's "could not serialize access" and "deadlock detected": the transaction is run again. */
const RETRYABLE = new Set(["40001", "40P01"]);
const MAX_ATTEMPTS = 8;

/**
 * The one gateway to the database (SQLite by default; PostgreSQL when DATABASE_URL is set, see
 * docs/decisions.md "PostgreSQL (issue 17)"). On SQLite, writes run one at a time in a transaction on the writer
 * connection (SQLite has one writer, and TypeORM shares one connection, so two open
 * transactions would collide). Reads use a separate read-only connection that, under WAL,
 * only ever sees committed data, so a read never observes a half-written batch.
 * On PostgreSQL, `writer` and `reader` are one pool; each write is a SERIALIZABLE transaction
 * (several processes may commit to one broker at once: the ledger's all-or-nothing batches and
 * their balance checks must see each other), run again from the start on a serialisation failure.
 */
export class Database {
  private queue: Promise<unknown> = Promise.resolve();
  private witness: GenerationWitness | null = null;

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
   * On SQLite, every write reads the stored cache generations (docs/decisions.md "Scale-out") at
   * its start and end, inside its transaction, and tells `witness` once it committed: writers
   * queue (BEGIN IMMEDIATE), so when the start value is the one this process last saw, the whole
   * move is this write's own, which the caller clears with the dates it knows (the report's
   * incremental path survives the process's own writes). Not on PostgreSQL: reading every counter
   * row in each SERIALIZABLE write would make concurrent writers conflict; there a write through
   * this process recomputes the next report cold.
   */
  witnessGenerations(witness: GenerationWitness): void {
    this.witness = witness;
  }

  private async sqliteWrite<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    const witness = this.witness;
    if (!witness) return this.writer.transaction(work);
    let before: Record<string, string> = {};
    let after: Record<string, string> = {};
    const result = await this.writer.transaction(async (tx) => {
      before = await witness.read(tx);
      const value = await work(tx);
      after = await witness.read(tx);
      return value;
    });
    witness.committed(before, after);
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
        return await this.writer.transaction("SERIALIZABLE", work);
      } catch (error) {
        const code = (error as { code?: string; driverError?: { code?: string } }).driverError?.code ?? (error as { code?: string }).code;
        if (attempt >= MAX_ATTEMPTS || !code || !RETRYABLE.has(code)) throw error;
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt));
      }
    }
  }

  async close(): Promise<void> {
    await this.queue;
    if (this.reader !== this.writer && this.reader.isInitialized) await this.reader.destroy();
    if (this.writer.isInitialized) await this.writer.destroy();
  }
}
