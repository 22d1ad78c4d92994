import os from "node:os";
import Tinypool from "tinypool";

let pool: Tinypool | undefined;
let reportPool: Tinypool | undefined;

/**
 * Portfolio reports run on one thread of their own (on two cores or fewer the general pool's one
 * thread: `reportsShareGeneralThread`), kept 10 minutes after the last report: the
 * thread keeps each scope's replay checkpoints for the incremental path (docs/decisions.md,
 * "Incremental report"), which only helps when the next report lands on the same thread, and one thread
 * holds one copy of them (memory). Reports of several users queue there.
 */
const REPORT_THREAD_IDLE_MS = 10 * 60_000;

/**
 * Idle threads wait in their event loop, not in `Atomics.wait` (tinypool's default): a thread
 * blocked there runs no timers until its next task, so the collection a task schedules once its
 * answer is posted (host/workers/calc.worker.ts) ran at the start of the next report
 * instead, and an idle thread never gave its garbage back. Dense 20k: RSS a second after a cold
 * report 326 → 286 MB, peak of a report phase 405 → 351 MB (docs/decisions.md, "Memory, second pass").
 * Handing a task over through the port costs well under a millisecond.
 */
const IDLE_IN_EVENT_LOOP = { useAtomics: false } as const;

function reportWorkerPool(): Tinypool {
  reportPool ??= new Tinypool({
    filename: new URL("./calc.worker.ts", import.meta.url).href,
    minThreads: 0,
    maxThreads: 1,
    idleTimeout: REPORT_THREAD_IDLE_MS,
    ...IDLE_IN_EVENT_LOOP,
  });
  return reportPool;
}

/**
 * The general pool: one thread per core but one, at least one. The report thread (above), when it
 * is a thread of its own, takes the remaining core; the request thread stays free for HTTP. On 2
 * cores a second general thread bought no speed (the 5-analytic risk query: 451 ms cold, 748 ms
 * first after start on two threads; 433 / 681 ms on one) and cost a warm JavaScript heap of ~45 MB
 * (docs/decisions.md, "Memory: where the server's RSS goes").
 */
export function poolSize(): number {
  return Math.max(1, (os.availableParallelism?.() ?? os.cpus().length) - 1);
}

/**
 * On two cores or fewer (a general pool of one thread) reports run on that thread too instead of
 * one of their own: the two would share one core anyway, and a second warmed JavaScript heap
 * costs ~30–45 MB (dense 20k, a report phase after start: peak RSS 341 → 309 MB, idle 211 → 179 MB;
 * docs/decisions.md, "Memory, second pass"). The thread is then kept as long as a report thread (the
 * incremental path's scopes live there), and a report may wait behind a risk query or an import's
 * parse. With three cores or more reports keep a thread of their own.
 */
export function reportsShareGeneralThread(): boolean {
  return poolSize() === 1;
}

/**
 * General pool threads are kept 5 minutes after their last task: a fresh thread runs the risk
 * loader and analytics unoptimised (JIT) and the first query on it took 1.2–1.8 s against 0.5–0.7 s
 * on a warm one; 5 minutes covers a working session at about 40 MB per idle thread, after which
 * the memory is returned (docs/decisions.md, risk).
 */
const GENERAL_THREAD_IDLE_MS = 5 * 60_000;

function workerPool(): Tinypool {
  pool ??= new Tinypool({
    filename: new URL("./calc.worker.ts", import.meta.url).href,
    minThreads: 0,
    maxThreads: poolSize(),
    idleTimeout: reportsShareGeneralThread() ? REPORT_THREAD_IDLE_MS : GENERAL_THREAD_IDLE_MS,
    ...IDLE_IN_EVENT_LOOP,
  });
  return pool;
}

/**
 * Runs a task of the worker file's task map (host/api/tasks.ts) off the request thread; `reportThread`
 * sends it to the report thread. Typed callers use `runCalculation` (host/api/run-calculation.ts).
 * `transfer`: buffers of `input` moved to the worker instead of copied (posting a 5 MB body as a copy
 * held the request thread 5–12 ms); the caller must not use them afterwards (they are detached).
 */
export async function runTask(
  name: string,
  input: unknown,
  options: { reportThread?: boolean; signal?: AbortSignal; transfer?: ArrayBuffer[] } = {},
): Promise<{ result: unknown; threadId: number }> {
  const pool = options.reportThread && !reportsShareGeneralThread() ? reportWorkerPool() : workerPool();
  return pool.run({ name, input }, { signal: options.signal, ...(options.transfer?.length ? { transferList: { transfer: options.transfer } } : {}) });
}

const beforeShutdown: (() => void)[] = [];

/** Registers a callback run when the pool shuts down, before it stops (the tool executor closes its doors). */
export function onWorkerPoolShutdown(callback: () => void): void {
  beforeShutdown.push(callback);
}

export async function shutdownWorkerPool(): Promise<void> {
  for (const callback of beforeShutdown.splice(0)) callback();
  const p = pool;
  const r = reportPool;
  pool = undefined;
  reportPool = undefined;
  await Promise.all([p?.destroy(), r?.destroy()]);
}

/** Threads of the general pool alive now (0 before its first task and after its idle timeout). */
export function generalThreadsAlive(): number {
  return pool?.threads.length ?? 0;
}

/** Tasks waiting for a free thread (0 before the pool starts): the risk routes refuse work beyond a limit. */
export function poolQueueSize(): number {
  return pool?.queueSize ?? 0;
}
