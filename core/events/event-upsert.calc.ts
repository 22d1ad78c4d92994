import { InputError, ValidationError } from "../errors/domain-error.ts";
import type { AssetEventType } from "./asset-event.entity.ts";

/** A stored manual event of the asset (provider events never reach the planner). */
export interface StoredManualEvent {
  currency: string;
  date: string;
  id: number;
  notes: string | null;
  type: AssetEventType;
  value: string;
}

/** One incoming point of an upsert item; `notes` undefined keeps the stored notes, null clears them. */
export interface IncomingEvent {
  amount: string;
  code: string;
  currency?: string;
  date: string;
  id?: number;
  notes?: string | null;
  type: AssetEventType;
}

export interface UpsertItemInput {
  assetCurrency: string;
  assetId: number;
  events: IncomingEvent[];
  itemIndex: number;
  stored: StoredManualEvent[];
}

export type EventRow = Omit<StoredManualEvent, "id">;

/**
 * What one item writes: rows updated in place (ids kept; rows the item leaves as they are are
 * omitted), new rows, and removed duplicates with the survivor their transactions move to.
 */
export interface EventUpsertPlan {
  inserts: EventRow[];
  removals: { id: number; survivorId: number }[];
  updates: StoredManualEvent[];
  /** How many updates came from an `id` and how many from a (date, type) match (the answer's message names both). */
  edited: number;
  matched: number;
}

interface Edit { index: number; row: StoredManualEvent; stored: StoredManualEvent; from: string; to: string }

export const keyOf = (e: { date: string; type: string }) => `${e.date}|${e.type}`;

const refuse = (code: string, message: string, params: Record<string, unknown>) => new InputError(code, message, params);

/** A duplicate `id` inside one item refuses the whole request (422) before any write: checked first (docs/events.md "How an upsert item is applied"). */
export function checkNoDuplicateIds(items: { events: { id?: number }[] }[]): void {
  items.forEach((item, i) => {
    const seen = new Set<number>();
    item.events.forEach((e, j) => {
      if (e.id === undefined) return;
      if (seen.has(e.id)) {
        const msg = "Duplicate event id in one upsert item";
        throw new ValidationError([{ loc: ["body", i, "events", j, "id"], msg, type: "duplicate_id" }], msg);
      }
      seen.add(e.id);
    });
  });
}

/** The explicit currency and the value's code must both be the asset's currency: a foreign code on the value would store a wrong currency by another door. */
function checkCurrencies(input: UpsertItemInput): void {
  input.events.forEach((e, j) => {
    const wrong = [e.currency, e.code].find((c) => c !== undefined && c !== input.assetCurrency);
    if (wrong === undefined) return;
    throw refuse("EVENT_CURRENCY_MISMATCH",
      `Event currency ${wrong} differs from the currency ${input.assetCurrency} of asset ${input.assetId}`,
      { item_index: input.itemIndex, event_index: j, asset_id: input.assetId, currency: wrong, asset_currency: input.assetCurrency });
  });
}

const fieldsOf = (e: IncomingEvent, storedNotes: string | null): EventRow => ({
  date: e.date, type: e.type, value: e.amount, currency: e.code, notes: e.notes === undefined ? storedNotes : e.notes,
});

/** True when applying `next` to `stored` changes a column (unchanged rows are not rewritten, so `updated_at` stays). */
const changes = (stored: StoredManualEvent, next: StoredManualEvent) =>
  (["date", "type", "value", "currency", "notes"] as const).some((k) => stored[k] !== next[k]);

/** An `id` edits its row in place, and must name a manual event of this asset (`EVENT_NOT_EDITABLE` otherwise): provider events are never edited. */
function resolveEdits(input: UpsertItemInput): Edit[] {
  const byId = new Map(input.stored.map((s) => [s.id, s]));
  const edits: Edit[] = [];
  input.events.forEach((e, j) => {
    if (e.id === undefined) return;
    const stored = byId.get(e.id);
    if (!stored) {
      throw refuse("EVENT_NOT_EDITABLE", `Event ${e.id} is not a manual event of asset ${input.assetId}`,
        { item_index: input.itemIndex, event_index: j, asset_id: input.assetId, event_id: e.id });
    }
    edits.push({ index: j, row: { id: stored.id, ...fieldsOf(e, stored.notes) }, stored, from: keyOf(stored), to: keyOf(e) });
  });
  return edits;
}

