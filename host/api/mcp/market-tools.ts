import { z } from "zod";
import { DayField } from "../../http/fields.ts";
import { AssetQueryService } from "../../../core/assets/asset-query.service.ts";
import { ASSET_TYPES } from "../../../core/assets/asset.entity.ts";
import { Database } from "../../../core/db/database.ts";
import { NotFoundError } from "../../../core/errors/domain-error.ts";
import { Decimal } from "../../../core/money/decimal.ts";
import type { HttpDeps } from "../../http/deps.ts";
import { periodOf } from "./tools.ts";

/**
 * The `asset_search` and `asset_prices` MCP tools (docs/mcp.md "Tools"): the asset catalogue the user
 * sees in the web app, and an asset's stored daily prices. Neither says whether an asset is held (no
 * transaction counts), so an answer never depends on the token's brokers. Below `full` a price series
 * is an index rebased to 100: a price level is an amount to the grade filter (a manually priced asset,
 * a flat or a private fund, is valued by its owner), and its moves are what a return needs.
 */

export const AssetSearchInput = z.object({
  query: z.string().trim().min(1).max(100).describe("Part of the name or of an identifier (ISIN, ticker, …), ignoring case"),
  asset_type: z.enum(ASSET_TYPES).optional().describe("Only this asset type"),
  limit: z.number().int().min(1).max(50).default(20).describe("Assets per answer (1-50)"),
}).strict();

export const AssetSearchOut = z.object({
  method: z.string().describe("What was searched"),
  assets: z.array(z.object({
    id: z.number().int().describe("Asset id, for `asset_prices`"),
    name: z.string().describe("Asset name"),
    asset_type: z.string().nullable().describe("Asset type"),
    currency: z.string().describe("Currency of its prices"),
    isin: z.string().nullable().describe("ISIN"),
    ticker: z.string().nullable().describe("Ticker"),
    active: z.boolean().describe("Whether its prices are still kept up to date"),
  })).describe("Matching assets of the catalogue, by name"),
  truncated: z.boolean().describe("More assets matched than `limit`: narrow the query"),
  data_quality: z.object({ status: z.literal("not_applicable"), issues: z.array(z.never()) }).describe("A catalogue: no figures"),
});

export const AssetPricesInput = z.object({
  asset_id: z.number().int().positive().describe("An asset of `asset_search`"),
  date_start: DayField.describe("First day"),
  date_end: DayField.describe("Last day"),
  interval: z.enum(["day", "week", "month"]).default("day").describe("Every stored day, or the last stored day of each week or month"),
  limit: z.number().int().min(1).max(1000).default(500).describe("Points per page (1-1000)"),
  offset: z.number().int().min(0).max(1_000_000).default(0).describe("Points to skip"),
}).strict();

export const AssetPricesOut = z.object({
  method: z.string().describe("Where the prices come from"),
  asset_id: z.number().int().describe("The asset"),
  currency: z.string().describe("Currency of the prices"),
  interval: z.enum(["day", "week", "month"]).describe("The spacing of the points"),
  prices: z.array(z.object({
    date: z.string().describe("DayField"),
    index: z.string().describe("The close rebased to 100 on the first stored day of the range"),
    close: z.string().optional().describe("Close price (`full` grade only)"),
  })).describe("One page, oldest first"),
  next_offset: z.number().int().nullable().describe("Offset of the next page; null on the last page"),
  data_quality: z.object({
    status: z.enum(["ok", "partial"]).describe("`partial` when the range has no stored price"),
    issues: z.array(z.object({
      code: z.string().describe("MISSING_PRICE"), severity: z.string().describe("`warning`"), count: z.number().int().describe("Assets"),
      affected_fx_pairs: z.array(z.string()).describe("Always empty here"),
    })).describe("What made the series less than complete"),
  }).describe("Data-quality status of the series"),
});

export function mcpMarket(deps: HttpDeps) {
  const assets = deps.container.resolve(AssetQueryService);
  const db = deps.container.resolve(Database);
  return {
    async search(userId: number, q: z.infer<typeof AssetSearchInput>): Promise<z.infer<typeof AssetSearchOut>> {
      const found = await assets.list(userId, { search: q.query, ...(q.asset_type ? { assetType: q.asset_type } : {}) });
      return {
        method: "the asset catalogue (as GET /assets/query?search=): name and identifiers containing the query, ignoring case",
        assets: found.slice(0, q.limit).map(({ asset: a }) => ({
          id: a.id, name: a.name, asset_type: a.assetType, currency: a.currency, isin: a.identifierIsin, ticker: a.identifierTicker, active: a.active,
        })),
        truncated: found.length > q.limit,
        data_quality: { status: "not_applicable", issues: [] },
      };
    },

    async prices(q: z.infer<typeof AssetPricesInput>): Promise<z.infer<typeof AssetPricesOut>> {
      const [view] = await assets.byIds([q.asset_id]);
      if (!view) throw new NotFoundError("ASSET_NOT_FOUND", `Asset ${q.asset_id} not found`, { asset_id: q.asset_id });
      const rows: { date: string; close: string }[] = await db.reads.query(
        "SELECT date, close FROM price_history WHERE asset_id = ? AND date >= ? AND date <= ? ORDER BY date",
        [q.asset_id, q.date_start, q.date_end],
      );
      const kept = rows.filter((r, i) => i === rows.length - 1 || periodOf(rows[i + 1]!.date, q.interval) !== periodOf(r.date, q.interval));
      const first = rows.length ? new Decimal(rows[0]!.close) : null;
      const page = kept.slice(q.offset, q.offset + q.limit);
      return {
        method: "stored daily close prices, in the asset's currency; `index` = close / the range's first close × 100",
        asset_id: q.asset_id, currency: view.asset.currency, interval: q.interval,
        prices: page.map((r) => ({
          date: r.date, close: String(r.close),
          index: first && !first.isZero() ? new Decimal(r.close).div(first).times(100).toDecimalPlaces(4).toFixed() : "100",
        })),
        next_offset: q.offset + q.limit < kept.length ? q.offset + q.limit : null,
        data_quality: rows.length
          ? { status: "ok", issues: [] }
          : { status: "partial", issues: [{ code: "MISSING_PRICE", severity: "warning", count: 1, affected_fx_pairs: [] }] },
      };
    },
  };
}
