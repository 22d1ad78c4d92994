import type { EntityManager } from "typeorm";

/**
 * A `?` whose type PostgreSQL cannot infer, typed for it: the columns of a `VALUES` list used as a
 * table (`WITH v(...) AS (VALUES …)`) come out as text on PostgreSQL, which will not compare or
 * assign text to `bigint`, `date` or `numeric` columns. SQLite takes the value as it is (a CAST
 * there would change it: `CAST('2024-01-02' AS DATE)` is 2024), so it gets a plain `?`.
 */
export function typedParam(db: EntityManager, type: "bigint" | "date" | "numeric"): string {
  return db.connection.options.type === "postgres" ? `CAST(? AS ${type})` : "?";
}
