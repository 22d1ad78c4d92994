import { z } from "zod";
import { DayField } from "../../http/fields.ts";

const Domain = z.enum(["portfolio", "broker", "asset", "fx"]);
const DetailLevel = z.enum(["compact", "standard", "full"]);
const Currency = z.string().regex(/^[A-Z]{3}$/, "must be an ISO 4217 code such as EUR");
const BrokerIds = z.array(z.number().int().positive()).min(1).max(100);

/** What datasets and analyses of the catalog both describe. */
const CatalogEntryFields = {
  id: z.string(),
  version: z.number().int(),
  domain: Domain,
  display_i18n_key: z.string(),
  description_i18n_key: z.string(),
  icon: z.string(),
  applicability_code: z.string(),
  applicable_pages: z.array(z.string()),
  supported_detail_levels: z.array(DetailLevel),
};

const DatasetEntry = z.object({
  kind: z.enum(["dataset"]),
  ...CatalogEntryFields,
  period_semantics: z.enum(["none", "as_of", "windowed", "aggregated"]),
  required_component_ids: z.array(z.string()),
  optional_component_ids: z.array(z.string()),
});

const AnalysisEntry = z.object({
  kind: z.enum(["analysis"]),
  ...CatalogEntryFields,
  required_dataset_ids: z.array(z.string()),
  optional_dataset_ids: z.array(z.string()),
  instruction_template_id: z.string(),
  instruction_template_version: z.number().int(),
  response_contract_id: z.string(),
  response_contract_version: z.number().int(),
  supports_user_notes: z.boolean(),
  additional_export_suggestions: z.array(z.object({
    dataset_id: z.string(),
    reason_i18n_key: z.string(),
    recommended_period: z.enum(["3m", "6m", "1y", "maximum_available"]),
    recommended_detail: DetailLevel,
    necessity: z.string(),
  })),
});

export const AiExportCatalogResponse = z.object({
  schema_version: z.number().int(),
  catalog_version: z.number().int(),
  datasets: z.array(DatasetEntry),
  analyses: z.array(AnalysisEntry),
});

const Selection = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("dataset"), id: z.string().min(1).max(128), version: z.number().int().positive() }).strict(),
  z.object({
    kind: z.literal("analysis"), id: z.string().min(1).max(128), version: z.number().int().positive(),
    instruction_template_id: z.string().min(1).max(160), instruction_template_version: z.number().int().positive(),
    response_contract_id: z.string().min(1).max(160), response_contract_version: z.number().int().positive(),
  }).strict(),
]);

const Common = {
  selection: Selection,
  detail_level: DetailLevel,
  period: z.object({ start: DayField, end: DayField }).strict(),
  target_currency: Currency.optional(),
  expected_catalog_version: z.number().int(),
  mask_amounts: z.boolean().default(false),
  user_notes: z.string().max(4000).optional(),
};

export const SnapshotRequest = z.discriminatedUnion("domain", [
  z.object({ domain: z.literal("portfolio"), broker_ids: BrokerIds.optional(), ...Common }).strict(),
  z.object({ domain: z.literal("broker"), broker_id: z.number().int().positive(), ...Common }).strict(),
  z.object({ domain: z.literal("asset"), asset_id: z.number().int().positive(), broker_ids: BrokerIds.optional(), ...Common }).strict(),
  z.object({ domain: z.literal("fx"), base_currency: Currency, quote_currency: Currency, broker_ids: BrokerIds.optional(), ...Common }).strict(),
]);
export type SnapshotRequest = z.infer<typeof SnapshotRequest>;

export const SnapshotResponse = z.object({
  selection: z.record(z.string(), z.unknown()),
  catalog_version: z.number().int(),
  generated_at: z.string(),
  period: z.object({ start: z.string(), end: z.string() }),
  target_currency: z.string(),
  detail_level: DetailLevel,
  data: z.record(z.string(), z.unknown()),
  markdown: z.string(),
});
