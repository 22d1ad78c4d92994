/**
 * Admission of a process's writes (docs/decisions.md "PostgreSQL", concurrent writes): up to
 * `limit` run at once in shared mode; an exclusive entry waits until none runs and keeps the others
 * out while it runs. Entries are admitted in arrival order, so a waiting exclusive entry is not
 * overtaken by later shared ones (and a shared one never waits behind more than the entries that
 * arrived before it).
 */
export class WriteGate {
  private running = 0;
  private exclusive = false;
  private readonly waiting: { exclusive: boolean; admit: () => void }[] = [];
  private idle: (() => void)[] = [];

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new Error(`write gate limit must be a positive integer, got ${limit}`);
  }

  /** Resolves once the entry may run; every entry is followed by exactly one `leave()`. */
  enter(exclusive = false): Promise<void> {
    if (this.waiting.length === 0 && this.fits(exclusive)) {
      this.take(exclusive);
      return Promise.resolve();
    }
    return new Promise((admit) => this.waiting.push({ exclusive, admit }));
  }

  leave(): void {
    if (this.running === 0) throw new Error("write gate: leave() without enter()");
    this.running--;
    this.exclusive = false;
    while (this.waiting.length > 0 && this.fits(this.waiting[0]!.exclusive)) {
      const next = this.waiting.shift()!;
      this.take(next.exclusive);
      next.admit();
    }
    if (this.running === 0 && this.waiting.length === 0) {
      for (const resolve of this.idle.splice(0)) resolve();
    }
  }

  /** Resolves when nothing runs or waits (closing the database). */
  drained(): Promise<void> {
    if (this.running === 0 && this.waiting.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  private fits(exclusive: boolean): boolean {
    return exclusive ? this.running === 0 : !this.exclusive && this.running < this.limit;
  }

  private take(exclusive: boolean): void {
    this.running++;
    this.exclusive = exclusive;
  }
}
