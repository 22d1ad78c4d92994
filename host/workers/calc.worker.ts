import { heapSize } from "bun:jsc";
import { threadId } from "node:worker_threads";
import { CALCULATIONS } from "../api/tasks.ts";

export interface CalculationTask {
  input: unknown;
  name: string;
}

let collection: ReturnType<typeof setTimeout> | undefined;
let heapAfterCollection = 0;
let taskStarted = 0;
/** Idle time after a short task before its garbage is collected (a task arriving sooner cancels it). */
const COLLECT_AFTER_MS = 25;
/** A task running this long gets its collection right after its answer, idle or not. */
const PROMPT_AFTER_TASK_MS = 20;
/** Heap growth since the last collection past which it runs right after the answer, idle or not. */
const PROMPT_COLLECTION_BYTES = 16 * 1024 * 1024;

/**
 * Collects a task's garbage once its answer is posted: without it the thread's heap grew by a
 * task's worth of garbage per task before JSC collected (three incremental reports after a commit
 * and three after a price, back to back, took the dense-20k process from 317 to 360 MB; a
 * 50,000-row import parse left its rows behind). A task that ran 20 ms or more (any report,
 * incremental ones too: their garbage is collected young during the task, so the heap size after
 * it hardly grows, but the memory stays with the thread until a full collection) or grew the heap
 * by 16 MB gets its collection at once (~15–25 ms of this thread, which a task arriving meanwhile
 * waits for); a shorter one when the thread stayed idle 25 ms, so a batch of small tool items is
 * not slowed (docs/decisions.md, "Memory, third pass"). Threads idle in their event loop for this
 * (host/workers/pool.ts).
 */
function collectAfterTask(): void {
  clearTimeout(collection);
  collection = undefined;
  const prompt = performance.now() - taskStarted >= PROMPT_AFTER_TASK_MS || heapSize() - heapAfterCollection >= PROMPT_COLLECTION_BYTES;
  // A prompt collection is not kept in `collection`: the next task does not cancel it.
  if (prompt) setTimeout(collect, 0);
  else collection = setTimeout(collect, COLLECT_AFTER_MS);
}

function collect(): void {
  Bun.gc(true);
  heapAfterCollection = heapSize();
}

/** Runs one calculation; an async one (an import plugin's parse) answers once it settles. */
export default function run(task: CalculationTask): { result: unknown; threadId: number } | Promise<{ result: unknown; threadId: number }> {
  clearTimeout(collection);
  taskStarted = performance.now();
  const calc = (CALCULATIONS as Record<string, (input: any) => unknown>)[task.name];
  if (!calc) throw new Error(`Unknown calculation '${task.name}'`);
  let result: unknown;
  try {
    result = calc(task.input);
  } finally {
    if (!(result instanceof Promise)) collectAfterTask();
  }
  return result instanceof Promise ? result.then((value) => ({ result: value, threadId })).finally(collectAfterTask) : { result, threadId };
}
