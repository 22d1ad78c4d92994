import { Elysia } from "elysia";
import { z } from "zod";

const Domain = z.enum(["portfolio", "broker", "asset", "fx"]);
const DetailLevel = z.enum(["compact", "standard", "full"]);

const DatasetEntry = z.object({
  kind: z.enum(["dataset"]),
  id: z.string(),
  version: z.number().int(),
  domain: Domain,
  display_i18n_key: z.string(),
  description_i18n_key: z.string(),
  icon: z.string(),
  applicability_code: z.string(),
  applicable_pages: z.array(z.string()),
  supported_detail_levels: z.array(DetailLevel),
  period_semantics: z.enum(["none", "as_of", "windowed", "aggregated"]),
  required_component_ids: z.array(z.string()),
  optional_component_ids: z.array(z.string()),
});

const AnalysisEntry = z.object({
  kind: z.enum(["analysis"]),
  id: z.string(),
  version: z.number().int(),
  domain: Domain,
  display_i18n_key: z.string(),
  description_i18n_key: z.string(),
  icon: z.string(),
  applicability_code: z.string(),
  applicable_pages: z.array(z.string()),
  supported_detail_levels: z.array(DetailLevel),
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

export const AiExportCatalog = z.object({
  schema_version: z.number().int(),
  catalog_version: z.number().int(),
  datasets: z.array(DatasetEntry),
  analyses: z.array(AnalysisEntry),
});

/**
 * AI-export catalogue: public, static, no user data (SPEC). Datasets arrive with their
 * plugins; until then the catalogue is empty but fully typed.
 */
export function aiExportRoutes() {
  return new Elysia({ prefix: "/ai-export", tags: ["ai-export"] })
    .get("/catalog", () => ({
      schema_version: 1,
      catalog_version: 1,
      datasets: [] as z.infer<typeof DatasetEntry>[],
      analyses: [] as z.infer<typeof AnalysisEntry>[],
    }), {
      response: { 200: AiExportCatalog },
      detail: { summary: "Versioned catalogue of AI-export datasets and analyses (public)" },
    });
}
