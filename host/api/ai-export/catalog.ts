import type { AiExportDataset, AiExportDetailLevel } from "../../../sdk/index.ts";
import type { PluginRegistry } from "../../plugins/registry.ts";
import { ANALYSES, type AnalysisSpec, instructionsId, responseId } from "./analyses.ts";

/** Shape of the catalog document (docs/ai-export.md "Catalog and versions"). */
export const AI_EXPORT_SCHEMA_VERSION = 1;
/**
 * Version of the built-in catalog: bumped whenever a built-in dataset's or analysis' version, a
 * template or a component's output changes (the golden files in test/fixtures/ai-export pin them).
 */
export const AI_EXPORT_CATALOG_VERSION = 1;

export interface DatasetEntry {
  readonly dataset: AiExportDataset;
  readonly hidden: boolean;
}

/** Datasets from the registry (built-in and PLUGINS_DIR) and the analyses whose datasets are all loaded. */
export class AiExportCatalog {
  readonly datasets = new Map<string, DatasetEntry>();
  readonly analyses = new Map<string, AnalysisSpec>();

  constructor(registry: PluginRegistry) {
    for (const loaded of registry.list("ai-export-dataset")) {
      const dataset = loaded.instance;
      if (this.datasets.has(dataset.id)) continue; // first wins, as plugin ids do
      this.datasets.set(dataset.id, { dataset, hidden: loaded.manifest.hidden === true });
    }
    for (const a of ANALYSES) {
      if (a.requiredDatasetIds.every((id) => this.datasets.has(id))) this.analyses.set(a.id, a);
    }
  }

  wire() {
    const datasets = [...this.datasets.values()].filter((d) => !d.hidden).map(({ dataset }) => {
      const d = dataset.describe();
      return {
        kind: "dataset" as const,
        id: dataset.id,
        version: dataset.datasetVersion,
        domain: d.domain,
        display_i18n_key: `ai_export.dataset.${dataset.id}.name`,
        description_i18n_key: `ai_export.dataset.${dataset.id}.description`,
        icon: d.icon ?? "dataset",
        applicability_code: d.applicabilityCode ?? "always",
        applicable_pages: [...(d.applicablePages ?? [d.domain])],
        supported_detail_levels: [...d.supportedDetailLevels] as AiExportDetailLevel[],
        period_semantics: d.periodSemantics,
        required_component_ids: [...(d.requiredComponentIds ?? [])],
        optional_component_ids: [...(d.optionalComponentIds ?? [])],
      };
    }).sort((a, b) => a.id.localeCompare(b.id));
    const analyses = [...this.analyses.values()].map((a) => ({
      kind: "analysis" as const,
      id: a.id,
      version: a.version,
      domain: a.domain,
      display_i18n_key: `ai_export.analysis.${a.id}.name`,
      description_i18n_key: `ai_export.analysis.${a.id}.description`,
      icon: a.icon,
      applicability_code: a.applicabilityCode,
      applicable_pages: a.pages,
      supported_detail_levels: ["compact", "standard", "full"] as AiExportDetailLevel[],
      required_dataset_ids: a.requiredDatasetIds,
      optional_dataset_ids: a.optionalDatasetIds,
      instruction_template_id: instructionsId(a),
      instruction_template_version: a.instructionsVersion,
      response_contract_id: responseId(a),
      response_contract_version: a.responseVersion,
      supports_user_notes: true,
      additional_export_suggestions: a.suggestions,
    })).sort((a, b) => a.id.localeCompare(b.id));
    return { schema_version: AI_EXPORT_SCHEMA_VERSION, catalog_version: AI_EXPORT_CATALOG_VERSION, datasets, analyses };
  }
}
