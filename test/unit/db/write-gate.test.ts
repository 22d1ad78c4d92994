import { describe, expect, test } from "bun:test";
import { WriteGate } from "../../../core/db/write-gate.ts";

/** The admission of a process's writes (core/db/write-gate.ts), in process. */
describe("write gate", () => {
  test("admits up to its limit at once and the next one when one leaves", async () => {
    const gate = new WriteGate(2);
    const admitted: number[] = [];
    const entries = [1, 2, 3].map((n) => gate.enter().then(() => admitted.push(n)));
    await Promise.all(entries.slice(0, 2));
    await Bun.sleep(0);
    expect(admitted).toEqual([1, 2]);
    gate.leave();
    await entries[2];
    expect(admitted).toEqual([1, 2, 3]);
  });

  test("an exclusive entry waits until nothing runs and keeps later shared entries out while it runs", async () => {
    const gate = new WriteGate(3);
    const order: string[] = [];
    await gate.enter();
    await gate.enter();
    const exclusive = gate.enter(true).then(() => order.push("exclusive"));
    const later = gate.enter().then(() => order.push("later shared"));
    await Bun.sleep(0);
    expect(order).toEqual([]);
    gate.leave();
    await Bun.sleep(0);
    expect(order).toEqual([]);
    gate.leave();
    await exclusive;
    await Bun.sleep(0);
    expect(order).toEqual(["exclusive"]);
    gate.leave();
    await later;
    expect(order).toEqual(["exclusive", "later shared"]);
  });

  test("with a limit of one, entries run one at a time in arrival order", async () => {
    const gate = new WriteGate(1);
    const order: number[] = [];
    const runs = [1, 2, 3].map(async (n) => {
      await gate.enter();
      order.push(n);
      await Bun.sleep(1);
      gate.leave();
    });
    await Promise.all(runs);
    expect(order).toEqual([1, 2, 3]);
    await gate.drained();
  });
});
