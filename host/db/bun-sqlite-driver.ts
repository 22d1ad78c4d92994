import { Database, type Statement } from "bun:sqlite";

/**
 * SQL longer than this is compiled for each execution and finalised right after it. TypeORM keeps
 * the last 100 prepared statements per query runner; the multi-row INSERTs of a batch commit or a
 * price import are ~10–60 kB of SQL each, their compiled statements ~1 MB each (JS and SQLite
 * memory): the cache held ~90 MB on the request thread after seeding 20,000 transactions and
 * 130,000 prices (docs/decisions.md, "Memory: where the server's RSS goes"). Compiling such a
 * statement again costs well under a millisecond against the rows it writes.
 */
export const LONG_STATEMENT_CHARS = 4096;

/** Runs `use` on a statement compiled for it alone, then finalises the statement, whatever happens. */
export function runOnce<T>(statement: Statement, use: (s: Statement) => T): T {
  try {
    return use(statement);
  } finally {
    statement.finalize();
  }
}

/**
 * bun:sqlite dressed as better-sqlite3 for TypeORM's `better-sqlite3` driver
 * (TypeORM 1.x dropped sqlite3 and better-sqlite3 does not load in Bun).
 * TypeORM only calls the constructor, pragma, prepare, statement reader/all/run and close.
 */
export class BunSqliteForTypeORM extends Database {
  constructor(file: string, o: { readonly?: boolean; fileMustExist?: boolean; timeout?: number } = {}) {
    super(file, o.readonly ? { readonly: true } : { readwrite: true, create: !o.fileMustExist });
    this.exec(`PRAGMA busy_timeout = ${o.timeout ?? 5000}`);
  }

  /**
   * TypeORM opens a transaction with a deferred `BEGIN TRANSACTION`: with another process writing
   * the same file, its first write after a read then fails at once with SQLITE_BUSY (the snapshot
   * is stale; the busy timeout does not apply). `BEGIN IMMEDIATE` takes the write lock up front,
   * waiting up to the busy timeout, so write transactions of several processes queue instead
   * (docs/decisions.md "Scale-out").
   */
  override prepare(sql: string, ...rest: unknown[]): any {
    if (sql.length > LONG_STATEMENT_CHARS) return new OneShotStatement(this, sql);
    return (super.prepare as (...a: unknown[]) => unknown)(sql === "BEGIN TRANSACTION" ? "BEGIN IMMEDIATE TRANSACTION" : sql, ...rest);
  }

  /** The statement compiled now, for one execution (OneShotStatement). */
  compile(sql: string): Statement {
    return super.prepare(sql);
  }

  pragma(statement: string): unknown[] {
    return this.query(`PRAGMA ${statement}`).all();
  }
}

/**
 * What TypeORM's statement cache holds for a long statement: the SQL only. Each `all`/`run`
 * compiles it, executes it once and finalises it, so no compiled copy outlives the call.
 */
class OneShotStatement {
  readonly reader: boolean;
  /** Compiled to learn `reader`; TypeORM executes a statement right after preparing it, so the first call uses it. */
  private pending: Statement | undefined;

  constructor(private readonly db: BunSqliteForTypeORM, private readonly sql: string) {
    this.pending = db.compile(sql);
    this.reader = (this.pending as unknown as { reader: boolean }).reader;
  }

  all(...params: unknown[]): unknown[] {
    return this.once((s) => s.all(...(params as never[])));
  }

  run(...params: unknown[]): unknown {
    return this.once((s) => s.run(...(params as never[])));
  }

  private once<T>(use: (s: Statement) => T): T {
    const statement = this.pending ?? this.db.compile(this.sql);
    this.pending = undefined;
    return runOnce(statement, use);
  }
}