/**
 * `EVENT_KEY_CONFLICT`, with its allowances (docs/events.md "How an upsert item is applied"): a mover may not land where another edit
 * ends or where an unedited manual row sits; an id-less event may not sit where any edit ends.
 * Swaps, edits keeping a shared key and id-less events on a vacated key pass.
 */
function checkKeyConflicts(input: UpsertItemInput, edits: Edit[], unedited: StoredManualEvent[]): void {
  const endCount = new Map<string, number>();
  for (const e of edits) endCount.set(e.to, (endCount.get(e.to) ?? 0) + 1);
  const held = new Set(unedited.map(keyOf));
  const editAt = new Map(edits.map((e) => [e.index, e]));
  input.events.forEach((event, j) => {
    const edit = editAt.get(j);
    const key = keyOf(event);
    const clash = edit
      ? edit.from !== edit.to && ((endCount.get(key) ?? 0) > 1 || held.has(key))
      : endCount.has(key);
    if (!clash) return;
    const what = edit ? `Moving event ${edit.row.id} to` : "An event without id on";
    throw refuse("EVENT_KEY_CONFLICT", `${what} ${event.date} ${event.type} collides with another event of the item`,
      { item_index: input.itemIndex, event_index: j, asset_id: input.assetId, date: event.date, type: event.type });
  });
}

function groupByKey<T extends { date: string; type: string }>(list: T[]): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of list) {
    const group = out.get(keyOf(item));
    if (group) group.push(item);
    else out.set(keyOf(item), [item]);
  }
  return out;
}

type Matches = Pick<EventUpsertPlan, "inserts" | "matched" | "removals" | "updates">;

/**
 * Id-less events, grouped by (date, type), update the unedited manual rows of that key
 * (oldest id first) in place; surplus incoming events are inserted; stored rows beyond the
 * incoming count are removed, their survivor being the oldest row kept.
 */
function matchByKey(events: IncomingEvent[], unedited: StoredManualEvent[]): Matches {
  const storedByKey = groupByKey([...unedited].sort((a, b) => a.id - b.id));
  const incomingByKey = groupByKey(events);
  const plan: Matches = { inserts: [], removals: [], updates: [], matched: 0 };
  for (const [key, incoming] of incomingByKey) {
    const stored = storedByKey.get(key) ?? [];
    incoming.forEach((e, n) => {
      const target = stored[n];
      if (!target) { plan.inserts.push(fieldsOf(e, null)); return; }
      plan.matched += 1;
      const next = { id: target.id, ...fieldsOf(e, target.notes) };
      if (changes(target, next)) plan.updates.push(next);
    });
    for (const extra of stored.slice(incoming.length)) plan.removals.push({ id: extra.id, survivorId: stored[0]!.id });
  }
  return plan;
}

/**
 * Plans one upsert item (docs/events.md "How an upsert item is applied"). Checks the whole item first and
 * throws the first refusal in rule order (currency, editability, key conflicts), so a refused
 * item writes nothing. Only the asset's manual rows are passed in, so provider rows are never touched.
 */
export function planEventUpsert(input: UpsertItemInput): EventUpsertPlan {
  checkCurrencies(input);
  const edits = resolveEdits(input);
  const editedIds = new Set(edits.map((e) => e.row.id));
  const unedited = input.stored.filter((s) => !editedIds.has(s.id));
  checkKeyConflicts(input, edits, unedited);
  const matched = matchByKey(input.events.filter((e) => e.id === undefined), unedited);
  const editUpdates = edits.filter((e) => changes(e.stored, e.row)).map((e) => e.row);
  return { ...matched, updates: [...editUpdates, ...matched.updates], edited: edits.length };
}
