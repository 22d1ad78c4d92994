import { mkdirSync } from "node:fs";
import { DataSource } from "typeorm";
import { Database } from "../../core/db/database.ts";
import { changeJournal } from "./change-journal.ts";
import { checkpointInBackground } from "./checkpointer.ts";
import { entities } from "../../core/entities.ts";
import { migrations } from "../../migrations/index.ts";
import { BunSqliteForTypeORM } from "./bun-sqlite-driver.ts";
import { databaseFile, databaseTarget } from "./dialect.ts";
import { postgresDataSource } from "./postgres-data-source.ts";

export { databaseFile, databaseTarget, isPostgres, type DatabaseTarget } from "./dialect.ts";

/** Advisory-lock key held while migrating PostgreSQL. */
const MIGRATION_LOCK = 1795017001;

function dataSource(file: string, readonly: boolean): DataSource {
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
 * pending migrations, and returns both connections (on PostgreSQL one pool serves both).
 */
export async function openDatabase(
  dataDir: string,
  env: Record<string, string | undefined> = process.env,
  options: { checkpointIntervalMs?: number } = {},
): Promise<Database> {
  mkdirSync(dataDir, { recursive: true });
  const target = databaseTarget(dataDir, env);
  if (target.kind === "postgres") {
    const pool = postgresDataSource(target.url);
    await pool.initialize();
    // Several processes may start at once on one database: one migrates, the others wait for it.
    const lock = pool.createQueryRunner();
    await lock.connect();
    try {
      await lock.query(`SELECT pg_advisory_lock(${MIGRATION_LOCK})`);
      await pool.runMigrations({ transaction: "each" });
    } finally {
      await lock.query(`SELECT pg_advisory_unlock(${MIGRATION_LOCK})`).catch(() => undefined);
      await lock.release();
    }
    return journaling(new Database(pool, pool));
  }
  const file = databaseFile(dataDir);
  const writer = dataSource(file, false);
  await writer.initialize();
  await migrate(writer);
  const reader = dataSource(file, true);
  await reader.initialize();
  const db = journaling(new Database(writer, reader));
  await checkpointInBackground(db, file, options.checkpointIntervalMs);
  return db;
}

/** Every write through the app stores what it declared it changed (docs/decisions.md "Declared changes"). */
function journaling(db: Database): Database {
  db.journalChanges(changeJournal(db));
  return db;
}
