import { today } from "../../../core/dates/calendar.ts";
import { Elysia } from "elysia";
import { AssetKeeperService } from "../../../core/assets/asset-keeper.service.ts";
import type { IsoDate } from "../../../sdk/index.ts";
import { CurrentPriceService } from "../../../core/prices/current-price.service.ts";
import { PriceSyncService } from "../../../core/prices/price-sync.service.ts";
import { PriceService } from "../../../core/prices/price.service.ts";
import type { HttpDeps } from "../../http/deps.ts";
import { errorResponses } from "../../http/errors.ts";
import type { SessionPlugin } from "../../http/session.ts";
import { withPriceSignals } from "../signals/signals.ts";
import {
  CurrentPriceRequest, CurrentPriceResponse, PriceDeleteRequest, PriceDeleteResponse, PriceQueryRequest, PriceQueryResponse,
  PriceSyncRequest, PriceSyncResponse, PriceUpsertRequest, PriceUpsertResponse, toCurrentItem, toQueryItem, toSyncItem,
  volumeOf, WipeParams, WipeResponse,
} from "./prices.schema.ts";


/** `/assets/prices`: manual prices, queries, current prices and provider sync; plus the market-data wipe. */
export function pricesRoutes(deps: HttpDeps, session: SessionPlugin) {
  const prices = deps.container.resolve(PriceService);
  const current = deps.container.resolve(CurrentPriceService);
  const syncs = deps.container.resolve(PriceSyncService);
  const keepers = deps.container.resolve(AssetKeeperService);

  const pricesApi = new Elysia({ prefix: "/assets/prices", tags: ["assets"] })
    .use(session)
    .post("", async ({ body, user }) => {
      await keepers.assertMayChange(user, body.map((item) => item.asset_id));
      const out = await prices.upsert(body.map((item) => ({
        assetId: item.asset_id,
        prices: item.prices.map((p) => ({ ...p, volume: volumeOf(p.volume) })),
      })));
      return {
        results: out.results.map((r) => ({ asset_id: r.assetId, count: r.count, message: r.message })),
        success_count: out.results.filter((r) => r.success).length,
        errors: [], inserted_count: out.inserted, updated_count: out.updated,
      };
    }, {
      auth: true,
      body: PriceUpsertRequest,
      response: { 200: PriceUpsertResponse, ...errorResponses },
      detail: { summary: "Store manual daily prices (close > 0; a currency, if sent, must be the asset's: 400 PRICE_CURRENCY_MISMATCH)" },
    })
    .delete("", async ({ body, user }) => {
      await keepers.assertMayChange(user, body.map((item) => item.asset_id));
      const out = await prices.deleteRanges(body.map((i) => ({ assetId: i.asset_id, ranges: i.date_ranges })));
      return {
        results: out.map((r) => ({ asset_id: r.assetId, success: r.success, deleted_count: r.deletedCount, message: r.message })),
        success_count: out.filter((r) => r.success).length,
        errors: [], total_deleted: out.reduce((n, r) => n + r.deletedCount, 0),
      };
    }, {
      auth: true,
      body: PriceDeleteRequest,
      response: { 200: PriceDeleteResponse, ...errorResponses },
      detail: { summary: "Delete prices within inclusive date ranges (JSON body)" },
    })
    .post("/query", async ({ body }) => ({
      items: await Promise.all((await prices.query(body.map((i) => ({
        assetId: i.asset_id, range: i.date_range, prices: i.include_prices || (i.signals?.length ?? 0) > 0, events: i.include_events,
      })))).map((r, k) => withPriceSignals(toQueryItem(r), r.prices, body[k]!))),
    }), {
      auth: true,
      body: PriceQueryRequest,
      response: { 200: PriceQueryResponse, ...errorResponses },
      detail: { summary: "Stored prices (ascending by date) and, with include_events, events (is_auto) of date ranges" },
    })
    .post("/current", async ({ body }) => {
      const results = await current.current(body);
      return { results: results.map(toCurrentItem), success_count: results.filter((r) => r.value !== null).length, errors: [] };
    }, {
      auth: true,
      body: CurrentPriceRequest,
      response: { 200: CurrentPriceResponse, ...errorResponses },
      detail: { summary: "Current price of each asset, in request order: provider (cached 2 min, 5 calls at a time) or the last stored close" },
    })
    .post("/sync", async ({ body }) => {
      const results = await syncs.sync(body.map((i) => ({
        assetId: i.asset_id, start: i.date_range.start as IsoDate | "min" | "resume", end: (i.date_range.end ?? today()) as IsoDate,
      })));
      return {
        results: results.map(toSyncItem),
        success_count: results.filter((r) => r.status === "ok" || r.status === "partial").length,
        errors: [], total_points_changed: results.reduce((n, r) => n + r.pointsChanged, 0),
      };
    }, {
      auth: true,
      body: PriceSyncRequest,
      response: { 200: PriceSyncResponse, ...errorResponses },
      detail: { summary: "Fetch provider history and events into the database; start is a date, min or resume" },
    });

  const wipeApi = new Elysia({ prefix: "/assets", tags: ["assets"] })
    .use(session)
    .post("/:asset_id/market-data/wipe", async ({ params, user }) => {
      await keepers.assertMayChange(user, [params.asset_id]);
      const out = await prices.wipe(params.asset_id);
      return {
        asset_id: params.asset_id, prices_deleted: out.pricesDeleted, events_deleted: out.eventsDeleted,
        transactions_unlinked: out.transactionsUnlinked,
        message: `Deleted ${out.pricesDeleted} prices and ${out.eventsDeleted} events; unlinked ${out.transactionsUnlinked} transactions`,
      };
    }, {
      auth: true,
      params: WipeParams,
      response: { 200: WipeResponse, ...errorResponses },
      detail: { summary: "Delete all prices and all events (manual included) of an asset, unlinking transactions first" },
    });

  return new Elysia().use(pricesApi).use(wipeApi);
}
