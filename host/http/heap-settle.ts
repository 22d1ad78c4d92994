/**
 * A collection on the request thread once the server has been quiet for a while after a bulk
 * request (a batch commit, a price import, an upload, a restore). Such requests leave tens of MB of
 * parsed rows and SQL behind that JavaScriptCore, sizing its heap from the machine's RAM, would
 * keep for a long time: after seeding 20,000 transactions and 130,000 prices through the API the
 * process went 352 → 308 MB a second later (docs/decisions.md, issue 18 memory). `Bun.gc(false)`
 * asks for a concurrent collection (the call takes < 1 ms); a synchronous one reclaimed ~30 MB
 * more but held the loop 30–60 ms, which showed as /system/health spikes right after an import.
 */
export const BULK_REQUEST_BYTES = 256 * 1024;

export interface HeapSettler {
  /** Called after each request; a bulk one (re)starts the quiet timer (unref'd: it never keeps the process up). */
  afterRequest(bodyBytes: number): void;
}

export function createHeapSettler(quietMs = 1_000, collect: () => void = () => Bun.gc(false)): HeapSettler {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return {
    afterRequest(bodyBytes) {
      if (bodyBytes < BULK_REQUEST_BYTES) return;
      clearTimeout(timer);
      timer = setTimeout(() => {
        timer = undefined;
        collect();
      }, quietMs);
      timer.unref?.();
    },
  };
}
