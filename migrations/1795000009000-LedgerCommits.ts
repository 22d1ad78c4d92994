import type { MigrationInterface, QueryRunner } from "typeorm";

/** Columns a checkpoint depends on: a row's balances and its part in a cost pool. */
const CHECKPOINT_COLUMNS = ["broker_id", "asset_id", "type", "date", "quantity", "amount", "currency", "cost_basis_override", "cost_basis_currency"];

/**
 * Ledger commits (docs/decisions.md, "Ledger commits: checkpoints"): `ledger_checkpoints`
 * holds, for one broker, the state of its rows dated before `upto_date` as JSON of exact decimal
 * text (cash per currency, quantity per asset, the cost pool per asset;
 * core/transactions/ledger-checkpoints.ts), written by the balance check so the next commit reads
 * only the rows since the latest checkpoint instead of the broker's whole history. Triggers
 * delete, in the same transaction as every write to `transactions` (whoever writes: a batch, a
 * merge, a restore, the command line), each checkpoint of the row's broker dated after the row
 * (before and after an update), so a checkpoint that is left always equals a replay of the rows
 * it covers. SQLite fires per row, PostgreSQL once per statement over its transition tables.
 */
export class LedgerCommits1795000009000 implements MigrationInterface {
  name = "LedgerCommits1795000009000";

  async up(q: QueryRunner): Promise<void> {
    const postgres = q.connection.options.type === "postgres";
    await q.query(`CREATE TABLE "ledger_checkpoints" (
      "broker_id" ${postgres ? "bigint" : "integer"} NOT NULL,
      "upto_date" ${postgres ? "date" : "varchar(10)"} NOT NULL,
      "sums" text NOT NULL,
      PRIMARY KEY ("broker_id", "upto_date"))`);
    if (postgres) {
      await q.query(`CREATE FUNCTION "ledger_checkpoints_invalidate"() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF TG_OP IN ('UPDATE', 'DELETE') THEN
            DELETE FROM "ledger_checkpoints" c USING (SELECT "broker_id", min("date") AS "d" FROM "old_rows" GROUP BY "broker_id") o
              WHERE c."broker_id" = o."broker_id" AND c."upto_date" > o."d";
          END IF;
          IF TG_OP IN ('UPDATE', 'INSERT') THEN
            DELETE FROM "ledger_checkpoints" c USING (SELECT "broker_id", min("date") AS "d" FROM "new_rows" GROUP BY "broker_id") n
              WHERE c."broker_id" = n."broker_id" AND c."upto_date" > n."d";
          END IF;
          RETURN NULL;
        END $$`);
      // A trigger with transition tables cannot name columns, so every UPDATE invalidates.
      await q.query(`CREATE TRIGGER "ledger_checkpoints_insert" AFTER INSERT ON "transactions" REFERENCING NEW TABLE AS "new_rows"
        FOR EACH STATEMENT EXECUTE FUNCTION "ledger_checkpoints_invalidate"()`);
      await q.query(`CREATE TRIGGER "ledger_checkpoints_update" AFTER UPDATE ON "transactions" REFERENCING OLD TABLE AS "old_rows" NEW TABLE AS "new_rows"
        FOR EACH STATEMENT EXECUTE FUNCTION "ledger_checkpoints_invalidate"()`);
      await q.query(`CREATE TRIGGER "ledger_checkpoints_delete" AFTER DELETE ON "transactions" REFERENCING OLD TABLE AS "old_rows"
        FOR EACH STATEMENT EXECUTE FUNCTION "ledger_checkpoints_invalidate"()`);
      return;
    }
    const drop = (row: "NEW" | "OLD") => `DELETE FROM "ledger_checkpoints" WHERE "broker_id" = ${row}."broker_id" AND "upto_date" > ${row}."date";`;
    await q.query(`CREATE TRIGGER "ledger_checkpoints_insert" AFTER INSERT ON "transactions" BEGIN ${drop("NEW")} END`);
    await q.query(`CREATE TRIGGER "ledger_checkpoints_update" AFTER UPDATE OF ${CHECKPOINT_COLUMNS.map((c) => `"${c}"`).join(", ")} ON "transactions"
      BEGIN ${drop("OLD")} ${drop("NEW")} END`);
    await q.query(`CREATE TRIGGER "ledger_checkpoints_delete" AFTER DELETE ON "transactions" BEGIN ${drop("OLD")} END`);
  }

  async down(q: QueryRunner): Promise<void> {
    const postgres = q.connection.options.type === "postgres";
    for (const op of ["insert", "update", "delete"]) {
      await q.query(postgres ? `DROP TRIGGER IF EXISTS "ledger_checkpoints_${op}" ON "transactions"` : `DROP TRIGGER IF EXISTS "ledger_checkpoints_${op}"`);
    }
    if (postgres) await q.query(`DROP FUNCTION IF EXISTS "ledger_checkpoints_invalidate"()`);
    await q.query(`DROP TABLE "ledger_checkpoints"`);
  }
}
