import { z } from "zod";
import { CurrencyField } from "../../http/fields.ts";
import { DataQualityIssue, OpenDateRange } from "./portfolio-fields.ts";

/** Brokers per report (docs/security.md "Bulk-read limits"); beyond it 413 LIMIT_EXCEEDED. */
export const MAX_REPORT_BROKERS = 1000;

export const ReportRequest = z.object({
  broker_ids: z.array(z.number().int().positive()).max(MAX_REPORT_BROKERS).nullish(),
  date_range: OpenDateRange.nullish(),
  target_currency: CurrencyField.nullish(),
  include_summary: z.boolean().default(true),
  include_history: z.boolean().default(true),
  include_allocation_history: z.boolean().default(true),
  include_breakdown: z.boolean().default(false),
  include_positions_contribution: z.boolean().default(false),
}).strict();

const Money = z.object({ code: z.string(), amount: z.string() });
const DataQuality = z.looseObject({
  issues: z.array(DataQualityIssue),
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
