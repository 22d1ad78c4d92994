import { In } from "typeorm";
import { z } from "zod";
import { DayField } from "../../http/fields.ts";
import { brokerNotFound } from "../../../core/brokers/broker-access.service.ts";
import { BrokerAccess } from "../../../core/brokers/broker-access.entity.ts";
import { Database } from "../../../core/db/database.ts";
import { NotFoundError, ValidationError } from "../../../core/errors/domain-error.ts";
import { Transaction } from "../../../core/transactions/transaction.entity.ts";
import type { McpGrade, McpScope } from "../../../core/users/access-token.service.ts";
import type { HttpDeps } from "../../http/deps.ts";
import { AI_EXPORT_CATALOG_VERSION, AiExportCatalog } from "../ai-export/catalog.ts";
import { AiExportSnapshotService } from "../ai-export/snapshot.service.ts";
import { PortfolioEngineAdapter } from "../portfolio/engine-adapter.ts";

/**
 * The `ai_export_dataset` MCP tool (docs/mcp.md): the structured `data` of an AI-export dataset
 * (docs/ai-export.md), never its markdown (free text the grade filter cannot read). At `relative` the
 * export's own `mask_amounts` runs first (it removes every money object and unit count, whatever its
 * field name), then the grade filter; `aggregate` does not list it (every dataset names holdings, or is
 * about one broker, asset or pair).
 */

/**
 * The selectable datasets: every public one of the catalogue. The FIFO datasets are internal to the
 * export (`lots_and_realised_gains` answers them).
 */
export const DATASETS = [
  "portfolio.overview_and_history", "portfolio.asset_history", "broker.overview_and_history", "broker.asset_history",
  "asset.position_and_history", "asset.market_history", "fx.market_and_exposure", "fx.market_history",
] as const;
export type DatasetId = (typeof DATASETS)[number];
export type DatasetDomain = "portfolio" | "broker" | "asset" | "fx";

/** What a dataset of each domain selects beside the period, as `POST /ai-export/snapshot` takes it. */
export const SELECTION_ARGS: Record<DatasetDomain, readonly ("broker_id" | "asset_id" | "base_currency" | "quote_currency")[]> = {
  portfolio: [], broker: ["broker_id"], asset: ["asset_id"], fx: ["base_currency", "quote_currency"],
};

export const datasetDomain = (id: string): DatasetDomain => id.split(".")[0] as DatasetDomain;

const Currency = z.string().regex(/^[A-Z]{3}$/, "must be an ISO 4217 code such as EUR");

export const AiExportInput = z.object({
  dataset_id: z.enum(DATASETS).describe("A dataset of the AI-export catalogue"),
  broker_id: z.number().int().positive().optional().describe("broker.* datasets (required there): one of the token's brokers"),
  asset_id: z.number().int().positive().optional()
    .describe("asset.* datasets (required there): for asset.position_and_history an asset held (now or before) in the token's brokers, for asset.market_history any asset of `asset_search`"),
  base_currency: Currency.optional().describe("fx.* datasets (required there): the pair's base currency"),
  quote_currency: Currency.optional().describe("fx.* datasets (required there): the pair's quote currency"),
  detail_level: z.enum(["compact", "standard", "full"]).default("compact").describe("compact (about 2,000 tokens), standard or full (docs/ai-export.md)"),
  date_start: DayField.describe("First day of the period"),
  date_end: DayField.describe("Last day of the period"),
}).strict();

/** The selection arguments must be exactly the dataset's domain's: a missing one or one of another domain is refused. */
function checkSelection(q: z.infer<typeof AiExportInput>): void {
  const wanted = SELECTION_ARGS[datasetDomain(q.dataset_id)];
  const issues = (["broker_id", "asset_id", "base_currency", "quote_currency"] as const).flatMap((k) => {
    if (wanted.includes(k) && q[k] === undefined) return [{ loc: ["arguments", k], msg: `required for ${q.dataset_id}`, type: "missing" }];
    if (!wanted.includes(k) && q[k] !== undefined) return [{ loc: ["arguments", k], msg: `not taken by ${q.dataset_id}`, type: "extra_forbidden" }];
    return [];
  });
  if (issues.length) throw new ValidationError(issues, `${q.dataset_id} takes ${wanted.length ? wanted.join(", ") : "no selection"} beside the period`);
}

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
  const db = deps.container.resolve(Database);
  const snapshots = new AiExportSnapshotService(deps.container, catalog, new PortfolioEngineAdapter(deps.container, deps.config.dataDir));
  return async (userId: number, scope: McpScope, grade: McpGrade, q: z.infer<typeof AiExportInput>): Promise<z.infer<typeof AiExportOut>> => {
    checkSelection(q);
    const domain = datasetDomain(q.dataset_id);
    const within = await brokers(userId, scope);
    let brokerIds = within ?? undefined;
    if (domain === "broker") {
      // Another broker is "not found", never "exists but outside this token" (the snapshot checks the owner's access row too).
      if (within && !within.includes(q.broker_id!)) throw brokerNotFound(q.broker_id!);
      brokerIds = [q.broker_id!];
    }
    if (q.dataset_id === "asset.position_and_history") {
      // A position is the token's business only if its brokers hold or held the asset; an asset outside them is "not found".
      const ids = within ?? (await db.reads.findBy(BrokerAccess, { userId })).map((a) => a.brokerId);
      const held = ids.length ? await db.reads.findOne(Transaction, { select: { id: true }, where: { brokerId: In(ids), assetId: q.asset_id! } }) : null;
      if (!held) throw new NotFoundError("ASSET_NOT_FOUND", `Asset ${q.asset_id} not found`, { asset_id: q.asset_id });
    }
    const version = catalog.datasets.get(q.dataset_id)!.dataset.datasetVersion;
    const masked = grade !== "full";
    const snap = await snapshots.snapshot(userId, {
      ...(brokerIds ? { brokerIds } : {}),
      ...(domain === "asset" ? { assetId: q.asset_id! } : {}),
      ...(domain === "fx" ? { pair: { base: q.base_currency!, quote: q.quote_currency! } } : {}),
      detailLevel: q.detail_level, domain, expectedCatalogVersion: AI_EXPORT_CATALOG_VERSION, maskAmounts: masked,
      period: { start: q.date_start, end: q.date_end }, selection: { kind: "dataset", id: q.dataset_id, version },
    });
    return {
      method: "the AI export's dataset builder (docs/ai-export.md), structured data only",
      dataset_id: q.dataset_id, dataset_version: version, detail_level: snap.detail_level, currency: snap.target_currency,
      amounts_masked: masked, data: snap.data, data_quality: { status: "not_applicable", issues: [] },
    };
  };
}
