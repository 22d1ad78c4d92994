import { heapSize } from "bun:jsc";
import { threadId } from "node:worker_threads";
import { CALCULATION_LOADERS, type CalculationName, HOUSEKEEPING_TASKS } from "../api/tasks.ts";
import { workerMessage } from "./hand-over.ts";

export interface CalculationTask {
  input: unknown;
  name: string;
}

let collection: ReturnType<typeof setTimeout> | undefined;
let heapAfterCollection = 0;
let taskStarted = 0;
/** Idle time after a short task before its garbage is collected (a task arriving sooner cancels it). */
const COLLECT_AFTER_MS = 25;
/** A task running this long gets a concurrent collection right after its answer and a full one once idle. */
const PROMPT_AFTER_TASK_MS = 20;
/** Idle time after a long task (a report) whose heap hardly grew before its full collection. */
const COLLECT_AFTER_LONG_MS = 500;
/** Heap growth since the last collection past which it runs right after the answer, idle or not. */
const PROMPT_COLLECTION_BYTES = 16 * 1024 * 1024;

/**
 * Collects a task's garbage once its answer is posted: without it the thread's heap grew by a
 * task's worth of garbage per task before JSC collected (three incremental reports after a commit
 * and three after a price, back to back, took the dense-20k process from 317 to 360 MB; a
 * 50,000-row import parse left its rows behind). A task that grew the heap by 16 MB gets a full
 * collection at once (which a task arriving meanwhile waits for); one that ran 20 ms or more (any
 * report, incremental ones too: their garbage is collected young during the task, so the heap size
 * after it hardly grows, but the memory stays with the thread until a full collection) a
 * concurrent one at once and a full one when the thread stayed idle 500 ms; a shorter one a full
 * one when the thread stayed idle 25 ms, so a batch of small tool items is not slowed
 * (docs/decisions.md, "Memory, third pass", and {@link collectionPlan}). Threads idle in their event loop for this
 * (host/workers/pool.ts).
 */
/**
 * How a task's garbage is collected: `prompt` (a full collection right after the answer), or a
 * full one once the thread stayed idle `idleMs`, after a `concurrent` one at once for a long task.
 * A resumed report after a write makes little garbage but ran 40–100 ms; a full collection right
 * after it (80–95 ms of this thread with two kept replays of the dense 20k ledger) was what the
 * next report, a commit later, waited for: after one commit 101–139 → 59–127 ms, after one price
 * 104–153 → 55–108 ms over HTTP, peak RSS unchanged (323 → 319–324 MB; docs/decisions.md).
 */
export function collectionPlan(taskMs: number, heapGrowth: number): { prompt: true } | { prompt: false; concurrent: boolean; idleMs: number } {
  if (heapGrowth >= PROMPT_COLLECTION_BYTES) return { prompt: true };
  if (taskMs >= PROMPT_AFTER_TASK_MS) return { prompt: false, concurrent: true, idleMs: COLLECT_AFTER_LONG_MS };
  return { prompt: false, concurrent: false, idleMs: COLLECT_AFTER_MS };
}

function collectAfterTask(): void {
  clearTimeout(collection);
  collection = undefined;
  const plan = collectionPlan(performance.now() - taskStarted, heapSize() - heapAfterCollection);
  // A prompt collection is not kept in `collection`: the next task does not cancel it.
  if (plan.prompt) return void setTimeout(collect, 0);
  if (plan.concurrent) Bun.gc(false);
  collection = setTimeout(collect, plan.idleMs);
}

function collect(): void {
  Bun.gc(true);
  heapAfterCollection = heapSize();
}

type Calculation = (input: any) => unknown;
const loaded = new Map<string, Calculation>();

async function load(name: string): Promise<void> {
  const loader = Object.hasOwn(CALCULATION_LOADERS, name) ? (CALCULATION_LOADERS as Record<string, () => Promise<Calculation>>)[name] : undefined;
  if (!loader) throw new Error(`Unknown calculation '${name}'`);
  loaded.set(name, await loader());
}

/**
 * Runs one calculation; an async one (an import plugin's parse) answers once it settles. An answer
 * marked with `handOver` goes back with its buffers moved (host/workers/hand-over.ts).
 */
export default function run(task: CalculationTask): { result: unknown; threadId: number } | Promise<{ result: unknown; threadId: number }> {
  const calc = loaded.get(task.name);
  // A task's module is loaded on the thread's first task of it (host/api/tasks.ts), then it runs as before.
  if (!calc) return load(task.name).then(() => run(task));
  // Synchronous, and outside the collection schedule (HOUSEKEEPING_TASKS).
  if (HOUSEKEEPING_TASKS.has(task.name as CalculationName)) return { result: calc(task.input), threadId };
  clearTimeout(collection);
  taskStarted = performance.now();
  let result: unknown;
  try {
    result = calc(task.input);
  } finally {
    if (!(result instanceof Promise)) collectAfterTask();
  }
  return result instanceof Promise
    ? result.then((value) => workerMessage(value, { result: value, threadId })).finally(collectAfterTask)
    : workerMessage(result, { result, threadId });
}
