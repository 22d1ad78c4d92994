import { DataSource } from "typeorm";
import { entities } from "../../core/entities.ts";
import { migrations } from "../../migrations/index.ts";
import { pgConfig } from "./postgres.ts";
import { postgresMigrations } from "./postgres-ddl.ts";

/**
 * TypeORM's postgres driver on `url`; TypeORM's `datetime` columns are `timestamptz` there.
 * `settings`: session settings of every connection of the pool (see `pgConfig`).
 */
export function postgresDataSource(url: string, poolSize = 10, settings: Record<string, string> = {}): DataSource {
  const { connectionString: _ignored, ...extra } = pgConfig(url, settings);
  const ds = new DataSource({
    type: "postgres",
    url,
    extra: { ...extra, max: poolSize },
    entities,
    migrations: postgresMigrations(migrations),
    synchronize: false,
    logging: false,
  });
  // Entities declare `datetime` (SQLite's spelling); the postgres driver already reads and writes it
  // as a timestamp and only its metadata validator does not list it.
  (ds.driver as unknown as { supportedDataTypes: string[] }).supportedDataTypes.push("datetime");
  return ds;
}
