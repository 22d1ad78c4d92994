import { Database } from "bun:sqlite";
import { threadId } from "node:worker_threads";

/** `PRAGMA wal_checkpoint`'s answer: whether it was blocked, the log's frames, and those copied into the file. */
export interface WalCheckpointResult {
  busy: number;
  log: number;
  checkpointed: number;
  /** The thread it ran on (0: the request thread). */
  threadId: number;
}

/** This thread's connection to each file for checkpoints (read-write: the report reader is read-only). */
const connections = new Map<string, Database>();

/**
 * A passive checkpoint of `file`'s write-ahead log on this thread: it copies the log frames that
 * no open reader still needs and gives up, without waiting, on what it cannot copy yet (the next
 * one copies the rest). It never blocks the writer or a reader (host/db/checkpointer.ts).
 */
export function walCheckpoint(file: string): WalCheckpointResult {
  let db = connections.get(file);
  if (!db) {
    db = new Database(file, { readwrite: true });
    db.exec("PRAGMA busy_timeout = 0");
    connections.set(file, db);
  }
  const row = db.query("PRAGMA wal_checkpoint(PASSIVE)").get() as { busy: number; log: number; checkpointed: number };
  return { busy: row.busy, log: row.log, checkpointed: row.checkpointed, threadId };
}

/** Closes this thread's checkpoint connection to `file`, if it has one. */
export function closeWalCheckpoint(file: string): void {
  connections.get(file)?.close();
  connections.delete(file);
}

/** The pool's task (host/api/tasks.ts): a checkpoint on the pool thread. */
export function walCheckpointTask(input: { file: string }): WalCheckpointResult {
  return walCheckpoint(input.file);
}
