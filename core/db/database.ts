import type { DataSource, EntityManager } from "typeorm";

/**
 * The one gateway to SQLite. Writes run one at a time in a transaction on the writer
 * connection (SQLite has one writer, and TypeORM shares one connection, so two open
 * transactions would collide). Reads use a separate read-only connection that, under WAL,
 * only ever sees committed data, so a read never observes a half-written batch.
 */
export class Database {
  private queue: Promise<unknown> = Promise.resolve();

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
    const run = this.queue.then(() => this.writer.transaction(work));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /**
   * A prepared statement on the read-only connection, for hot paths (the per-request account
   * reload) where TypeORM's query building costs more than the query. Same committed-only view.
   */
  prepareRead<Row>(sql: string): { get(...params: unknown[]): Row | null | undefined } {
    const connection = (this.reader.driver as unknown as { databaseConnection: { prepare(sql: string): any } }).databaseConnection;
    return connection.prepare(sql);
  }

  async close(): Promise<void> {
    await this.queue;
    if (this.reader.isInitialized) await this.reader.destroy();
    if (this.writer.isInitialized) await this.writer.destroy();
  }
}
