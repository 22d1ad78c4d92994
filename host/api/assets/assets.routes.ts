import { Elysia } from "elysia";
import { z } from "zod";
import { AssetKeeperService } from "../../../core/assets/asset-keeper.service.ts";
import { AssetMergeService } from "../../../core/assets/asset-merge.service.ts";
import { AssetQueryService } from "../../../core/assets/asset-query.service.ts";
import { AssetService, type NewAsset } from "../../../core/assets/asset.service.ts";
import { ConflictError } from "../../../core/errors/domain-error.ts";
import type { HttpDeps } from "../../http/deps.ts";
import { bulkLimits, itemsLimit, queryListLimit } from "../../http/bulk-limits.ts";
import { bulkCreateStatus, ErrorBody, errorResponses } from "../../http/errors.ts";
import type { SessionPlugin } from "../../http/session.ts";
import {
  AssetCreateRequest, AssetCreateResponse, AssetDeleteResponse, AssetDetail, AssetIdParams, AssetIdsQuery, AssetInfo,
  AssetListQuery, AssetPatchRequest, AssetPatchResponse, MAX_ITEMS, MarketDataSummaryBody, MergeRequest, MergeResponse, toAssetDetail,
  toAssetFields, toAssetInfo, toMarketDataSummary, toMergeResponse, toOldNew,
} from "./assets.schema.ts";

const BLOCKED = "CURRENCY_CHANGE_BLOCKED_BY_MARKET_DATA";
const ITEMS = itemsLimit(MAX_ITEMS);
const IDS = queryListLimit(MAX_ITEMS, "asset_ids", "asset ids");

/**
 * Assets: global records any signed-in user may read (docs/assets.md "Shared reference data"); their keeper and
 * administrators write them (docs/assets.md "Who may do what"). Bulk writes
 * answer one result per item; only a patch whose every item was refused for a currency change
 * over existing market data is a 409.
 */
