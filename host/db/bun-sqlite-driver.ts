import { Database } from "bun:sqlite";

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
   * (docs/decisions.md "Scale-out (issue 17)").
   */
  override prepare(sql: string, ...rest: unknown[]): any {
    return (super.prepare as (...a: unknown[]) => unknown)(sql === "BEGIN TRANSACTION" ? "BEGIN IMMEDIATE TRANSACTION" : sql, ...rest);
  }

  pragma(statement: string): unknown[] {
    return this.query(`PRAGMA ${statement}`).all();
  }
}
