import { z } from "zod";
import { CurrencyField } from "../fields.ts";
import { DateField } from "../portfolio/portfolio-fields.ts";

const Id = z.number().int().positive();
const uniqueIds = (max: number) => z.array(Id).min(1).max(max).refine((a) => new Set(a).size === a.length, "ids must be unique");

export const RiskScope = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("asset"), asset_id: Id }).strict(),
  z.object({ kind: z.literal("asset_set"), asset_ids: uniqueIds(100) }).strict(),
  z.object({ kind: z.literal("portfolio"), broker_ids: uniqueIds(100).nullish(), asset_ids: uniqueIds(100).nullish() }).strict(),
]);

export const RiskDateRange = z.object({
  start: DateField,
  end: DateField.nullish().describe("Absent or null: today (UTC)"),
}).strict();

export const AnalyticRequest = z.object({
  instance_id: z.string().min(1).max(80).regex(/^[A-Za-z0-9][A-Za-z0-9_.:-]*$/),
  analytic_code: z.string().min(1).max(80).regex(/^[a-z][a-z0-9_]*$/),
  parameters: z.record(z.string(), z.unknown()).default({}),
}).strict();

export const RiskQueryRequest = z.object({
  scope: RiskScope,
  date_range: RiskDateRange,
  target_currency: CurrencyField.nullish(),
  mode: z.enum(["historical", "current_composition"]),
  composition_policy: z.literal("current_buy_and_hold").nullish(),
  analytics: z.array(AnalyticRequest).min(1).max(32)
    .refine((a) => new Set(a.map((x) => x.instance_id)).size === a.length, "instance_id must be unique"),
}).strict().superRefine((body, ctx) => {
  if (body.mode === "current_composition" && !body.composition_policy) {
    ctx.addIssue({ code: "custom", path: ["composition_policy"], message: "required when mode is current_composition" });
  }
  if (body.mode === "historical" && body.composition_policy) {
    ctx.addIssue({ code: "custom", path: ["composition_policy"], message: "only with mode current_composition" });
  }
  if (body.date_range.end && body.date_range.end < body.date_range.start) {
    ctx.addIssue({ code: "custom", path: ["date_range", "end"], message: "end must not be before start" });
  }
});
export type RiskQueryRequest = z.output<typeof RiskQueryRequest>;

const Warning = z.object({ code: z.string(), message: z.string(), details: z.record(z.string(), z.unknown()), degrades_result: z.boolean() });

export const RiskItem = z.object({
  instance_id: z.string(),
  analytic_code: z.string(),
  status: z.enum(["ok", "partial", "unavailable", "failed"]),
  output: z.record(z.string(), z.unknown()).nullable(),
  metadata: z.record(z.string(), z.unknown()).nullable(),
  data_quality: z.record(z.string(), z.unknown()).nullable(),
  warnings: z.array(Warning),
  error: z.object({ code: z.string(), message: z.string(), details: z.record(z.string(), z.unknown()) }).nullable(),
});
export const RiskQueryResponse = z.object({ items: z.array(RiskItem) });

export const RiskCatalogResponse = z.object({
  items: z.array(z.object({
    analytic_code: z.string(), name: z.string(), description: z.string(), name_i18n_key: z.string(), description_i18n_key: z.string(),
    output_kind: z.string(), supported_scopes: z.array(z.string()), supported_modes: z.array(z.string()),
    parameters_schema: z.record(z.string(), z.unknown()), min_observations: z.number().int(), algorithm_version: z.string(),
  })),
});

export const EligibilityRequest = z.object({
  asset_ids: uniqueIds(500),
  date_range: RiskDateRange,
  target_currency: CurrencyField.nullish(),
}).strict().superRefine((body, ctx) => {
  if (body.date_range.end && body.date_range.end < body.date_range.start) {
    ctx.addIssue({ code: "custom", path: ["date_range", "end"], message: "end must not be before start" });
  }
});

export const EligibilityResponse = z.object({
  items: z.array(z.object({
    asset_id: z.number().int(), level: z.enum(["eligible", "warning", "ineligible"]), reasons: z.array(z.string()),
    first_quote: z.string().nullable(), last_quote: z.string().nullable(), quotes_in_period: z.number().int(),
  })),
  min_quotes: z.number().int(),
  stale_days: z.number().int(),
  common_range: z.object({ start: z.string(), end: z.string() }).nullable(),
  suggested_range: z.object({ start: z.string(), end: z.string() }).nullable(),
});

export const ScenarioCatalogResponse = z.object({
  items: z.array(z.object({ source: z.enum(["built_in", "host"]), source_file: z.string(), scenario: z.looseObject({ id: z.string(), kind: z.string() }) })),
  geography_groups: z.array(z.looseObject({ id: z.string(), members: z.array(z.string()) })),
  status: z.object({
    schema_version: z.number().int(), loaded_at: z.string(), built_in_count: z.number().int(), host_count: z.number().int(), warning_count: z.number().int(),
  }),
  warnings: z.array(z.object({ source_file: z.string(), message: z.string() })),
});
