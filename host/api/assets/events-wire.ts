import type { EventQueryResult, EventRead } from "../../../core/events/event-query.ts";

/** Events on the wire (`POST /assets/events/query`, `GET /assets/events`); no schema imports: the worker maps them too. */

export const toEventOut = (e: EventRead) => ({
  id: e.id, date: e.date, type: e.type, value: { code: e.currency, amount: e.value }, notes: e.notes, is_auto: e.isAuto,
});

export const toQueryResponse = (items: EventQueryResult[]) => ({
  items: items.map((i) => ({ asset_id: i.assetId, events: i.events.map(toEventOut), errors: i.errors })),
});
