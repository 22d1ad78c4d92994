import type { DependencyContainer } from "tsyringe";
import { Asset } from "../../../core/assets/asset.entity.ts";
import { BrokerAccess } from "../../../core/brokers/broker-access.entity.ts";
import { brokerNotFound } from "../../../core/brokers/broker-access.service.ts";
import { Database } from "../../../core/db/database.ts";
import {
  ConflictError, DomainError, NotFoundError, UnavailableError, ValidationError,
} from "../../../core/errors/domain-error.ts";
import { UserSettingsService } from "../../../core/settings/user-settings.service.ts";
import type { AiExportDetailLevel, AiExportQuery, CurrencyCode, IsoDate } from "../../../sdk/index.ts";
import type { PortfolioEngineAdapter } from "../portfolio/engine-adapter.ts";
import { instructionsId, responseId } from "./analyses.ts";
import { AI_EXPORT_CATALOG_VERSION, type AiExportCatalog } from "./catalog.ts";
import { ComponentReader } from "./components.ts";
import { renderMarkdown } from "./markdown.ts";
import { maskAmounts } from "./mask.ts";

export type Selection =
  | { kind: "dataset"; id: string; version: number }
  | {
    kind: "analysis"; id: string; version: number; instruction_template_id: string; instruction_template_version: number;
    response_contract_id: string; response_contract_version: number;
  };

export interface SnapshotRequest {
  assetId?: number;
  brokerIds?: number[];
  detailLevel: AiExportDetailLevel;
  domain: "asset" | "broker" | "fx" | "portfolio";
  expectedCatalogVersion: number;
  maskAmounts: boolean;
  pair?: { base: string; quote: string };
  period: { start: string; end: string };
  selection: Selection;
  targetCurrency?: string;
  userNotes?: string;
}

function unsupported(message: string, params: Record<string, unknown>): DomainError {
  return new ValidationError([{ loc: ["body", "selection"], msg: message, type: "unsupported_selection" }], message, "UNSUPPORTED_SELECTION", params);
}

function mismatch(field: string, expected: unknown, actual: unknown): ConflictError {
  return new ConflictError("VERSION_MISMATCH", `${field} is ${String(expected)} now, not ${String(actual)}; reload the catalog`, { field, expected, actual });
}

/**
 * `POST /ai-export/snapshot` (docs/ai-export.md): checks the selection against the catalog, the
 * brokers against the caller's access rows, builds each dataset through its plugin with a reader
 * over the engines, masks amounts on request and renders the markdown.
 */
export class AiExportSnapshotService {
  private readonly db: Database;
  private readonly settings: UserSettingsService;

  constructor(
    private readonly container: DependencyContainer,
    private readonly catalog: AiExportCatalog,
    private readonly engine: PortfolioEngineAdapter,
  ) {
    this.db = container.resolve(Database);
    this.settings = container.resolve(UserSettingsService);
  }

