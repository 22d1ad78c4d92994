import "reflect-metadata";
import { afterEach, describe, expect, spyOn, test } from "bun:test";
import { eventLoopBreather, IMPORT_SLICE_MS } from "../../../core/async/yield-to-event-loop.ts";
import { applyCreates } from "../../../core/transactions/batch-creates.ts";
import { finalChecks } from "../../../core/transactions/batch-final-checks.ts";
import { BatchState } from "../../../core/transactions/batch-state.ts";
import { buildOutcome } from "../../../core/transactions/batch.service.ts";
import type { CreateInput, Parsed } from "../../../core/transactions/batch.types.ts";

/**
 * A large import's batch runs on the request thread: every walk over all of its rows lets other
 * requests in every few milliseconds (docs/decisions.md, "A large commit gives other requests a
 * turn"). The clock is faked (each reading 1 ms later), so the walks are seen yielding whatever
 * the machine's speed; other work is counted as turns of a self-renewing setImmediate.
 */
const ROWS = 200;
let clock: ReturnType<typeof spyOn> | undefined;
afterEach(() => clock?.mockRestore());

function fakeClock() {
  let t = 0;
  clock = spyOn(performance, "now").mockImplementation(() => (t += 1));
}

/** How many turns other work got while `walk` ran. */
async function turnsDuring(walk: () => Promise<unknown>): Promise<number> {
  let turns = 0;
  let on = true;
  const tick = () => { turns++; if (on) setImmediate(tick); };
  setImmediate(tick);
  await Promise.resolve();
  const before = turns;
  fakeClock();
  await walk();
  clock!.mockRestore();
  on = false;
  return turns - before;
}

const deposit = (i: number): Parsed<CreateInput> => ({
  ok: true,
  value: {
    brokerId: 1, assetId: null, type: "DEPOSIT", date: `2024-01-${String(1 + (i % 28)).padStart(2, "0")}`, quantity: "0",
    cash: { code: "EUR", amount: "10.00" }, linkUuid: null, tags: null, description: null, costBasisOverride: null,
    costBasisMode: null, assetEventId: null,
  },
});

async function importedBatch(): Promise<BatchState> {
  const state = new BatchState({ assets: new Map(), events: new Map(), roles: new Map([[1, "OWNER"]]) });
  await applyCreates(state, Array.from({ length: ROWS }, (_, i) => deposit(i)));
  return state;
}

describe("a large batch gives other requests a turn while it walks its rows", () => {
  test("checking the creates, the final checks and the answer each let other work run", async () => {
    const creates = Array.from({ length: ROWS }, (_, i) => deposit(i));
    const state = new BatchState({ assets: new Map(), events: new Map(), roles: new Map([[1, "OWNER"]]) });
    expect(await turnsDuring(() => applyCreates(state, creates))).toBeGreaterThan(0);
    expect(state.created).toHaveLength(ROWS);
    expect(state.issues).toEqual([]);
    expect(await turnsDuring(() => finalChecks(state))).toBeGreaterThan(0);
    let outcome: Awaited<ReturnType<typeof buildOutcome>> | undefined;
    expect(await turnsDuring(async () => { outcome = await buildOutcome(state, false, []); })).toBeGreaterThan(0);
    expect(outcome!.results).toHaveLength(ROWS);
    // Not written: the id is not known yet.
    expect(outcome!.results[7]).toEqual({ operation: "create", index: 7, ids: [null as unknown as number], status: "simulated" });
    expect(outcome!.successCount).toBe(ROWS);
  });

  test("the brokers and dates a batch touches are read in slices, with the same answer", async () => {
    const state = await importedBatch();
    let brokers: Map<number, string> | undefined;
    let since: Map<number, string> | undefined;
    let earliest: string | null | undefined;
    expect(await turnsDuring(async () => { brokers = await state.touchedBrokers(); })).toBeGreaterThan(0);
    expect(await turnsDuring(async () => { since = await state.touchedSince(); })).toBeGreaterThan(0);
    expect(await turnsDuring(async () => { earliest = await state.earliestChange(); })).toBeGreaterThan(0);
    expect([...brokers!]).toEqual([[1, "create"]]);
    expect([...since!]).toEqual([[1, "2024-01-01"]]);
    expect(earliest).toBe("2024-01-01");
  });
});

test("a walk over an import's rows lets other work in once 2 ms of its work passed, leaving room for a collection within 8 ms", async () => {
  // A young-generation collection (2–7 ms with an import's rows in the heap) can land in any slice.
  let t = 0;
  clock = spyOn(performance, "now").mockImplementation(() => t);
  const breathe = eventLoopBreather(IMPORT_SLICE_MS);
  let ran = false;
  setImmediate(() => { ran = true; });
  t = 1.5;
  await breathe();
  expect(ran).toBe(false);
  t = 2.5;
  await breathe();
  expect(ran).toBe(true);
});

test("each of a create's per-row collections grows past 16,384 entries in a turn of its own", async () => {
  // JavaScriptCore grows a Map's or Set's table in one step there; three in one row held the thread 10–27 ms.
  const state = new BatchState({ assets: new Map(), events: new Map(), roles: new Map([[1, "OWNER"]]) });
  let turns = 0;
  let on = true;
  const tick = () => { turns++; if (on) setImmediate(tick); };
  setImmediate(tick);
  const atGrowth: Record<string, number> = {};
  const rowsSet = state.rows.set.bind(state.rows);
  state.rows.set = (key, row) => { if (state.rows.size === 16_384) atGrowth.rows = turns; return rowsSet(key, row); };
  const addCreated = state.addCreated.bind(state);
  state.addCreated = (key) => { if (state.created.length === 16_384) atGrowth.created = turns; addCreated(key); };
  const touch = state.touch.bind(state);
  state.touch = (key, op) => { if (state.touchedBy.size === 16_384) atGrowth.touched = turns; touch(key, op); };
  await applyCreates(state, Array.from({ length: 16_400 }, (_, i) => deposit(i)));
  on = false;
  expect(state.created).toHaveLength(16_400);
  expect(state.rows.size).toBe(16_400);
  expect(state.touchedBy.size).toBe(16_400);
  expect(atGrowth.created!).toBeGreaterThan(atGrowth.rows!);
  expect(atGrowth.touched!).toBeGreaterThan(atGrowth.created!);
});
