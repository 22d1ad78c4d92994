import { describe, expect, test } from "bun:test";
import { DomainError, ValidationError } from "../../../core/errors/domain-error.ts";
import {
  checkNoDuplicateIds, type IncomingEvent, planEventUpsert, type StoredManualEvent,
} from "../../../core/events/event-upsert.calc.ts";

const stored = (id: number, date: string, type = "DIVIDEND", value = "1"): StoredManualEvent =>
  ({ id, date, type: type as StoredManualEvent["type"], value, currency: "EUR", notes: null });
const ev = (date: string, amount: string, extra: Partial<IncomingEvent> = {}): IncomingEvent =>
  ({ date, type: "DIVIDEND", amount, code: "EUR", ...extra });
const plan = (rows: StoredManualEvent[], events: IncomingEvent[]) =>
  planEventUpsert({ assetId: 7, assetCurrency: "EUR", itemIndex: 0, stored: rows, events });

function refusal(fn: () => unknown): { code: string; params: Record<string, unknown> | undefined } {
  try {
    fn();
  } catch (e) {
    if (e instanceof DomainError) return { code: e.code, params: e.params };
    throw e;
  }
  throw new Error("expected a refusal");
}

describe("currency must be the asset's", () => {
  test("an explicit currency other than the asset's is EVENT_CURRENCY_MISMATCH", () => {
    expect(refusal(() => plan([], [ev("2024-01-01", "1", { currency: "USD" })])).code).toBe("EVENT_CURRENCY_MISMATCH");
  });
  test("a value code other than the asset's is EVENT_CURRENCY_MISMATCH too", () => {
    const r = refusal(() => plan([], [ev("2024-01-01", "1"), ev("2024-01-02", "1", { code: "USD" })]));
    expect(r).toEqual({ code: "EVENT_CURRENCY_MISMATCH", params: expect.objectContaining({ event_index: 1, currency: "USD" }) });
  });
});

describe("an event with id edits that manual row in place", () => {
  test("date, type, value and notes change, the id is kept", () => {
    const p = plan([stored(1, "2024-01-01")], [ev("2024-02-01", "3", { id: 1, type: "INTEREST", notes: "moved" })]);
    expect(p.updates).toEqual([{ id: 1, date: "2024-02-01", type: "INTEREST", value: "3", currency: "EUR", notes: "moved" }]);
    expect(p.inserts).toEqual([]);
    expect(p.edited).toBe(1);
  });
  test("absent notes keep the stored notes; an unchanged row is not rewritten", () => {
    const row = { ...stored(1, "2024-01-01"), notes: "keep me" };
    expect(plan([row], [ev("2024-01-01", "2", { id: 1 })]).updates[0]!.notes).toBe("keep me");
    expect(plan([row], [ev("2024-01-01", "1", { id: 1 })]).updates).toEqual([]);
  });
});

describe("id-less events match manual rows on (date, type)", () => {
  test("a match updates the row in place", () => {
    const p = plan([stored(1, "2024-01-01")], [ev("2024-01-01", "9")]);
    expect(p.updates.map((u) => [u.id, u.value])).toEqual([[1, "9"]]);
    expect(p.matched).toBe(1);
  });
  test("surplus incoming events are inserted", () => {
    const p = plan([stored(1, "2024-01-01")], [ev("2024-01-01", "1"), ev("2024-01-01", "2"), ev("2024-01-02", "3")]);
    expect(p.updates).toEqual([]);
    expect(p.inserts.map((i) => [i.date, i.value])).toEqual([["2024-01-01", "2"], ["2024-01-02", "3"]]);
  });
  test("stored duplicates beyond the incoming count are removed, relinked to the oldest surviving row", () => {
    const p = plan([stored(9, "2024-01-01"), stored(4, "2024-01-01"), stored(6, "2024-01-01")], [ev("2024-01-01", "5")]);
    expect(p.updates.map((u) => u.id)).toEqual([4]);
    expect(p.removals).toEqual([{ id: 6, survivorId: 4 }, { id: 9, survivorId: 4 }]);
  });
  test("the same date with another type is another key", () => {
    const p = plan([stored(1, "2024-01-01", "DIVIDEND")], [ev("2024-01-01", "5", { type: "INTEREST" })]);
    expect(p.inserts).toHaveLength(1);
    expect(p.updates).toEqual([]);
  });
});

describe("only keys the batch mentions are touched", () => {
  test("stored keys not mentioned are kept, even duplicates", () => {
    const p = plan([stored(1, "2024-01-01"), stored(2, "2024-01-01"), stored(3, "2024-03-01")], [ev("2024-03-01", "5")]);
    expect(p.removals).toEqual([]);
    expect(p.updates.map((u) => u.id)).toEqual([3]);
  });
});

