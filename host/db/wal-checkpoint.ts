import { threadId } from "node:worker_threads";
import { closeThreadConnection, threadConnection } from "./read-snapshot.ts";

/** `PRAGMA wal_checkpoint`'s answer: whether it was blocked, the log's frames, and those copied into the file. */
export interface WalCheckpointResult {
  busy: number;
  log: number;
  checkpointed: number;
  /** The thread it ran on (0: the request thread). */
  threadId: number;
}

/**
 * A passive checkpoint of `file`'s write-ahead log on this thread, through its read-write
 * connection (the report reader is read-only): it copies the log frames that no open reader still
 * needs and gives up, without waiting (a passive checkpoint never calls the busy handler), on what
 * it cannot copy yet (the next one copies the rest). It never blocks the writer or a reader
 * (host/db/checkpointer.ts).
 */
export function walCheckpoint(file: string): WalCheckpointResult {
  const db = threadConnection(file, "readwrite");
  const row = db.query("PRAGMA wal_checkpoint(PASSIVE)").get() as { busy: number; log: number; checkpointed: number };
  return { busy: row.busy, log: row.log, checkpointed: row.checkpointed, threadId };
}

/** Closes this thread's checkpoint connection to `file`, if it has one. */
export function closeWalCheckpoint(file: string): void {
  closeThreadConnection(file, "readwrite");
}

/** The pool's task (host/api/tasks.ts): a checkpoint on the pool thread. */
export function walCheckpointTask(input: { file: string }): WalCheckpointResult {
  return walCheckpoint(input.file);
}
