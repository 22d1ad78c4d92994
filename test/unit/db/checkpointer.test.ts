import "reflect-metadata";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync, statSync } from "node:fs";
import { threadId } from "node:worker_threads";
import type { Database } from "../../../core/db/database.ts";
import { runCalculation } from "../../../host/api/run-calculation.ts";
import { checkpointAfterWrites, checkpointOnPoolOrHere } from "../../../host/db/checkpointer.ts";
import { databaseFile, openDatabase } from "../../../host/db/data-source.ts";
import type { WalCheckpointResult } from "../../../host/db/wal-checkpoint.ts";
import { shutdownWorkerPool } from "../../../host/workers/pool.ts";
import { tempDataDir } from "../../helpers/server.ts";

/**
 * SQLite's automatic checkpoint runs at the end of the commit that takes the log past 1,000 pages,
 * on the committing thread: the server's request thread. The writer connection must leave it to
 * the checkpoints after writes, on a pool thread when one is alive (host/db/checkpointer.ts).
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
  // The checkpoint waits an hour after a write here, so nothing but the commit could grow the file.
  db = await openDatabase(dir, process.env, { checkpointIntervalMs: 3_600_000 });
  await db.write((tx) => tx.query("CREATE TABLE checkpoint_probe (id INTEGER PRIMARY KEY, payload BLOB)"));
});
afterAll(async () => {
  await db.close();
  await shutdownWorkerPool();
  rmSync(dir, { recursive: true, force: true });
});

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

  test("a checkpoint after a write copies the log into the database file, and closing stops it", async () => {
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

  test("no checkpoint runs while nothing is written; one runs after a burst of writes, and again while the log could not all be copied", async () => {
    const runs: number[] = [];
    let left = 0;
    const counting = async (file: string): Promise<WalCheckpointResult> => {
      runs.push(Date.now());
      const r = await checkpointOnPoolOrHere(file);
      // Told that frames were left (a reader still needed them), it runs again unasked.
      return left-- > 0 ? { ...r, checkpointed: r.log - 1 } : r;
    };
    const probeDir = tempDataDir("pt-checkpoint-runs-");
    const probe = await openDatabase(probeDir, process.env, { checkpointIntervalMs: 3_600_000 });
    // Waits (a loaded machine may be slow) until `n` runs came, then a while longer: no more came.
    const runsSettleAt = async (n: number) => {
      const deadline = Date.now() + 10_000;
      while (runs.length < n && Date.now() < deadline) await Bun.sleep(10);
      await Bun.sleep(200);
      expect(runs.length).toBe(n);
    };
    try {
      await checkpointAfterWrites(probe, databaseFile(probeDir), 30, counting);
      // What was written at start (the migrations) gets one.
      await runsSettleAt(1);
      // Five writes in a row: one checkpoint for all of them.
      for (let i = 0; i < 5; i++) await probe.write((tx) => tx.query("SELECT 1"));
      await runsSettleAt(2);
      left = 1;
      await probe.write((tx) => tx.query("SELECT 1"));
      await runsSettleAt(4);
    } finally {
      await probe.close();
      rmSync(probeDir, { recursive: true, force: true });
    }
  });

  test("a checkpoint runs on the request thread while no pool thread is alive, and on a pool thread once one is", async () => {
    await shutdownWorkerPool();
    const here = await checkpointOnPoolOrHere(databaseFile(dir));
    expect(here.threadId).toBe(threadId);
    expect(here.log).toBe(here.checkpointed);
    // Any task starts a pool thread.
    await runCalculation("walCheckpoint", { file: databaseFile(dir) });
    const pooled = await checkpointOnPoolOrHere(databaseFile(dir));
    expect(pooled.threadId).not.toBe(threadId);
    expect(pooled.busy).toBe(0);
  });
});
