import { z } from "zod";
import { CurrencyField } from "../fields.ts";

const DateField = z.iso.date();

/** `start` absent, null or "min" and `end` absent, null or "max" leave that side open (docs/portfolio.md "Period"). */
const ReportDateRange = z.object({
  start: z.union([DateField, z.enum(["min"])]).nullish(),
  end: z.union([DateField, z.enum(["max"])]).nullish(),
}).strict().refine((r) => !r.start || r.start === "min" || !r.end || r.end === "max" || r.end >= r.start, {
  message: "end must not be before start", path: ["end"],
});

export const ReportRequest = z.object({
  broker_ids: z.array(z.number().int().positive()).max(1000).nullish(),
  date_range: ReportDateRange.nullish(),
  target_currency: CurrencyField.nullish(),
  include_summary: z.boolean().default(true),
  include_history: z.boolean().default(true),
  include_allocation_history: z.boolean().default(true),
  include_breakdown: z.boolean().default(false),
  include_positions_contribution: z.boolean().default(false),
}).strict();

const Money = z.object({ code: z.string(), amount: z.string() });
const Issue = z.looseObject({
  domain: z.enum(["portfolio"]),
  code: z.string(),
  severity: z.enum(["error", "warning", "info"]),
  count: z.number().int(),
  affected_asset_ids: z.array(z.number().int()),
  affected_asset_names: z.array(z.string()),
  affected_fx_pairs: z.array(z.string()),
  cta_action: z.string().nullable(),
  cta_target: z.string().nullable(),
  message_i18n_key: z.string(),
  message_params: z.record(z.string(), z.unknown()),
  date_range: z.object({ start: z.string(), end: z.string() }).nullable(),
  group: z.string().nullable(),
});
const DataQuality = z.looseObject({
  issues: z.array(Issue),
  data_quality_status: z.enum(["ok", "carried_forward", "partial"]),
  missing_fx_pairs: z.array(z.object({ pair: z.string(), dates: z.array(z.string()) })),
  stale_prices: z.array(z.object({ asset_id: z.number().int(), name: z.string(), last_price_date: z.string(), stale_days: z.number().int() })),
  incomplete_nav_dates: z.array(z.string()),
});

/** Documented shape (the body is served pre-serialised from the cache; docs/portfolio.md "Report" lists every field). */
export const ReportResponse = z.object({
  metadata: z.looseObject({ target_currency: z.string(), generated_at: z.string() }),
  summary: z.looseObject({
    net_worth: Money, cash_total: Money, market_value: Money, mwrr_available: z.boolean(), mwrr_cumulative_percent: z.string().nullable(),
    twrr_percent: z.string().nullable(), missing_fx_pairs: z.array(z.object({ pair: z.string(), dates: z.array(z.string()) })),
    holdings: z.array(z.looseObject({ asset_id: z.number().int(), quantity: z.string() })), data_quality: DataQuality,
  }).nullable(),
  history: z.array(z.looseObject({
    date: z.string(), nav_value: Money, twrr: z.string(), mwrr_annualized: z.string().nullable(), mwrr_cumulative: z.string().nullable(),
  })).nullable(),
  allocation_history: z.looseObject({}).nullable(),
  data_quality: DataQuality,
  positions_contribution: z.looseObject({}).nullable(),
});
