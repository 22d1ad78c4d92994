/**
 * A timestamp read from a SQLite `datetime` column by raw SQL ("YYYY-MM-DD HH:MM:SS", UTC, as
 * `datetime('now')` writes it). TypeORM entities get this conversion themselves; raw queries do not.
 */
export function fromSqliteDatetime(text: string): Date {
  return new Date(text.includes("T") ? text : `${text.replace(" ", "T")}Z`);
}
