import { Worker } from "node:worker_threads";
import type { Database } from "../../core/db/database.ts";

/** How often the checkpoint thread copies the write-ahead log into the database file. */
export const CHECKPOINT_INTERVAL_MS = 1000;

/**
 * SQLite in WAL mode copies the log back into the database file ("checkpoint") at the end of the
 * commit that takes the log past 1,000 pages, on the connection that commits: the server's request
 * thread. After a large import that is one synchronous stretch of ~15–30 ms in which no other
 * request is answered (docs/decisions.md "Checkpoints off the request thread"). So the writer never
 * checkpoints itself (`wal_autocheckpoint = 0`) and a thread of its own runs a passive checkpoint
 * every second: it copies what no reader still needs, never waits for a lock and never blocks the
 * writer or a reader. Durability is unchanged: a commit is durable once in the log, checkpointed
 * or not. Closing the database stops the thread, and the last connection to close checkpoints
 * what is left, as before.
 */
export async function checkpointInBackground(db: Database, file: string, intervalMs = CHECKPOINT_INTERVAL_MS): Promise<void> {
  await db.writer.query("PRAGMA wal_autocheckpoint = 0");
  const worker = new Worker(new URL("./checkpoint.worker.ts", import.meta.url), { workerData: { file, intervalMs } });
  // The thread must never keep a process alive that has nothing else to do (tests, the CLI).
  worker.unref();
  worker.on("error", () => undefined);
  db.onClose(async () => {
    const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
    worker.postMessage("stop");
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 2000))]);
    await worker.terminate();
  });
}
