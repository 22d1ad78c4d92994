import { z } from "zod";
import type { McpGrade, McpScope } from "../../../core/users/access-token.service.ts";
import type { HttpDeps } from "../../http/deps.ts";
import { AI_EXPORT_CATALOG_VERSION, AiExportCatalog } from "../ai-export/catalog.ts";
import { AiExportSnapshotService } from "../ai-export/snapshot.service.ts";
import { PortfolioEngineAdapter } from "../portfolio/engine-adapter.ts";

/**
 * The `ai_export_dataset` MCP tool (docs/mcp.md): the structured `data` of a portfolio-domain
 * AI-export dataset (docs/ai-export.md), never its markdown (free text the grade filter cannot read).
 * At `relative` the export's own `mask_amounts` runs first (it removes every money object and unit
 * count, whatever its field name), then the grade filter; `aggregate` does not list it (datasets name
 * holdings).
 */

/** The selectable portfolio datasets (`portfolio.fifo` is internal to the export; `lots_and_realised_gains` answers it). */
export const PORTFOLIO_DATASETS = ["portfolio.overview_and_history", "portfolio.asset_history"] as const;

const Day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

export const AiExportInput = z.object({
  dataset_id: z.enum(PORTFOLIO_DATASETS).describe("A portfolio dataset of the AI-export catalogue"),
  detail_level: z.enum(["compact", "standard", "full"]).default("compact").describe("compact (about 2,000 tokens), standard or full (docs/ai-export.md)"),
  date_start: Day.describe("First day of the period"),
  date_end: Day.describe("Last day of the period"),
}).strict();

export const AiExportOut = z.object({
  method: z.string().describe("How the data was built"),
  dataset_id: z.string().describe("The dataset"),
  dataset_version: z.number().int().describe("Its version in the catalogue"),
  detail_level: z.string().describe("The detail level used"),
  currency: z.string().describe("The currency amounts are in"),
  amounts_masked: z.boolean().describe("True below the `full` grade: money objects and unit counts removed"),
  data: z.record(z.string(), z.unknown()).describe("The dataset's machine-readable data (docs/ai-export.md \"Datasets\")"),
  data_quality: z.object({
    status: z.enum(["ok", "carried_forward", "partial", "not_applicable"]).describe("`not_applicable`: the dataset carries its own quality fields in `data`"),
    issues: z.array(z.object({ code: z.string().describe("Issue code"), severity: z.string().describe("Severity"), count: z.number().int().describe("Count"),
      affected_fx_pairs: z.array(z.string()).describe("FX pairs") })).describe("Always empty: see `data`"),
  }).describe("Data-quality status"),
});

export function mcpAiExport(deps: HttpDeps, brokers: (userId: number, scope: McpScope) => Promise<number[] | null>) {
  const catalog = deps.container.resolve(AiExportCatalog);
  const snapshots = new AiExportSnapshotService(deps.container, catalog, new PortfolioEngineAdapter(deps.container, deps.config.dataDir));
  return async (userId: number, scope: McpScope, grade: McpGrade, q: z.infer<typeof AiExportInput>): Promise<z.infer<typeof AiExportOut>> => {
    const within = await brokers(userId, scope);
    const version = catalog.datasets.get(q.dataset_id)!.dataset.datasetVersion;
    const masked = grade !== "full";
    const snap = await snapshots.snapshot(userId, {
      ...(within ? { brokerIds: within } : {}),
      detailLevel: q.detail_level, domain: "portfolio", expectedCatalogVersion: AI_EXPORT_CATALOG_VERSION, maskAmounts: masked,
      period: { start: q.date_start, end: q.date_end }, selection: { kind: "dataset", id: q.dataset_id, version },
    });
    return {
      method: "the AI export's dataset builder (docs/ai-export.md), structured data only",
      dataset_id: q.dataset_id, dataset_version: version, detail_level: snap.detail_level, currency: snap.target_currency,
      amounts_masked: masked, data: snap.data, data_quality: { status: "not_applicable", issues: [] },
    };
  };
}
