import type { Database } from "../../core/db/database.ts";
import { generalThreadsAlive, runTask } from "../workers/pool.ts";
import { closeWalCheckpoint, walCheckpoint, type WalCheckpointResult } from "./wal-checkpoint.ts";

/** How long after a write the log is copied into the database file. */
export const CHECKPOINT_INTERVAL_MS = 1000;

/**
 * Where a checkpoint runs: on a thread of the worker pool when one is alive (a large import's log,
 * ~15 MB, takes ~15–30 ms to copy, which the request thread must not spend), else on this thread
 * (no pool thread is alive after its idle timeout: the writes then are a scheduled price fetch or
 * a small edit, whose log copies in well under a millisecond, and starting a pool thread for it
 * would cost far more).
 */
export async function checkpointOnPoolOrHere(file: string): Promise<WalCheckpointResult> {
  // The pool's `walCheckpoint` task (host/api/tasks.ts) runs wal-checkpoint.ts there.
  if (generalThreadsAlive() > 0) return (await runTask("walCheckpoint", { file })).result as WalCheckpointResult;
  return walCheckpoint(file);
}

/**
 * SQLite in WAL mode copies the log back into the database file ("checkpoint") at the end of the
 * commit that takes the log past 1,000 pages, on the connection that commits: the server's request
 * thread. After a large import that is one synchronous stretch of ~15–30 ms in which no other
 * request is answered (docs/decisions.md "Checkpoints off the request thread"). So the writer never
 * checkpoints itself (`wal_autocheckpoint = 0`), and a passive checkpoint runs `intervalMs` after
 * a write (one for all the writes meanwhile), and again while it could not copy the whole log (a
 * reader still needed part of it): it copies what no reader still needs, never waits for a lock
 * and never blocks the writer or a reader. Nothing runs while nothing is written. It used to be a
 * thread of its own ticking every second, whose JavaScript engine held ~7 MB of RSS for one
 * statement a second (docs/decisions.md, "Checkpoints after writes, on the pool"). Durability is
 * unchanged: a commit is durable once in the log, checkpointed or not. Closing the database stops
 * the checkpoints, and the last connection to close checkpoints what is left, as before.
 */
export async function checkpointAfterWrites(
  db: Database,
  file: string,
  intervalMs = CHECKPOINT_INTERVAL_MS,
  run: (file: string) => Promise<WalCheckpointResult> = checkpointOnPoolOrHere,
): Promise<void> {
  await db.writer.query("PRAGMA wal_autocheckpoint = 0");
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  const schedule = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    if (timer) return;
    timer = setTimeout(tick, intervalMs);
    // A pending checkpoint never keeps a process alive that has nothing else to do (tests, the CLI).
    timer.unref();
  };
  const tick = () => {
    timer = undefined;
    running = run(file).then(
      (r) => r.log > r.checkpointed,
      // A busy, closing or locked database, or a pool shutting down: the next write tries again.
      () => false,
    ).then((left) => {
      running = undefined;
      if (left || again) {
        again = false;
        schedule();
      }
    });
  };
  db.onWritten(schedule);
  // What the migrations at start wrote.
  schedule();
  db.onClose(async () => {
    stopped = true;
    clearTimeout(timer);
    await running;
    closeWalCheckpoint(file);
  });
}
