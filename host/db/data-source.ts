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

/** Opens the database under dataDir, runs pending migrations, and returns both connections. */
export async function openDatabase(dataDir: string): Promise<Database> {
  mkdirSync(dataDir, { recursive: true });
  const file = databaseFile(dataDir);
  const writer = dataSource(file, false);
  await writer.initialize();
  await writer.runMigrations({ transaction: "each" });
  const reader = dataSource(file, true);
  await reader.initialize();
  return new Database(writer, reader);
}
