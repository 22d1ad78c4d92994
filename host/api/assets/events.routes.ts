import { Elysia } from "elysia";
import { AssetKeeperService } from "../../../core/assets/asset-keeper.service.ts";
import { EventService } from "../../../core/events/event.service.ts";
import { databaseTarget } from "../../db/dialect.ts";
import { bulkLimits, itemsLimit, type Limit, limitExceeded, listLength, perItemLimit, sumOver } from "../../http/bulk-limits.ts";
import type { HttpDeps } from "../../http/deps.ts";
import { ErrorBody, errorResponses } from "../../http/errors.ts";
import { gzippedJson } from "../../http/gzip.ts";
import type { SessionPlugin } from "../../http/session.ts";
import { runCalculation } from "../run-calculation.ts";
import {
  ByIdsResponse, DeleteResponse, IdsQuery, MAX_EVENTS_PER_ITEM, MAX_IDS, MAX_QUERY_EVENTS, MAX_QUERY_ITEMS, MAX_UPSERT_EVENTS, MAX_UPSERT_ITEMS,
  QueryRequest, QueryResponse, toDeleteResponse, toEventOut, toUpsertItems, toUpsertResponse, UpsertRequest, UpsertResponse,
} from "./events.schema.ts";

const eventsOf = (item: any) => (Array.isArray(item.events) ? item.events.length : 0);
const UPSERT_LIMITS: Limit[] = [
  itemsLimit(MAX_UPSERT_ITEMS),
  perItemLimit(MAX_EVENTS_PER_ITEM, "events", "events", "Send an asset's events in several items or requests"),
  {
    max: MAX_UPSERT_EVENTS, unit: "events", count: ({ body }) => sumOver(body, eventsOf),
    hint: "Send the events in several requests", doc: `at most ${MAX_UPSERT_EVENTS.toLocaleString("en-US")} events per request, summed over the items`,
  },
];
const IDS: Limit = { max: MAX_IDS, unit: "ids", count: ({ query }) => listLength(query?.ids), hint: "Send the ids in several requests" };
const QUERY_LIMITS: Limit[] = [
  itemsLimit(MAX_QUERY_ITEMS),
  // Counted by the worker before it reads a row (it knows how many events the ranges hold); listed here for the documentation.
  { max: MAX_QUERY_EVENTS, unit: "events in the answer", per: "", count: () => 0, doc: `at most ${MAX_QUERY_EVENTS.toLocaleString("en-US")} events in one answer (counted before any is read)` },
];

/** Asset events (`/assets/events`): manual upsert and delete; reads of manual and provider events. Session only. */
export function eventsRoutes(deps: HttpDeps, session: SessionPlugin) {
  const events = deps.container.resolve(EventService);
  const keepers = deps.container.resolve(AssetKeeperService);
  const db = databaseTarget(deps.config.dataDir);
  const limited = { ...errorResponses, 413: ErrorBody };

  return new Elysia({ prefix: "/assets/events", tags: ["assets"] })
    .use(session)
    .use(bulkLimits)
    .post("", async ({ body, user }) => {
      await keepers.assertMayChange(user, body.map((item) => item.asset_id));
      return toUpsertResponse(await events.upsert(toUpsertItems(body)));
    }, {
      auth: true,
      limits: UPSERT_LIMITS,
      body: UpsertRequest,
      response: { 200: UpsertResponse, ...limited, 404: ErrorBody },
      detail: {
        summary: "Upsert manual events, item by item: each item is checked whole, then committed; a refused item ends "
          + "the request (EVENT_CURRENCY_MISMATCH, EVENT_NOT_EDITABLE, EVENT_KEY_CONFLICT) and earlier items stay stored; "
          + "a duplicate id in one item refuses the whole request (422)",
      },
    })
    .delete("", async ({ query, user }) => {
      await keepers.assertMayChangeEvents(user, query.ids);
      return toDeleteResponse(await events.delete(query.ids));
    }, {
      auth: true,
      limits: [IDS],
      query: IdsQuery,
      response: { 200: DeleteResponse, ...limited },
      detail: { summary: "Delete manual events; one linked by a transaction is in_use and kept; unknown and provider events are not_found" },
    })
    .post("/query", async ({ body, request }) => {
      const { result } = await runCalculation("eventsQuery", {
        db,
        maxEvents: MAX_QUERY_EVENTS,
        items: body.map((q) => ({
          assetId: q.asset_id, start: q.date_range.start, end: q.date_range.end ?? q.date_range.start,
          ...(q.target_currency ? { targetCurrency: q.target_currency } : {}),
        })),
      });
      if (!result.ok) throw limitExceeded(MAX_QUERY_EVENTS, result.requested, "events in the answer", "Ask for shorter date ranges or fewer items per request", "");
      return gzippedJson(result.gzipped, request);
    }, {
      auth: true,
      limits: QUERY_LIMITS,
      body: QueryRequest,
      // Documents the body; the worker's gzipped JSON is sent as it is (a Response is not re-validated).
      response: { 200: QueryResponse, ...limited },
      detail: { summary: "Events of each asset within an inclusive date range, by date; is_auto marks provider events" },
    })
    .get("", async ({ query }) => ({
      items: (await events.byIds(query.ids)).map((e) => ({ ...toEventOut(e), asset_id: e.assetId })),
    }), {
      auth: true,
      limits: [IDS],
      query: IdsQuery,
      response: { 200: ByIdsResponse, ...limited },
      detail: { summary: "Events by id, in request order; unknown ids are skipped" },
    });
}
