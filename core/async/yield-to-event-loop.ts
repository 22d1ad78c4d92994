/**
 * Lets the event loop run (I/O, timers, other requests) before continuing. bun:sqlite answers
 * synchronously, so a long run of statements awaited one after another never gives the loop a
 * turn on its own: the backup streams and the ledger's bulk inserts call this between chunks.
 */
export const yieldToEventLoop = (): Promise<void> => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The slice of the loops over every row of a large import on the request thread (checks, the
 * answer's mapping): short enough that a request arriving meanwhile (`/system/health`) is answered
 * within 20 ms on a busy machine (docs/decisions.md, "A large commit gives other requests a turn").
 * A collection of the young generation (2–7 ms with an import's rows in the heap) can land inside
 * any slice and lengthen it, so the slice leaves it room: 5 ms slices made stretches of 8–20 ms.
 */
export const IMPORT_SLICE_MS = 2;

/**
 * A yield for long loops that costs nothing while the loop is quick: the returned function lets
 * the event loop run only once `sliceMs` of work passed since the last turn, so a bulk write of
 * 200,000 prices holds the request thread at most about that long at a time.
 */
export function eventLoopBreather(sliceMs = 10): () => Promise<void> {
  let last = performance.now();
  return async () => {
    if (performance.now() - last < sliceMs) return;
    await yieldToEventLoop();
    last = performance.now();
  };
}