export function assetsRoutes(deps: HttpDeps, session: SessionPlugin) {
  const assets = deps.container.resolve(AssetService);
  const queries = deps.container.resolve(AssetQueryService);
  const merges = deps.container.resolve(AssetMergeService);
  const keepers = deps.container.resolve(AssetKeeperService);

  return new Elysia({ prefix: "/assets", tags: ["assets"] })
    .use(session)
    .use(bulkLimits)
    .post("", async ({ body, status, user }) => {
      const outcomes = await assets.create(body.map((item) => toAssetFields(item) as NewAsset), user.id);
      return status(bulkCreateStatus(outcomes.filter((o) => o.success).length), {
        results: outcomes.map((o) => (o.success
          ? { asset_id: o.assetId, success: true, message: "Asset created", name: o.name }
          : { asset_id: null, success: false, message: o.message, name: o.name, code: o.code })),
        success_count: outcomes.filter((o) => o.success).length,
        errors: [],
      });
    }, {
      auth: true,
      limits: [ITEMS],
      body: AssetCreateRequest,
      response: { 200: AssetCreateResponse, 201: AssetCreateResponse, ...errorResponses, 413: ErrorBody },
      detail: { summary: "Create assets, kept by the caller; a name already used by another asset (ignoring case) is refused per item" },
    })
    .get("", async ({ query }) => (await queries.byIds(query.asset_ids)).map(toAssetDetail), {
      auth: true,
      limits: [IDS],
      query: AssetIdsQuery,
      response: { 200: z.array(AssetDetail), ...errorResponses, 413: ErrorBody },
      detail: { summary: "Assets by id with their classification, in request order; unknown ids are skipped" },
    })
    .get("/all", async ({ user }) => (await queries.list(user.id, { active: true })).map(toAssetInfo), {
      auth: true,
      response: { 200: z.array(AssetInfo), ...errorResponses },
      detail: { summary: "Every active asset, by name" },
    })
    .get("/query", async ({ query, user }) => (await queries.list(user.id, {
      currency: query.currency, assetType: query.asset_type, active: query.active, search: query.search,
      isin: query.isin, ticker: query.ticker, cusip: query.cusip, sedol: query.sedol, figi: query.figi, uuid: query.uuid,
      identifierOther: query.identifier_other, identifierContains: query.identifier_contains,
    })).map(toAssetInfo), {
      auth: true,
      query: AssetListQuery,
      response: { 200: z.array(AssetInfo), ...errorResponses },
      detail: { summary: "Assets matching every given filter; `search` matches the name and the identifiers, ignoring case" },
    })
    .patch("", async ({ body, user }) => {
      await keepers.assertMayChange(user, body.map((item) => item.asset_id));
      const outcomes = await assets.patch(body.map((item) => ({ ...toAssetFields(item), assetId: item.asset_id })));
      const results = outcomes.map((o) => (o.success
        ? { asset_id: o.assetId, success: true, message: o.changes.length ? "Asset updated" : "Nothing to change", updated_fields: o.changes.map(toOldNew) }
        : { asset_id: o.assetId, success: false, message: o.message, code: o.code }));
      if (outcomes.every((o) => !o.success && o.code === BLOCKED)) {
        throw new ConflictError(BLOCKED, "Every currency change was refused: the assets have prices or events", { results });
      }
      return { results, success_count: outcomes.filter((o) => o.success).length, errors: [] };
    }, {
      auth: true,
      limits: [ITEMS],
      body: AssetPatchRequest,
      response: { 200: AssetPatchResponse, ...errorResponses, 413: ErrorBody, 409: ErrorBody },
      detail: { summary: "Edit assets: an absent key keeps the value, null clears it; classification is replaced whole" },
    })
    .delete("", async ({ query, user }) => {
      await keepers.assertMayChange(user, query.asset_ids);
      const outcomes = await assets.delete(query.asset_ids);
      const deleted = outcomes.filter((o) => o.success).length;
      return {
        results: outcomes.map((o) => (o.success
          ? { asset_id: o.assetId, success: true, deleted_count: 1, message: "Asset deleted" }
          : { asset_id: o.assetId, success: false, deleted_count: 0, message: o.message, code: o.code })),
        success_count: deleted,
        errors: [],
        total_deleted: deleted,
      };
    }, {
      auth: true,
      limits: [IDS],
      query: AssetIdsQuery,
      response: { 200: AssetDeleteResponse, ...errorResponses, 413: ErrorBody },
      detail: { summary: "Delete assets with their prices, events and assignment; an asset used by a transaction is refused (HAS_TRANSACTIONS)" },
    })
    .post("/merge", async ({ body, user }) => {
      await keepers.assertMayChange(user, [body.source_asset_id, body.target_asset_id]);
      return toMergeResponse(await merges.merge({
        sourceAssetId: body.source_asset_id, targetAssetId: body.target_asset_id,
        identifierPrimaries: body.identifier_primaries as Record<string, string> | undefined, dryRun: body.dry_run,
      }));
    }, {
      auth: true,
      body: MergeRequest,
      response: { 200: MergeResponse, ...errorResponses, 404: ErrorBody, 409: ErrorBody },
      detail: { summary: "Fold a source asset into a target of the same currency and delete the source; `dry_run` only previews" },
    })
    .get("/:id", async ({ params }) => toAssetDetail(await queries.get(params.id)), {
      auth: true,
      params: AssetIdParams,
      response: { 200: AssetDetail, ...errorResponses },
      detail: { summary: "One asset with its classification" },
    })
    .put("/:id/keeper", async ({ params, body }) => {
      const asset = await keepers.reassign(params.id, body.user_id);
      return { asset_id: asset.id, keeper_user_id: asset.keeperUserId };
    }, {
      admin: true,
      params: AssetIdParams,
      body: z.object({ user_id: z.number().int().positive().describe("The new keeper's user id") }).strict(),
      response: {
        200: z.object({
          asset_id: z.number().int().describe("The asset"),
          keeper_user_id: z.number().int().nullable().describe("Its keeper now"),
        }),
        ...errorResponses,
      },
      detail: { summary: "Hand an asset to another keeper (admin only); the keeper and administrators change it and its market data" },
    })
    .get("/:id/market-data/summary", async ({ params, user }) => toMarketDataSummary(await queries.marketDataSummary(params.id, user.id)), {
      auth: true,
      params: AssetIdParams,
      response: { 200: MarketDataSummaryBody, ...errorResponses },
      detail: { summary: "What a market-data wipe (needed before a currency change) would delete: prices, events, linked transactions" },
    });
}
