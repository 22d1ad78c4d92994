import { z } from "zod";
import { CurrencyField, DayField } from "../../http/fields.ts";
import { GeographyGroupSchema, RISK_ERROR_CODES, RiskScenarioSchema } from "../../../sdk/index.ts";

const Id = z.number().int().positive();
const uniqueIds = (max: number) => z.array(Id).min(1).max(max).refine((a) => new Set(a).size === a.length, "ids must be unique");

export const RiskScope = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("asset"), asset_id: Id }).strict(),
  z.object({ kind: z.literal("asset_set"), asset_ids: uniqueIds(100) }).strict(),
  z.object({ kind: z.literal("portfolio"), broker_ids: uniqueIds(100).nullish(), asset_ids: uniqueIds(100).nullish() }).strict(),
]);

export const RiskDateRange = z.object({
  start: DayField,
  end: DayField.nullish().describe("Last day, inclusive; absent or null: today (UTC) (docs/decisions.md \"Date ranges\")"),
}).strict();

export const AnalyticRequest = z.object({
  instance_id: z.string().min(1).max(80).regex(/^[A-Za-z0-9][A-Za-z0-9_.:-]*$/).describe("Caller's id of this analytic in the request, echoed in its answer (unique)"),
  analytic_code: z.string().min(1).max(80).regex(/^[a-z][a-z0-9_]*$/).describe("An analytic of GET /risk/catalog"),
  parameters: z.record(z.string(), z.unknown()).default({}).describe("The analytic's parameters (its parameters_schema in the catalog)"),
}).strict();

export const RiskQueryRequest = z.object({
  scope: RiskScope,
  date_range: RiskDateRange,
  target_currency: CurrencyField.nullish(),
  mode: z.enum(["historical", "current_composition"]).describe("historical: the value series as it was (flows removed); current_composition: today's holdings held over the period"),
  composition_policy: z.literal("current_buy_and_hold").nullish().describe("Required with current_composition, absent otherwise"),
  analytics: z.array(AnalyticRequest).min(1).max(32).describe("1 to 32 analytics, each answered in its own envelope")
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

const Details = z.record(z.string(), z.unknown()).describe("Context of the warning or error (ids, counts, limits)");
const Warning = z.object({
  code: z.string(), message: z.string(), details: Details, degrades_result: z.boolean().describe("True when the result is less reliable because of it (status partial)"),
});

export const RiskItem = z.object({
  instance_id: z.string().describe("The request's instance_id"),
  analytic_code: z.string().describe("The analytic that ran"),
  status: z.enum(["ok", "partial", "unavailable", "failed"]),
  output: z.record(z.string(), z.unknown()).nullable().describe("The result, discriminated by `kind` (docs/risk.md); null when it failed"),
  metadata: z.object({
    algorithm_version: z.string().describe("Version of the analytic's math"),
    scope_kind: z.enum(["asset", "asset_set", "portfolio"]).describe("What the analytic ran on"),
    mode: z.enum(["historical", "current_composition"]).describe("How the scope was weighted"),
    target_currency: z.string().describe("Currency of the money figures"),
    requested_start: DayField.describe("First day of the requested period"),
    requested_end: DayField.describe("Last day of the requested period"),
    observations_start: DayField.nullable().describe("First day with data; null when there is none"),
    observations_end: DayField.nullable().describe("Last day with data; null when there is none"),
    cached: z.boolean().describe("True when the result came from the cache"),
  }).nullable().describe("How it ran; null when it failed before running"),
  data_quality: z.object({
    data_quality_status: z.enum(["ok", "partial"]).describe("partial when some input is missing"),
    missing_price_assets: z.array(z.number().int()).describe("Assets without prices in the period"),
    missing_fx_pairs: z.array(z.string()).describe("FX pairs FROM/TO missing to convert to the target currency"),
    incomplete_nav_dates_count: z.number().int().describe("Days where a held asset had no price"),
    observations_start: DayField.nullable().describe("First day with data; null when there is none"),
    observations_end: DayField.nullable().describe("Last day with data; null when there is none"),
  }).nullable().describe("Quality of the inputs; null when it failed before reading them"),
  warnings: z.array(Warning),
  error: z.object({ code: z.enum(RISK_ERROR_CODES), message: z.string(), details: Details }).nullable(),
});
export const RiskQueryResponse = z.object({ items: z.array(RiskItem) });

export const RiskCatalogResponse = z.object({
  items: z.array(z.object({
    analytic_code: z.string().describe("Code to put in a query's analytics"), name: z.string(), description: z.string(),
    name_i18n_key: z.string().describe("Translation key of the name"), description_i18n_key: z.string(),
    output_kind: z.string().describe("The `kind` of its output"), supported_scopes: z.array(z.string()).describe("Scopes it accepts: asset, asset_set, portfolio"),
    supported_modes: z.array(z.string()).describe("Modes it accepts: historical, current_composition"),
    parameters_schema: z.record(z.string(), z.unknown()).describe("JSON Schema of its parameters"),
    min_observations: z.number().int().describe("Return observations it needs at least"), algorithm_version: z.string().describe("Version of its math"),
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
    asset_id: z.number().int(), level: z.enum(["eligible", "warning", "ineligible"]).describe("Whether its quotes can feed risk analytics"),
    reasons: z.array(z.string()).describe("Why it is ineligible (no_price_history, no_prices, too_few_quotes, missing_fx) or a warning (starts_late, stale_at_end)"),
    first_quote: z.string().nullable().describe("First quote date in the period"), last_quote: z.string().nullable().describe("Last quote date in the period"),
    quotes_in_period: z.number().int().describe("Quotes in the period"),
  })),
  min_quotes: z.number().int().describe("Quotes needed at least"),
  stale_days: z.number().int(),
  common_range: z.object({ start: z.string(), end: z.string() }).nullable().describe("Period every usable asset has quotes in"),
  suggested_range: z.object({ start: z.string(), end: z.string() }).nullable().describe("The common range when it differs from the request"),
});

export const ScenarioCatalogResponse = z.object({
  items: z.array(z.object({
    source: z.enum(["built_in", "host"]), source_file: z.string().describe("File the scenario came from"),
    scenario: RiskScenarioSchema.describe("The scenario as its file defines it (docs/risk.md \"Scenarios\")"),
  })),
  geography_groups: z.array(GeographyGroupSchema).describe("Country groups a geography shock may name"),
  status: z.object({
    schema_version: z.number().int(), loaded_at: z.string().describe("When the files were read (ISO 8601, UTC)"),
    built_in_count: z.number().int().describe("Built-in scenarios loaded"), host_count: z.number().int().describe("Scenarios loaded from DATA_DIR/scenarios"),
    warning_count: z.number().int().describe("Files left out"),
  }),
  warnings: z.array(z.object({ source_file: z.string().describe("The file left out"), message: z.string() })),
});
