/**
 * A collection on the request thread once the server has been idle for a while after a bulk
 * request (a batch commit, a price import, an upload, a restore). Such requests leave tens of MB of
 * parsed rows and SQL behind that JavaScriptCore, sizing its heap from the machine's RAM, would
 * keep for a long time (docs/decisions.md, "Memory, second pass").
 *
 * After seeding 20,000 transactions and 130,000 prices through the API, a synchronous full
 * collection (`Bun.gc(true)`) took the process from 323 to 240 MB; a concurrent one
 * (`Bun.gc(false)`) reclaimed far less. The synchronous one holds the loop ~30–60 ms, so it runs
 * only when the thread is idle: no request in flight and none started for `quietMs`. While
 * requests keep coming (a poller, a report being computed) it waits for the next idle moment, and
 * after `MAX_WAITS` quiet periods without one it asks for a concurrent collection instead.
 *
 * Large responses count too (a report's gzip body, a backup, a file): their bytes are outside the
 * JavaScript heap and do not hasten a collection, so the request thread of a server answering
 * report after report without a pause grew by tens of MB of dead buffers (dense 20k bench, commits,
 * prices and reports back to back: +30–45 MB). Every `VOLUME_BYTES` of bulk request and response
 * bodies a concurrent collection is asked for at once (it returns in well under a millisecond).
 */
export const BULK_REQUEST_BYTES = 256 * 1024;
/**
 * A JSON request body at least this large (a batch commit of ~2,000 rows or more: 5,000 dense rows
 * are ~580 kB; a price upload) gets a full collection 100 ms after its response has left, whatever
 * else is in flight: waiting for an idle second never happened when the user opened a report
 * right after an import (the report keeps a request in flight for seconds), so the seed's garbage
 * stayed through the report's own peak. A file upload (multipart) this large, or a JSON body read
 * in a worker (a duplicates check), gets a concurrent collection instead: its garbage is a few large
 * byte buffers, not rows of objects, and the full one would hold the request thread 50–80 ms just
 * as the parse that follows an upload starts (12–49 ms after each 5 MB duplicates check)
 * (docs/decisions.md, "A large write is collected 100 ms after its response").
 */
export const LARGE_WRITE_BYTES = 256 * 1024;
const MAX_WAITS = 30;
export const VOLUME_BYTES = 16 * 1024 * 1024;

export interface HeapSettler {
  /** Called when a request starts. */
  beforeRequest(): void;
  /**
   * Called after each request with its body's and its response body's sizes, and whether the body
   * was held as bytes only (`upload`: a file upload, multipart, or a JSON body a worker read); a bulk
   * one (either at least `BULK_REQUEST_BYTES`) (re)starts the quiet timer (unref'd: it never keeps the process up).
   */
  afterRequest(bodyBytes: number, responseBytes?: number, upload?: boolean): void;
}

export interface Collectors {
  /** Holds the thread until done (at once, or once the current task ends): only called while idle. */
  full: () => void;
  /** Returns at once. */
  concurrent: () => void;
  /** Holds the thread until done; run right after a large write, busy or not. */
  prompt: () => void;
}

/**
 * The full one is JavaScriptCore's footprint shrink (`Bun.shrink()`): a synchronous full
 * collection, the thread's compiled code dropped and its allocator's free memory handed back to
 * the system. After seeding, RSS when reports start 189–191 → 170–178 MB and the report phase's
 * peak 12–16 MB lower (dense and existing 20k) than with `Bun.gc(true)` alone, which it includes:
 * calling both held the loop 96–99 ms, the shrink alone 62–78 ms for the same memory. The request
 * handlers compile again on their next use, which the bench does not see (first report, health polls).
 */
const BUN_COLLECTORS: Collectors = {
  full: () => Bun.shrink(),
  concurrent: () => Bun.gc(false),
  prompt: () => Bun.shrink(),
};

export function createHeapSettler(quietMs = 1_000, collect: Collectors = BUN_COLLECTORS, now: () => number = performance.now.bind(performance)): HeapSettler {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let inFlight = 0;
  let lastStart = -Infinity;
  let waits = 0;
  let volume = 0;
  let promptPending = false;
  let uploadPending = false;
  const prompt = () => {
    promptPending = false;
    collect.prompt();
  };
  const afterUpload = () => {
    uploadPending = false;
    collect.concurrent();
  };
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(settle, quietMs);
    timer.unref?.();
  };
  const settle = () => {
    timer = undefined;
    if (inFlight === 0 && now() - lastStart >= quietMs) {
      waits = 0;
      volume = 0;
      collect.full();
    } else if (++waits >= MAX_WAITS) {
      waits = 0;
      collect.concurrent();
    } else arm();
  };
  return {
    beforeRequest() {
      inFlight++;
      lastStart = now();
    },
    afterRequest(bodyBytes, responseBytes = 0, upload = false) {
      inFlight = Math.max(0, inFlight - 1);
      const bytes = Math.max(bodyBytes, responseBytes);
      if (bytes < BULK_REQUEST_BYTES) return;
      waits = 0;
      // Once the response has been written, so the request's body, rows and response are garbage
      // by then; several large writes within 100 ms share one collection.
      if (bodyBytes >= LARGE_WRITE_BYTES && upload && !uploadPending) {
        uploadPending = true;
        setTimeout(afterUpload, 100).unref?.();
      } else if (bodyBytes >= LARGE_WRITE_BYTES && !upload && !promptPending) {
        promptPending = true;
        setTimeout(prompt, 100).unref?.();
      }
      volume += bytes;
      if (volume >= VOLUME_BYTES) {
        volume = 0;
        collect.concurrent();
      }
      arm();
    },
  };
}
