import { countEvents, type EventQuery, queryEvents } from "../../../core/events/event-query.ts";
import { queryable } from "../../../core/db/sql-reader.ts";
import type { DatabaseTarget } from "../../db/dialect.ts";
import { withReadSnapshot } from "../../db/read-snapshot.ts";
import { toQueryResponse } from "./events-wire.ts";

export interface EventsQueryInput {
  db: DatabaseTarget;
  items: EventQuery[];
  /** The most events the answer may carry. */
  maxEvents: number;
}

/** The gzipped answer, or how many events it would have carried when that is over `maxEvents`. */
export type EventsQueryOutput = { ok: true; gzipped: Uint8Array } | { ok: false; requested: number };

/**
 * `POST /assets/events/query` in a pool worker: the events of the ranges are counted first (the
 * answer's size, refused when over the limit before a row is read), then read on the worker's own
 * connection and answered as gzipped JSON.
 */
export async function eventsQuery(input: EventsQueryInput): Promise<EventsQueryOutput> {
  return withReadSnapshot(input.db, async (reader) => {
    const db = queryable(reader);
    const requested = await countEvents(db, input.items);
    if (requested > input.maxEvents) return { ok: false, requested };
    return { ok: true, gzipped: Bun.gzipSync(JSON.stringify(toQueryResponse(await queryEvents(db, input.items))), { level: 6 }) };
  });
}
