import { describe, expect, test } from "bun:test";
import { ConcurrencyLimiter, withTimeout } from "../../../core/prices/concurrency.ts";

describe("at most N provider calls in flight", () => {
  test("never more than the limit run at once, and every task runs once, in arrival order", async () => {
    const limiter = new ConcurrencyLimiter(5);
    let running = 0;
    let peak = 0;
    const started: number[] = [];
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => limiter.run(async () => {
      started.push(i);
      peak = Math.max(peak, ++running);
      await Bun.sleep(1);
      running--;
      return i * 2;
    })));
    expect(peak).toBe(5);
    expect(started).toEqual(Array.from({ length: 40 }, (_, i) => i));
    expect(results).toEqual(Array.from({ length: 40 }, (_, i) => i * 2));
    expect(limiter.inFlight).toBe(0);
  });

  test("a failing task frees its slot", async () => {
    const limiter = new ConcurrencyLimiter(1);
    await expect(limiter.run(async () => { throw new Error("boom"); })).rejects.toThrow("boom");
    expect(await limiter.run(async () => "next")).toBe("next");
  });

  test("the limit must be a positive integer", () => {
    expect(() => new ConcurrencyLimiter(0)).toThrow(RangeError);
  });
});

describe("each provider call has a time limit", () => {
  test("a call that ignores its signal still ends at the limit, and its signal is aborted", async () => {
    let seen: AbortSignal | undefined;
    const never = (signal: AbortSignal) => { seen = signal; return new Promise<never>(() => {}); };
    await expect(withTimeout(20, never)).rejects.toMatchObject({ name: "TimeoutError" });
    expect(seen!.aborted).toBe(true);
  });

  test("a call answering in time gives its answer", async () => {
    expect(await withTimeout(1_000, async () => "quote")).toBe("quote");
  });
});
