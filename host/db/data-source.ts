import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { DataSource } from "typeorm";
import { Database } from "../../core/db/database.ts";
import { entities } from "../../core/entities.ts";
import { migrations } from "../../migrations/index.ts";
import { BunSqliteForTypeORM } from "./bun-sqlite-driver.ts";

export function databaseFile(dataDir: string): string {
  return join(dataDir, "portfolio.sqlite");
}

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
 * Runs pending migrations. Processes started together on one database race for them: the loser's
 * migration fails (its transaction rolls back: DDL is transactional on SQLite and PostgreSQL) and
 * it looks again, finding the winner's work recorded (docs/deploy.md).
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

/** Opens the database under dataDir, runs pending migrations, and returns both connections. */
export async function openDatabase(dataDir: string): Promise<Database> {
  mkdirSync(dataDir, { recursive: true });
  const file = databaseFile(dataDir);
  const writer = dataSource(file, false);
  await writer.initialize();
  await migrate(writer);
  const reader = dataSource(file, true);
  await reader.initialize();
  return new Database(writer, reader);
}
