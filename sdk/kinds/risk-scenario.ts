/** Stress scenarios as data: the schema every scenario file (built-in or `DATA_DIR/scenarios/*.json`) must follow (docs/risk.md). */
import { z } from "zod";

const Slug = z.string().regex(/^[a-z][a-z0-9_]{0,79}$/, "a snake_case id");
const Text = z.record(z.string().regex(/^[a-z]{2}$/), z.string().min(1)).refine((t) => "en" in t, "an English text is required");
const Day = z.iso.date();
const Shock = z.number().min(-1).max(1);

const Common = { schema_version: z.literal(1), id: Slug, tags: z.array(z.string()).max(20).default([]), name: Text, description: Text };

const HistoricalReplaySchema = z.object({
  ...Common,
  kind: z.literal("historical_replay"),
  defaults: z.object({
    start: Day.optional(), end: Day.optional(),
    missing_history_policy: z.literal("manual_proxy_or_exclude").describe("An asset without history in the window takes its proxy, else is excluded"),
    composition_policy: z.literal("current_buy_and_hold"),
  }).strict().describe("The replay window and policies used when the request names none"),
  editable: z.object({
    dates: z.boolean().describe("Whether a request may change the window"),
    missing_history_policy: z.boolean().describe("Whether a request may change the missing-history policy"),
    proxies: z.boolean().describe("Whether a request may name proxies"),
    exclusions: z.boolean().describe("Whether a request may exclude assets"),
  }).strict().describe("What a request may change"),
  limits: z.object({
    minimum_calendar_days: z.number().int().min(1).describe("Shortest window, in calendar days"),
    maximum_calendar_days: z.number().int().min(1).optional().describe("Longest window, in calendar days; absent for no limit"),
  }).strict().describe("Bounds of the window"),
}).strict().refine((s) => !s.defaults.start || !s.defaults.end || s.defaults.start < s.defaults.end, "defaults.start must be before defaults.end")
  .refine((s) => s.editable.dates || (s.defaults.start && s.defaults.end), "a replay with fixed dates needs defaults.start and defaults.end");

const HypotheticalShockSchema = z.object({
  ...Common,
  kind: z.literal("hypothetical_shock"),
  allowed_dimensions: z.array(z.enum(["asset_class", "sector", "geography"])).min(1).describe("Dimensions a request may shock by"),
  defaults: z.object({
    dimension: z.enum(["asset_class", "sector", "geography"]).describe("Dimension the buckets are of"),
    bucket_shocks: z.record(z.string(), Shock).describe("Shock (fraction, −1 to 1) per bucket: asset type, sector, country or geography group"),
  }).strict().describe("The shocks used when the request names none"),
  editable: z.object({
    dimension: z.boolean().describe("Whether a request may change the dimension"),
    bucket_shocks: z.boolean().describe("Whether a request may change the bucket shocks"),
    manual_overrides: z.boolean().describe("Whether a request may set shocks per asset"),
  }).strict().describe("What a request may change"),
  limits: z.object({
    minimum_shock: z.number().min(-1).describe("Lowest shock a request may set"),
    maximum_shock: z.number().max(10).describe("Highest shock a request may set"),
    maximum_buckets: z.number().int().min(1).max(1000).describe("Most buckets a request may set"),
  }).strict().describe("Bounds of the shocks"),
}).strict().refine((s) => s.allowed_dimensions.includes(s.defaults.dimension), "defaults.dimension must be an allowed dimension")
  .refine((s) => Object.keys(s.defaults.bucket_shocks).length <= s.limits.maximum_buckets, "too many buckets");

export const RiskScenarioSchema = z.union([HistoricalReplaySchema, HypotheticalShockSchema]);
export type RiskScenario = z.output<typeof RiskScenarioSchema>;

export const GeographyGroupSchema = z.object({ schema_version: z.literal(1), id: Slug, name: Text, members: z.array(z.string().regex(/^[A-Z]{3}$/)).min(1) }).strict();
export type GeographyGroup = z.output<typeof GeographyGroupSchema>;
