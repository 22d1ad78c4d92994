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

  pragma(statement: string): unknown[] {
    return this.query(`PRAGMA ${statement}`).all();
  }
}
