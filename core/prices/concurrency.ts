/** Runs tasks with at most `limit` in flight at once; the rest wait in arrival order. */
export class ConcurrencyLimiter {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`limit must be a positive integer, got ${limit}`);
  }

  /** Calls `task` once a slot is free; the slot is released when its promise settles. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active++;
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }

  /** Tasks running now (for tests and diagnostics). */
  get inFlight(): number {
    return this.active;
  }
}

/** The one implementation lives in core/async/with-timeout.ts (re-exported for existing callers). */
export { withTimeout } from "../async/with-timeout.ts";
