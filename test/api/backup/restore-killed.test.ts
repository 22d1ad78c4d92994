import { afterAll, describe, expect, test } from "bun:test";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ApiClient } from "../../helpers/client.ts";
import { OFFLINE_PLUGIN_CONFIG } from "../../helpers/offline-plugins.ts";
import { startServer, tempDataDir, testDatabaseUrl } from "../../helpers/server.ts";
import { execDb } from "../../helpers/test-db.ts";
import { disableScheduler, exportJson, uploadText } from "./backup-helpers.ts";
import { buildRichPortfolio } from "./rich-portfolio.ts";

const dataDir = tempDataDir("pt-restore-killed-");
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** Every row of every table (SQLite or the data dir's PostgreSQL database), for an exact before/after comparison. */
function dump(dir: string): Record<string, unknown[]> {
  const [tables] = execDb(dir, [{
    sql: testDatabaseUrl(dir)
      ? "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name"
      : "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name",
  }]) as [{ name: string }[]];
  const rows = execDb(dir, tables.map(({ name }) => ({ sql: `SELECT * FROM "${name}"` })));
  return Object.fromEntries(tables.map(({ name }, i) => [name, rows[i]!.map((r) => JSON.stringify(r)).sort()]));
}

/**
 * With BACKUP_TEST_HOLD_STAGE set, a restore stops inside its write transaction (after assets,
 * events, prices, rates and brokers were written) and logs "backup restore held".
 */
const HOLD = { BACKUP_TEST_HOLD_STAGE: "write:transactions" };

describe("a restore killed halfway", () => {
  test("leaves the database exactly as before it started (one write transaction, never committed)", async () => {
    writeFileSync(join(dataDir, "plugins.json"), JSON.stringify(OFFLINE_PLUGIN_CONFIG));
    const server = await startServer({ dataDir, env: HOLD });
    const alice = new ApiClient(server.base);
    const bob = new ApiClient(server.base);
    const dave = new ApiClient(server.base);
    const ids = { alice: (await alice.signUp("alice")).id, bob: (await bob.signUp("bob")).id };
    await dave.signUp("dave");
    await disableScheduler(alice);
    await buildRichPortfolio(alice, bob, ids);
    const fileId = await uploadText(dave, await exportJson(alice, { include_price_history: true }));
    const before = dump(dataDir);

    const pending = dave.post("/backup/restore", { file_id: fileId }).catch(() => null);
    await server.waitForLog("backup restore held");
    await server.kill();
    expect(await pending).toBeNull();

    expect(dump(dataDir)).toEqual(before);
    // The server starts again on that database and the same restore then goes through.
    const again = await startServer({ dataDir });
    try {
      const client = new ApiClient(again.base);
      expect((await client.login("dave")).status).toBe(200);
      const res = await client.post("/backup/restore", { file_id: fileId });
      expect(res.status).toBe(200);
      expect((await res.json()).restored).toMatchObject({ brokers: 3, transactions: 18 });
    } finally {
      await again.stop();
    }
  }, 60_000);
});
