import "reflect-metadata";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync, statSync } from "node:fs";
import type { Database } from "../../../core/db/database.ts";
import { databaseFile, openDatabase } from "../../../host/db/data-source.ts";
import { tempDataDir } from "../../helpers/server.ts";

/**
 * SQLite's automatic checkpoint runs at the end of the commit that takes the log past 1,000 pages,
 * on the committing thread: the server's request thread. The writer connection must leave it to
 * the background thread (host/db/checkpointer.ts).
 */
let dir: string;
let db: Database;
const fileSize = () => statSync(databaseFile(dir)).size;
// ~8 MB in one transaction: 2,000 pages of 4 KiB, twice SQLite's automatic checkpoint threshold.
const largeCommit = (on: Database) => on.write(async (tx) => {
  for (let i = 0; i < 2000; i++) await tx.query("INSERT INTO checkpoint_probe (payload) VALUES (randomblob(4000))");
});

beforeAll(async () => {
  dir = tempDataDir("pt-checkpoint-");
  // The background thread waits an hour here, so nothing but the commit could grow the file.
  db = await openDatabase(dir, process.env, { checkpointIntervalMs: 3_600_000 });
  await db.write((tx) => tx.query("CREATE TABLE checkpoint_probe (id INTEGER PRIMARY KEY, payload BLOB)"));
});
afterAll(async () => { await db.close(); rmSync(dir, { recursive: true, force: true }); });

describe("checkpoints off the request thread", () => {
  test("the writer connection never checkpoints at a commit", async () => {
    const [row] = await db.writer.query("PRAGMA wal_autocheckpoint");
    expect(Object.values(row as object)[0]).toBe(0);
  });

  test("a commit that takes the log past 1,000 pages leaves the database file as it was", async () => {
    const before = fileSize();
    await largeCommit(db);
    expect(fileSize()).toBe(before);
  });

  test("the background thread copies the log into the database file, and closing stops it", async () => {
    await db.close();
    db = await openDatabase(dir, process.env, { checkpointIntervalMs: 50 });
    const before = fileSize();
    await largeCommit(db);
    const deadline = Date.now() + 30_000;
    while (fileSize() < before + 7_000_000 && Date.now() < deadline) await Bun.sleep(50);
    expect(fileSize()).toBeGreaterThan(before + 7_000_000);
    const [{ n }] = await db.reader.query("SELECT count(*) AS n FROM checkpoint_probe");
    expect(Number(n)).toBe(4000);
  });
});