  async snapshot(userId: number, req: SnapshotRequest) {
    if (req.expectedCatalogVersion !== AI_EXPORT_CATALOG_VERSION) {
      throw new ConflictError("CATALOG_VERSION_MISMATCH", `The catalog is at version ${AI_EXPORT_CATALOG_VERSION}; reload it`, {
        expected: AI_EXPORT_CATALOG_VERSION, actual: req.expectedCatalogVersion,
      });
    }
    const { selection } = req;
    const where = { selection_kind: selection.kind, selection_id: selection.id, domain: req.domain };
    if (!selection.id.startsWith(`${req.domain}.`)) throw unsupported(`The selection ${selection.id} is not of domain ${req.domain}`, where);
    const datasetIds = this.datasetIds(selection, where);
    const datasets = datasetIds.map((id) => this.catalog.datasets.get(id)!.dataset);
    for (const ds of datasets) {
      if (!ds.describe().supportedDetailLevels.includes(req.detailLevel)) {
        throw unsupported(`The dataset ${ds.id} has no ${req.detailLevel} detail level`, { ...where, detail_level: req.detailLevel });
      }
    }
    if (req.period.end < req.period.start) {
      throw new ValidationError([{ loc: ["body", "period", "end"], msg: "end must not be before start", type: "value_error" }]);
    }
    const brokerIds = await this.brokers(userId, req);
    if (req.assetId !== undefined && !(await this.db.reads.findOneBy(Asset, { id: req.assetId }))) {
      throw new NotFoundError("ASSET_NOT_FOUND", `Asset ${req.assetId} not found`, { asset_id: req.assetId });
    }
    const targetCurrency = (req.targetCurrency ?? await this.settings.effectiveBaseCurrency(userId)) as CurrencyCode;
    const query: AiExportQuery = {
      ...(req.assetId !== undefined ? { assetId: req.assetId } : {}),
      brokerIds,
      detailLevel: req.detailLevel,
      ...(req.pair ? { pair: req.pair as AiExportQuery["pair"] } : {}),
      period: { from: req.period.start as IsoDate, to: req.period.end as IsoDate },
      targetCurrency,
    };
    const reader = new ComponentReader(this.container, this.engine, userId);
    const analysis = selection.kind === "analysis" ? this.catalog.analyses.get(selection.id)! : undefined;
    if (analysis) await this.checkApplicable(analysis.applicabilityCode, reader, query, where);
    let data: Record<string, unknown> = {};
    for (const ds of datasets) {
      try {
        const built = await ds.build({ query, reader });
        data = { ...data, ...built.data };
      } catch (error) {
        if (error instanceof DomainError) throw error;
        throw new UnavailableError("SNAPSHOT_SOURCE_FAILURE", `The dataset ${ds.id} could not be built`, { ...where, dataset_id: ds.id, retryable: true });
      }
    }
    if (req.maskAmounts) data = maskAmounts(data) as Record<string, unknown>;
    const markdown = renderMarkdown({
      ...(analysis ? { analysis: { id: analysis.id, instructions: analysis.instructions, response: analysis.response, version: analysis.version } } : {}),
      data,
      datasets: datasets.map((d) => ({ id: d.id, title: d.describe().title, version: d.datasetVersion })),
      detailLevel: req.detailLevel,
      masked: req.maskAmounts,
      period: req.period,
      targetCurrency,
      ...(req.userNotes ? { userNotes: req.userNotes } : {}),
    });
    return {
      selection,
      catalog_version: AI_EXPORT_CATALOG_VERSION,
      generated_at: new Date().toISOString(),
      period: req.period,
      target_currency: targetCurrency,
      detail_level: req.detailLevel,
      data,
      markdown,
    };
  }

  /** The datasets the selection builds, after the version checks. */
  private datasetIds(selection: Selection, where: Record<string, unknown>): string[] {
    if (selection.kind === "dataset") {
      const entry = this.catalog.datasets.get(selection.id);
      if (!entry || entry.hidden) throw unsupported(`Unknown dataset ${selection.id}`, where);
      if (entry.dataset.datasetVersion !== selection.version) throw mismatch("selection.version", entry.dataset.datasetVersion, selection.version);
      return [selection.id];
    }
    const a = this.catalog.analyses.get(selection.id);
    if (!a) throw unsupported(`Unknown analysis ${selection.id}`, where);
    if (a.version !== selection.version) throw mismatch("selection.version", a.version, selection.version);
    if (instructionsId(a) !== selection.instruction_template_id) throw mismatch("selection.instruction_template_id", instructionsId(a), selection.instruction_template_id);
    if (a.instructionsVersion !== selection.instruction_template_version) throw mismatch("selection.instruction_template_version", a.instructionsVersion, selection.instruction_template_version);
    if (responseId(a) !== selection.response_contract_id) throw mismatch("selection.response_contract_id", responseId(a), selection.response_contract_id);
    if (a.responseVersion !== selection.response_contract_version) throw mismatch("selection.response_contract_version", a.responseVersion, selection.response_contract_version);
    return [...a.requiredDatasetIds];
  }

  /** The brokers of the snapshot: each asked for must have an access row (else 404); none asked for means all the caller's. */
  private async brokers(userId: number, req: SnapshotRequest): Promise<number[]> {
    const rows = await this.db.reads.findBy(BrokerAccess, { userId });
    const mine = new Set(rows.map((r) => r.brokerId));
    const asked = req.brokerIds === undefined ? [...mine] : [...new Set(req.brokerIds)];
    for (const id of asked) if (!mine.has(id)) throw brokerNotFound(id);
    return asked.sort((a, b) => a - b);
  }

  private async checkApplicable(code: string, reader: ComponentReader, query: AiExportQuery, where: Record<string, unknown>): Promise<void> {
    let applicable = true;
    if (code === "requires_position") {
      const rows = (await reader.component({ id: "portfolio.holdings", query })) as unknown[];
      applicable = rows.length > 0;
    } else if (code === "requires_direct_exposure") {
      const exposure = (await reader.component({ id: "fx.exposure", query })) as { direct_exposure?: boolean };
      applicable = exposure.direct_exposure === true;
    }
    if (!applicable) {
      throw new ValidationError([{ loc: ["body", "selection"], msg: `Not applicable: ${code}`, type: "selection_not_applicable" }],
        `The analysis ${where.selection_id as string} does not apply here (${code})`, "SELECTION_NOT_APPLICABLE", { ...where, applicability_code: code });
    }
  }
}
