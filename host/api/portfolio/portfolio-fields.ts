import { z } from "zod";
import { DayField } from "../../http/fields.ts";

/** Wire pieces the portfolio routes share (docs/portfolio.md). */

/** `start` absent, null or "min" and `end` absent, null or "max" leave that side open (docs/portfolio.md "Period"). */
export const OpenDateRange = z.object({
  start: z.union([DayField, z.enum(["min"])]).nullish().describe("Absent, null or \"min\": the first transaction in scope"),
  end: z.union([DayField, z.enum(["max"])]).nullish().describe("Last day, inclusive; absent, null or \"max\": today (UTC) (docs/decisions.md \"Date ranges\")"),
}).strict().refine((r) => !r.start || r.start === "min" || !r.end || r.end === "max" || r.end >= r.start, {
  message: "end must not be before start", path: ["end"],
});

/** A data-quality issue (docs/portfolio.md "Data quality"). */
export const DataQualityIssue = z.object({
  domain: z.enum(["portfolio"]),
  code: z.string(),
  severity: z.enum(["error", "warning", "info"]),
  count: z.number().int(),
  affected_asset_ids: z.array(z.number().int()),
  affected_asset_names: z.array(z.string()),
  affected_fx_pairs: z.array(z.string()),
  cta_action: z.enum(["navigate_asset", "navigate_fx", "add_fx_pair", "sync_fx_pair", "sync_asset_prices"]).nullable(),
  cta_target: z.string().nullable(),
  message_i18n_key: z.string(),
  message_params: z.record(z.string(), z.union([z.string(), z.number(), z.array(z.number()), z.null()])),
  date_range: z.object({ start: DayField, end: DayField }).nullable(),
  group: z.string().nullable(),
}).meta({ id: "DataQualityIssue", description: "A data-quality issue (docs/portfolio.md \"Data quality\")" });

export const MissingPriceAsset = z.object({
  asset_id: z.number().int(),
  symbol: z.string().nullable().describe("Ticker of the asset; null when it has none"),
  name: z.string().describe("Name of the asset"),
  broker_id: z.number().int(),
  broker_name: z.string().nullable().describe("Name of the broker; null when not known"),
  first_position_date: DayField.nullable().describe("First day the position was held; null when not known"),
  quantity: z.string().describe("Units held, a decimal string"),
  open_cost_basis: z.string().nullable().describe("Cost of the open units in the target currency, a decimal string; null when not known"),
  currency: z.string().describe("Currency of the asset"),
}).meta({ id: "MissingPriceAsset", description: "An open position without a price on the end date" });

export const StalePrice = z.object({
  asset_id: z.number().int(),
  name: z.string().describe("Name of the asset"),
  last_price_date: DayField,
  stale_days: z.number().int(),
}).meta({ id: "StalePrice", description: "A position valued at a price carried forward more than 7 days" });

export const DataQualityReportSchema = z.object({
  issues: z.array(DataQualityIssue),
  data_quality_status: z.enum(["ok", "carried_forward", "partial"]),
  missing_price_assets: z.array(MissingPriceAsset),
  missing_fx_pairs: z.array(z.object({ pair: z.string().describe("Pair FROM/TO"), dates: z.array(DayField) })),
  stale_prices: z.array(StalePrice),
  incomplete_nav_dates: z.array(DayField),
}).meta({ id: "DataQualityReport", description: "Data-quality report of a portfolio result (docs/portfolio.md \"Data quality\")" });
