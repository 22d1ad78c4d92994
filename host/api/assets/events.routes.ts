import { Elysia } from "elysia";
import { AssetKeeperService } from "../../../core/assets/asset-keeper.service.ts";
import { EventService } from "../../../core/events/event.service.ts";
import type { HttpDeps } from "../../http/deps.ts";
import { errorResponses } from "../../http/errors.ts";
import type { SessionPlugin } from "../../http/session.ts";
import {
  ByIdsResponse, DeleteResponse, IdsQuery, QueryRequest, QueryResponse, toDeleteResponse, toEventOut, toQueryResponse,
  toUpsertItems, toUpsertResponse, UpsertRequest, UpsertResponse,
} from "./events.schema.ts";

/** Asset events (`/assets/events`): manual upsert and delete; reads of manual and provider events. Session only. */
export function eventsRoutes(deps: HttpDeps, session: SessionPlugin) {
  const events = deps.container.resolve(EventService);
  const keepers = deps.container.resolve(AssetKeeperService);

  return new Elysia({ prefix: "/assets/events", tags: ["assets"] })
    .use(session)
    .post("", async ({ body, user }) => {
      await keepers.assertMayChange(user, body.map((item) => item.asset_id));
      return toUpsertResponse(await events.upsert(toUpsertItems(body)));
    }, {
      auth: true,
      body: UpsertRequest,
      response: { 200: UpsertResponse, ...errorResponses },
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
      query: IdsQuery,
      response: { 200: DeleteResponse, ...errorResponses },
      detail: { summary: "Delete manual events; one linked by a transaction is in_use and kept; unknown and provider events are not_found" },
    })
    .post("/query", async ({ body }) => toQueryResponse(await events.query(body.map((q) => ({
      assetId: q.asset_id, start: q.date_range.start, end: q.date_range.end ?? q.date_range.start,
      ...(q.target_currency ? { targetCurrency: q.target_currency } : {}),
    })))), {
      auth: true,
      body: QueryRequest,
      response: { 200: QueryResponse, ...errorResponses },
      detail: { summary: "Events of each asset within an inclusive date range, by date; is_auto marks provider events" },
    })
    .get("", async ({ query }) => ({
      items: (await events.byIds(query.ids)).map((e) => ({ ...toEventOut(e), asset_id: e.assetId })),
    }), {
      auth: true,
      query: IdsQuery,
      response: { 200: ByIdsResponse, ...errorResponses },
      detail: { summary: "Events by id, in request order; unknown ids are skipped" },
    });
}
