import { z } from "zod";
import { ASSET_EVENT_TYPES } from "../../../core/events/asset-event.entity.ts";
import type { EventDeleteResult, EventUpsertItem, EventUpsertResult } from "../../../core/events/event.service.ts";
import { CurrencyField, DayField } from "../../http/fields.ts";
import { MoneyField } from "../transactions/transactions.schema.ts";

/** Bulk limits (docs/events.md, docs/security.md "Bulk-read limits"); beyond them 413 LIMIT_EXCEEDED. A 2,500-event item is well inside. */
export const MAX_UPSERT_ITEMS = 1000;
export const MAX_EVENTS_PER_ITEM = 10_000;
export const MAX_UPSERT_EVENTS = 100_000;
/** Ids in a query string; the server's 16 KB request-line limit (431) binds first, at ~1,500 ids. */
export const MAX_IDS = 10_000;
export const MAX_QUERY_ITEMS = 1000;
/** Events one `POST /assets/events/query` answer may carry (counted before any is read). */
export const MAX_QUERY_EVENTS = 100_000;

const Id = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const EventType = z.enum(ASSET_EVENT_TYPES);

/** `FAEventUpsertPoint`: with `id` it edits that manual event; without, it matches on (date, type). */
const UpsertPoint = z.object({
  id: Id.optional().describe("A manual event of this asset to edit in place"),
  date: DayField,
  type: EventType,
  value: MoneyField.describe("Amount and currency code; for SPLIT the ratio. The code must be the asset's currency"),
  currency: CurrencyField.nullable().optional().describe("Optional explicit currency; must be the asset's"),
  notes: z.string().max(1000).nullable().optional().describe("Absent keeps stored notes, null clears them"),
}).strict();

export const UpsertRequest = z.array(z.object({
  asset_id: Id,
  events: z.array(UpsertPoint).min(1).max(MAX_EVENTS_PER_ITEM),
}).strict()).max(MAX_UPSERT_ITEMS);

export const UpsertResponse = z.object({
  results: z.array(z.object({ asset_id: z.number().int(), count: z.number().int(), message: z.string() })),
  success_count: z.number().int(),
  errors: z.array(z.string()),
});

/** A repeated query key arrives as one string or as an array; both read as a list. */
const IdList = z.preprocess(
  (v) => (v === undefined || Array.isArray(v) ? v : [v]),
  z.array(z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER)).min(1).max(MAX_IDS),
);
export const IdsQuery = z.object({ ids: IdList });

export const DeleteResponse = z.object({
  results: z.array(z.object({
    event_id: z.number().int(),
    status: z.enum(["deleted", "not_found", "in_use"]),
    message: z.string().optional(),
  })),
  deleted_count: z.number().int(),
  not_found_count: z.number().int(),
  in_use_count: z.number().int(),
});

const DateRange = z.object({ start: DayField, end: DayField.nullable().optional().describe("Last day, inclusive; absent or null: the start day only (docs/decisions.md \"Date ranges\")") }).strict()
  .refine((r) => !r.end || r.end >= r.start, { message: "end must not be before start", path: ["end"] });

export const QueryRequest = z.array(z.object({
  asset_id: Id,
  date_range: DateRange.describe("Inclusive; a missing or null end means the start day only"),
  target_currency: CurrencyField.nullable().optional(),
}).strict()).max(MAX_QUERY_ITEMS);

const Money = z.object({ code: z.string(), amount: z.string() });
export const EventOut = z.object({
  id: z.number().int(),
  date: z.string(),
  type: EventType,
  value: Money,
  notes: z.string().nullable(),
  is_auto: z.boolean(),
  original_value: Money.optional().describe("Only when the value was converted to target_currency"),
});

export const QueryResponse = z.object({
  items: z.array(z.object({ asset_id: z.number().int(), events: z.array(EventOut), errors: z.array(z.string()) })),
});

export const ByIdsResponse = z.object({ items: z.array(EventOut.extend({ asset_id: z.number().int() })) });

export function toUpsertItems(body: z.infer<typeof UpsertRequest>): EventUpsertItem[] {
  return body.map((item) => ({
    assetId: item.asset_id,
    events: item.events.map((e) => ({
      ...(e.id !== undefined ? { id: e.id } : {}),
      date: e.date, type: e.type, amount: e.value.amount, code: e.value.code,
      ...(e.currency ? { currency: e.currency } : {}),
      ...(e.notes !== undefined ? { notes: e.notes } : {}),
    })),
  }));
}

export const toUpsertResponse = (results: EventUpsertResult[]) => ({
  results: results.map((r) => ({ asset_id: r.assetId, count: r.count, message: r.message })),
  success_count: results.length,
  errors: [] as string[],
});

export function toDeleteResponse(results: EventDeleteResult[]) {
  const count = (status: EventDeleteResult["status"]) => results.filter((r) => r.status === status).length;
  return {
    results: results.map((r) => ({ event_id: r.eventId, status: r.status, ...(r.message ? { message: r.message } : {}) })),
    deleted_count: count("deleted"), not_found_count: count("not_found"), in_use_count: count("in_use"),
  };
}

export { toEventOut, toQueryResponse } from "./events-wire.ts";
