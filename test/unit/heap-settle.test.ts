import { describe, expect, test } from "bun:test";
import { BULK_REQUEST_BYTES, createHeapSettler } from "../../host/http/heap-settle.ts";

describe("heap settle after bulk requests", () => {
  test("one collection after a burst of bulk requests, once the server was quiet; none for small requests", async () => {
    let collections = 0;
    const settler = createHeapSettler(40, () => collections++);
    settler.afterRequest(1_000);
    settler.afterRequest(BULK_REQUEST_BYTES - 1);
    await Bun.sleep(80);
    expect(collections).toBe(0);
    settler.afterRequest(BULK_REQUEST_BYTES);
    await Bun.sleep(20);
    settler.afterRequest(5 * BULK_REQUEST_BYTES); // restarts the quiet period
    await Bun.sleep(25);
    expect(collections).toBe(0);
    await Bun.sleep(60);
    expect(collections).toBe(1);
  });
});