describe("refusals, first offending event reported", () => {
  test("a duplicate id in one item is a 422 naming the second occurrence", () => {
    let error: unknown;
    try {
      checkNoDuplicateIds([{ events: [{ id: 1 }] }, { events: [{ id: 2 }, {}, { id: 2 }] }]);
    } catch (e) { error = e; }
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues[0]!.loc).toEqual(["body", 1, "events", 2, "id"]);
    expect((error as ValidationError).message).toBe("Duplicate event id in one upsert item");
  });
  test("the same id in two different items is not a duplicate", () => {
    expect(() => checkNoDuplicateIds([{ events: [{ id: 1 }] }, { events: [{ id: 1 }] }])).not.toThrow();
  });
  test("an id that is not a manual row of this asset is EVENT_NOT_EDITABLE", () => {
    expect(refusal(() => plan([stored(1, "2024-01-01")], [ev("2024-01-01", "1", { id: 99 })])).code).toBe("EVENT_NOT_EDITABLE");
  });
  test("a mover landing where another edit ends is EVENT_KEY_CONFLICT", () => {
    const rows = [stored(1, "2024-01-01"), stored(2, "2024-01-02")];
    const r = refusal(() => plan(rows, [ev("2024-01-02", "1", { id: 1 }), ev("2024-01-02", "2", { id: 2 })]));
    expect(r).toEqual({ code: "EVENT_KEY_CONFLICT", params: expect.objectContaining({ event_index: 0 }) });
  });
  test("two movers landing on the same free key is EVENT_KEY_CONFLICT", () => {
    const rows = [stored(1, "2024-01-01"), stored(2, "2024-01-02")];
    expect(refusal(() => plan(rows, [ev("2024-05-05", "1", { id: 1 }), ev("2024-05-05", "2", { id: 2 })])).code).toBe("EVENT_KEY_CONFLICT");
  });
  test("a mover landing on a key held by an unedited manual row is EVENT_KEY_CONFLICT", () => {
    const rows = [stored(1, "2024-01-01"), stored(2, "2024-01-02")];
    expect(refusal(() => plan(rows, [ev("2024-01-02", "1", { id: 1 })])).code).toBe("EVENT_KEY_CONFLICT");
  });
  test("an id-less event on a key an edit ends on is EVENT_KEY_CONFLICT, whether the edit moved or stayed", () => {
    const rows = [stored(1, "2024-01-01")];
    expect(refusal(() => plan(rows, [ev("2024-03-03", "1", { id: 1 }), ev("2024-03-03", "2")])).code).toBe("EVENT_KEY_CONFLICT");
    expect(refusal(() => plan(rows, [ev("2024-01-01", "1", { id: 1 }), ev("2024-01-01", "2")])).code).toBe("EVENT_KEY_CONFLICT");
  });
  test("refusals follow rule order: currency before editability before keys", () => {
    const events = [ev("2024-01-02", "1", { id: 1 }), ev("2024-01-01", "2", { id: 42 }), ev("2024-01-01", "3", { code: "USD" })];
    expect(refusal(() => plan([stored(1, "2024-01-01"), stored(2, "2024-01-02")], events)).code).toBe("EVENT_CURRENCY_MISMATCH");
    expect(refusal(() => plan([stored(1, "2024-01-01"), stored(2, "2024-01-02")], events.slice(0, 2))).code).toBe("EVENT_NOT_EDITABLE");
  });
});

describe("allowances: swaps, kept shared keys, id-less events on a vacated key", () => {
  test("two edits swapping keys", () => {
    const p = plan([stored(1, "2024-01-01"), stored(2, "2024-01-02")], [ev("2024-01-02", "1", { id: 1 }), ev("2024-01-01", "1", { id: 2 })]);
    expect(p.updates.map((u) => [u.id, u.date])).toEqual([[1, "2024-01-02"], [2, "2024-01-01"]]);
  });
  test("edits keeping a shared key", () => {
    const p = plan([stored(1, "2024-01-01"), stored(2, "2024-01-01")], [ev("2024-01-01", "5", { id: 1 }), ev("2024-01-01", "6", { id: 2 })]);
    expect(p.updates.map((u) => [u.id, u.value])).toEqual([[1, "5"], [2, "6"]]);
    expect(p.removals).toEqual([]);
  });
  test("an id-less event on a key a mover vacates is inserted (the mover is not matched)", () => {
    const p = plan([stored(1, "2024-01-01")], [ev("2024-02-01", "1", { id: 1 }), ev("2024-01-01", "7")]);
    expect(p.updates.map((u) => [u.id, u.date])).toEqual([[1, "2024-02-01"]]);
    expect(p.inserts.map((i) => [i.date, i.value])).toEqual([["2024-01-01", "7"]]);
  });
  test("an id-less event on a vacated key matches an unedited row still there", () => {
    const p = plan([stored(1, "2024-01-01"), stored(2, "2024-01-01")], [ev("2024-02-01", "1", { id: 1 }), ev("2024-01-01", "7")]);
    expect(p.updates.map((u) => [u.id, u.date, u.value])).toEqual([[1, "2024-02-01", "1"], [2, "2024-01-01", "7"]]);
    expect(p.inserts).toEqual([]);
  });
});
