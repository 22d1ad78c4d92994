import { describe, expect, test } from "bun:test";
import { BULK_REQUEST_BYTES, createHeapSettler, LARGE_WRITE_BYTES, VOLUME_BYTES } from "../../host/http/heap-settle.ts";

function counting() {
  const n = { full: 0, concurrent: 0, prompt: 0 };
  return { n, collectors: { full: () => n.full++, concurrent: () => n.concurrent++, prompt: () => n.prompt++ } };
}

describe("heap settle after bulk requests", () => {
  test("one full collection after a burst of bulk requests, once the server was idle; none for small requests", async () => {
    const { n, collectors } = counting();
    const settler = createHeapSettler(40, collectors);
    const request = (bytes: number) => { settler.beforeRequest(); settler.afterRequest(bytes); };
    request(1_000);
    request(BULK_REQUEST_BYTES - 1);
    await Bun.sleep(80);
    expect({ full: n.full, concurrent: n.concurrent }).toEqual({ full: 0, concurrent: 0 });
    request(BULK_REQUEST_BYTES);
    await Bun.sleep(20);
    request(3 * BULK_REQUEST_BYTES); // restarts the quiet period
    await Bun.sleep(25);
    expect(n.full).toBe(0);
    await Bun.sleep(60);
    expect({ full: n.full, concurrent: n.concurrent }).toEqual({ full: 1, concurrent: 0 });
  });

  test("never holds the thread while a request is in flight or one started within the quiet period", async () => {
    const { n, collectors } = counting();
    const settler = createHeapSettler(30, collectors);
    settler.beforeRequest();
    settler.afterRequest(BULK_REQUEST_BYTES);
    settler.beforeRequest(); // a report still being computed
    await Bun.sleep(100);
    expect(n.full).toBe(0);
    settler.afterRequest(0);
    // Small requests every 10 ms (a poller): the thread is never idle for 30 ms.
    for (let i = 0; i < 10; i++) { settler.beforeRequest(); settler.afterRequest(0); await Bun.sleep(10); }
    expect(n.full).toBe(0);
    await Bun.sleep(120);
    expect({ full: n.full, concurrent: n.concurrent }).toEqual({ full: 1, concurrent: 0 });
  });

  test("a server never idle gets a concurrent collection after 30 quiet periods", async () => {
    const { n, collectors } = counting();
    let t = 0;
    const settler = createHeapSettler(2, collectors, () => t);
    settler.beforeRequest();
    settler.afterRequest(BULK_REQUEST_BYTES);
    settler.beforeRequest(); // in flight for good
    await Bun.sleep(600);
    expect({ full: n.full, concurrent: n.concurrent }).toEqual({ full: 0, concurrent: 1 });
  });

  test("large responses count as bulk, and every 16 MB of bulk bodies asks for a concurrent collection at once", async () => {
    const { n, collectors } = counting();
    const settler = createHeapSettler(10_000, collectors);
    const request = (body: number, response: number) => { settler.beforeRequest(); settler.afterRequest(body, response); };
    for (let i = 0; i < 100; i++) request(100, BULK_REQUEST_BYTES - 1); // small responses never add up
    expect(n.concurrent).toBe(0);
    const report = 4 * 1024 * 1024;
    for (let i = 0; i < VOLUME_BYTES / report - 1; i++) request(200, report);
    expect(n.concurrent).toBe(0);
    request(200, report);
    expect({ full: n.full, concurrent: n.concurrent }).toEqual({ full: 0, concurrent: 1 });
    request(report, 0);
    expect(n.concurrent).toBe(1);
  });

  test("a large write is collected 100 ms after its response, even with a report in flight; large writes at once share one", async () => {
    const { n, collectors } = counting();
    const settler = createHeapSettler(10_000, collectors);
    settler.beforeRequest(); // a report being computed
    settler.beforeRequest();
    settler.afterRequest(LARGE_WRITE_BYTES - 1);
    await Bun.sleep(150);
    expect(n.prompt).toBe(0);
    for (let i = 0; i < 3; i++) { settler.beforeRequest(); settler.afterRequest(LARGE_WRITE_BYTES); }
    expect(n.prompt).toBe(0); // not while the response is still being handed over
    await Bun.sleep(150);
    expect(n).toEqual({ full: 0, concurrent: 0, prompt: 1 });
    settler.beforeRequest();
    settler.afterRequest(0, 4 * LARGE_WRITE_BYTES); // a large response is not a write
    await Bun.sleep(150);
    expect(n.prompt).toBe(1);
  });

  test("a large file upload gets a concurrent collection, not the full one that would hold the parse starting right after it", async () => {
    const { n, collectors } = counting();
    const settler = createHeapSettler(10_000, collectors);
    settler.beforeRequest();
    settler.afterRequest(20 * LARGE_WRITE_BYTES, 300, true); // a 5 MB broker report, multipart
    expect(n.concurrent).toBe(0); // not while the response is still being handed over
    await Bun.sleep(150);
    expect(n).toEqual({ full: 0, concurrent: 1, prompt: 0 });
    settler.beforeRequest();
    settler.afterRequest(LARGE_WRITE_BYTES); // a JSON write still gets the full one
    await Bun.sleep(150);
    expect(n).toEqual({ full: 0, concurrent: 1, prompt: 1 });
  });
});
