import { Database } from "bun:sqlite";
import { parentPort, workerData } from "node:worker_threads";

/**
 * The checkpoint thread of host/db/checkpointer.ts: a connection of its own to the database file
 * that runs `PRAGMA wal_checkpoint(PASSIVE)` on a timer. A passive checkpoint copies the log frames
 * that no open reader still needs and gives up, without waiting, on what it cannot copy yet; the
 * next tick copies the rest.
 */
const { file, intervalMs } = workerData as { file: string; intervalMs: number };
const db = new Database(file, { readwrite: true });

function checkpoint(): void {
  try {
    db.query("PRAGMA wal_checkpoint(PASSIVE)").get();
  } catch {
    // A busy or closing database: the next tick tries again.
  }
}

const timer = setInterval(checkpoint, intervalMs);
parentPort!.on("message", (message) => {
  if (message !== "stop") return;
  clearInterval(timer);
  db.close();
  parentPort!.close();
});
