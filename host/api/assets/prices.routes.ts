import { today } from "../../../core/dates/calendar.ts";
import { Elysia } from "elysia";
import { AssetKeeperService } from "../../../core/assets/asset-keeper.service.ts";
import type { IsoDate } from "../../../sdk/index.ts";
import { CurrentPriceService } from "../../../core/prices/current-price.service.ts";
import { PriceSyncService } from "../../../core/prices/price-sync.service.ts";
import { PriceService } from "../../../core/prices/price.service.ts";
import type { z } from "zod";
import { databaseTarget } from "../../db/dialect.ts";
import { bulkLimits, itemsLimit, type Limit, perItemLimit, sumOver } from "../../http/bulk-limits.ts";
import { daySeriesLimit, daysIn } from "../day-series-limit.ts";
import { MAX_SIGNALS } from "../signals/signals.schema.ts";
import type { HttpDeps } from "../../http/deps.ts";
import { ErrorBody, errorResponses } from "../../http/errors.ts";
import { gzippedJson } from "../../http/gzip.ts";
import type { SessionPlugin } from "../../http/session.ts";
import { runCalculation } from "../run-calculation.ts";
import {
  CurrentPriceRequest, CurrentPriceResponse, MAX_DELETE_RANGES, MAX_PRICE_ITEMS, MAX_PRICE_POINTS, PriceDeleteRequest, PriceDeleteResponse,
  PriceQueryRequest, PriceQueryResponse, PriceSyncRequest, PriceSyncResponse, PriceUpsertRequest, PriceUpsertResponse, toCurrentItem,
  toSyncItem, volumeOf, WipeParams, WipeResponse,
} from "./prices.schema.ts";

const ITEMS = itemsLimit(MAX_PRICE_ITEMS);
const UPSERT_LIMITS: Limit[] = [ITEMS, {
  max: MAX_PRICE_POINTS, unit: "price points", count: ({ body }) => sumOver(body, (i) => (Array.isArray(i.prices) ? i.prices.length : 0)),
  hint: "Send the prices in several requests", doc: `at most ${MAX_PRICE_POINTS.toLocaleString("en-US")} price points per request, summed over the items`,
}];
const DELETE_LIMITS: Limit[] = [ITEMS, {
  max: MAX_DELETE_RANGES, unit: "date ranges", count: ({ body }) => sumOver(body, (i) => (Array.isArray(i.date_ranges) ? i.date_ranges.length : 0)),
  hint: "Send the ranges in several requests", doc: `at most ${MAX_DELETE_RANGES.toLocaleString("en-US")} date ranges per request, summed over the items`,
}];
const QUERY_LIMITS: Limit[] = [
  ITEMS,
  perItemLimit(MAX_SIGNALS, "signals", "signals"),
  daySeriesLimit((body: z.output<typeof PriceQueryRequest>) => body, (i) => daysIn(i.date_range.start, i.date_range.end), (i) => i.signals?.length ?? 0),
];

/** `/assets/prices`: manual prices, queries, current prices and provider sync; plus the market-data wipe. */
export function pricesRoutes(deps: HttpDeps, session: SessionPlugin) {
  const prices = deps.container.resolve(PriceService);
  const current = deps.container.resolve(CurrentPriceService);
  const syncs = deps.container.resolve(PriceSyncService);
  const keepers = deps.container.resolve(AssetKeeperService);
  const db = databaseTarget(deps.config.dataDir);
  const limited = { ...errorResponses, 413: ErrorBody };

  const pricesApi = new Elysia({ prefix: "/assets/prices", tags: ["assets"] })
    .use(session)
    .use(bulkLimits)
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
      limits: UPSERT_LIMITS,
      body: PriceUpsertRequest,
      response: { 200: PriceUpsertResponse, ...limited },
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
      limits: DELETE_LIMITS,
      body: PriceDeleteRequest,
      response: { 200: PriceDeleteResponse, ...limited },
      detail: { summary: "Delete prices within inclusive date ranges (JSON body)" },
    })
    .post("/query", async ({ body, request }) => gzippedJson((await runCalculation("priceQuery", {
      db,
      items: body.map((i) => ({
        assetId: i.asset_id, start: i.date_range.start, end: i.date_range.end, includePrices: i.include_prices, includeEvents: i.include_events,
        ...(i.signals ? { signals: i.signals } : {}),
      })),
    })).result, request), {
      auth: true,
      limits: QUERY_LIMITS,
      body: PriceQueryRequest,
      // Documents the body; the worker's gzipped JSON is sent as it is (a Response is not re-validated).
      response: { 200: PriceQueryResponse, ...limited },
      detail: { summary: "Stored prices (ascending by date) and, with include_events, events (is_auto) of date ranges" },
    })
    .post("/current", async ({ body }) => {
      const results = await current.current(body);
      return { results: results.map(toCurrentItem), success_count: results.filter((r) => r.value !== null).length, errors: [] };
    }, {
      auth: true,
      limits: [ITEMS],
      body: CurrentPriceRequest,
      response: { 200: CurrentPriceResponse, ...limited },
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
      limits: [ITEMS],
      body: PriceSyncRequest,
      response: { 200: PriceSyncResponse, ...limited },
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
