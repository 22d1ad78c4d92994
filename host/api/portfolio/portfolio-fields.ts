import { z } from "zod";

/** Wire pieces the portfolio routes share (docs/portfolio.md). */

export const DateField = z.iso.date();

/** `start` absent, null or "min" and `end` absent, null or "max" leave that side open (docs/portfolio.md "Period"). */
export const OpenDateRange = z.object({
  start: z.union([DateField, z.enum(["min"])]).nullish().describe("Absent, null or \"min\": the first transaction in scope"),
  end: z.union([DateField, z.enum(["max"])]).nullish().describe("Last day, inclusive; absent, null or \"max\": today (UTC) (docs/decisions.md \"Date ranges\")"),
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
  cta_action: z.string().nullable(),
  cta_target: z.string().nullable(),
  message_i18n_key: z.string(),
  message_params: z.record(z.string(), z.unknown()),
  date_range: z.object({ start: DateField, end: DateField }).nullable(),
  group: z.string().nullable(),
});
