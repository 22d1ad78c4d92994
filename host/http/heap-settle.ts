/**
 * A collection on the request thread once the server has been idle for a while after a bulk
 * request (a batch commit, a price import, an upload, a restore). Such requests leave tens of MB of
 * parsed rows and SQL behind that JavaScriptCore, sizing its heap from the machine's RAM, would
 * keep for a long time (docs/decisions.md, issue 18 memory).
 *
 * After seeding 20,000 transactions and 130,000 prices through the API, a synchronous full
 * collection (`Bun.gc(true)`) took the process from 323 to 240 MB; a concurrent one
 * (`Bun.gc(false)`) reclaimed far less. The synchronous one holds the loop ~30–60 ms, so it runs
 * only when the thread is idle: no request in flight and none started for `quietMs`. While
 * requests keep coming (a poller, a report being computed) it waits for the next idle moment, and
 * after `MAX_WAITS` quiet periods without one it asks for a concurrent collection instead.
 */
export const BULK_REQUEST_BYTES = 256 * 1024;
const MAX_WAITS = 30;

export interface HeapSettler {
  /** Called when a request starts. */
  beforeRequest(): void;
  /** Called after each request; a bulk one (re)starts the quiet timer (unref'd: it never keeps the process up). */
  afterRequest(bodyBytes: number): void;
}

export interface Collectors {
  /** Holds the thread until done: only called while idle. */
  full: () => void;
  /** Returns at once. */
  concurrent: () => void;
}

const BUN_COLLECTORS: Collectors = { full: () => Bun.gc(true), concurrent: () => Bun.gc(false) };

export function createHeapSettler(quietMs = 1_000, collect: Collectors = BUN_COLLECTORS, now: () => number = performance.now.bind(performance)): HeapSettler {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let inFlight = 0;
  let lastStart = -Infinity;
  let waits = 0;
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(settle, quietMs);
    timer.unref?.();
  };
  const settle = () => {
    timer = undefined;
    if (inFlight === 0 && now() - lastStart >= quietMs) {
      waits = 0;
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
    afterRequest(bodyBytes) {
      inFlight = Math.max(0, inFlight - 1);
      if (bodyBytes < BULK_REQUEST_BYTES) return;
      waits = 0;
      arm();
    },
  };
}
