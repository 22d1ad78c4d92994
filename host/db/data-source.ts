import { mkdirSync } from "node:fs";
import { DataSource } from "typeorm";
import { Database } from "../../core/db/database.ts";
import { changeJournal } from "./change-journal.ts";
import { checkpointAfterWrites } from "./checkpointer.ts";
import { entities } from "../../core/entities.ts";
import { migrations } from "../../migrations/index.ts";
import { BunSqliteForTypeORM } from "./bun-sqlite-driver.ts";
import { databaseFile, databaseTarget } from "./dialect.ts";

export { databaseFile, databaseTarget, isPostgres, type DatabaseTarget } from "./dialect.ts";

/** Advisory-lock key held while migrating PostgreSQL. */
const MIGRATION_LOCK = 1795017001;

/**
 * PostgreSQL connections of one process (docs/decisions.md "PostgreSQL", concurrent writes): reads
 * (requests, sessions, the change feed) and writes have a pool each, and as many writes run at once
 * as the write pool holds, so a write never waits for a connection behind reads.
 */
export const PG_READ_POOL = 10;
export const PG_WRITE_POOL = 5;

/**
 * Every session of the write pool starts SERIALIZABLE and marked as journaled (the app's write
 * wrapper stores what the transaction changed; migration 1795000012000's trigger then leaves the
 * row to it), so a write spends one statement on `START TRANSACTION` instead of three.
 */
const PG_WRITE_SESSION = { default_transaction_isolation: "serializable", "pt.journal": "1" };

/** A TypeORM data source over the SQLite file, with every migration (not initialised). */
export function sqliteDataSource(file: string, readonly = false): DataSource {
  return new DataSource({
    type: "better-sqlite3",
    driver: BunSqliteForTypeORM,
    database: file,
    readonly,
    enableWAL: !readonly,
    entities,
    migrations,
    synchronize: false,
    logging: false,
  });
}

/**
 * Runs pending SQLite migrations. Processes started together on one file race for them: the
 * loser's migration fails (its transaction rolls back: SQLite DDL is transactional) and it looks
 * again, finding the winner's work recorded (docs/deploy.md). PostgreSQL takes an advisory lock.
 */
export async function migrate(writer: DataSource, attempts = 5): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await writer.runMigrations({ transaction: "each" });
      return;
    } catch (error) {
      if (attempt >= attempts || !(await writer.showMigrations())) {
        if (await writer.showMigrations()) throw error;
        return;
      }
      await new Promise((r) => setTimeout(r, 100 * attempt));
    }
  }
}

/**
 * Opens the database (PostgreSQL when DATABASE_URL is set, else SQLite under dataDir), runs
 * pending migrations, and returns both connections (on PostgreSQL a pool for reads and one for writes).
 */
export async function openDatabase(
  dataDir: string,
  env: Record<string, string | undefined> = process.env,
  options: { checkpointIntervalMs?: number } = {},
): Promise<Database> {
  mkdirSync(dataDir, { recursive: true });
  const target = databaseTarget(dataDir, env);
  if (target.kind === "postgres") {
    // Loaded only here: a SQLite server never loads the PostgreSQL client (`pg`).
    const { postgresDataSource } = await import("./postgres-data-source.ts");
    const reader = postgresDataSource(target.url, PG_READ_POOL);
    await reader.initialize();
    // Several processes may start at once on one database: one migrates, the others wait for it.
    // Migrations run on plain sessions: a row they change in another process's cache is marked by the trigger.
    const lock = reader.createQueryRunner();
    await lock.connect();
    try {
      await lock.query(`SELECT pg_advisory_lock(${MIGRATION_LOCK})`);
      await reader.runMigrations({ transaction: "each" });
    } finally {
      await lock.query(`SELECT pg_advisory_unlock(${MIGRATION_LOCK})`).catch(() => undefined);
      await lock.release();
    }
    const writer = postgresDataSource(target.url, PG_WRITE_POOL, PG_WRITE_SESSION);
    await writer.initialize();
    await expectWriteSessions(writer);
    return journaling(new Database(writer, reader, { concurrentWrites: PG_WRITE_POOL }));
  }
  const file = databaseFile(dataDir);
  const writer = sqliteDataSource(file);
  await writer.initialize();
  await migrate(writer);
  const reader = sqliteDataSource(file, true);
  await reader.initialize();
  const db = journaling(new Database(writer, reader));
  await checkpointAfterWrites(db, file, options.checkpointIntervalMs);
  return db;
}

/**
 * Writes are only as safe as their isolation: refuse to start when the server did not apply the
 * write pool's session settings (a connection pooler that drops startup options, say).
 */
async function expectWriteSessions(writer: DataSource): Promise<void> {
  const [row] = (await writer.query(`SELECT current_setting('transaction_isolation') AS "isolation", current_setting('pt.journal', true) AS "journal"`)) as { isolation: string; journal: string | null }[];
  if (row?.isolation !== "serializable" || row.journal !== "1") {
    throw new Error(`PostgreSQL write sessions must start SERIALIZABLE and journaled; got isolation ${row?.isolation}, journal ${row?.journal}`);
  }
}

/** Every write through the app stores what it declared it changed (docs/decisions.md "Declared changes"). */
function journaling(db: Database): Database {
  db.journalChanges(changeJournal(db));
  return db;
}
