import type { DependencyContainer } from "tsyringe";
import { LotsAnalysisService, type LotsAnalysisRequest } from "../../../core/portfolio/lots-analysis.service.ts";
import type { LotsResult } from "../../../core/portfolio/lots-types.ts";
import type { ReportFlags } from "../../../core/portfolio/report-input.ts";
import { Decimal } from "../../../sdk/index.ts";
import { databaseTarget } from "../../db/dialect.ts";
import { runCalculation } from "../run-calculation.ts";
import { PortfolioReportService, reportText } from "./report.service.ts";

/** The report's JSON as parsed (the wire shape of `POST /portfolio/report`). */
export type ReportJson = Record<string, any>;

export interface EngineReportQuery {
  brokerIds: number[] | null;
  end: string | null;
  flags: Partial<ReportFlags>;
  start: string | null;
  target: string | null;
}

const NO_SECTIONS: ReportFlags = { allocationHistory: false, breakdown: false, history: false, periodReturns: false, incomePayments: false, positionsContribution: false, summary: false };

/**
 * The one way the tools and the AI export read the portfolio engine: through its existing entry
 * points (the report service with its worker task and cache, and the lots analysis service), so
 * their numbers are the report's and the lots analysis' by construction. Access rows are checked
 * by those services (an inaccessible broker is 404 BROKER_NOT_FOUND).
 */
export class PortfolioEngineAdapter {
  private readonly reports: PortfolioReportService;
  private readonly lotsService: LotsAnalysisService;

  constructor(container: DependencyContainer, dataDir: string) {
    this.reports = new PortfolioReportService(container, databaseTarget(dataDir));
    this.lotsService = container.resolve(LotsAnalysisService);
  }

  async report(userId: number, q: EngineReportQuery): Promise<ReportJson> {
    const out = await this.reports.report(userId, {
      brokerIds: q.brokerIds, start: q.start, end: q.end, target: q.target, flags: { ...NO_SECTIONS, ...q.flags },
    });
    return JSON.parse(reportText(out)) as ReportJson;
  }

  lots(userId: number, req: LotsAnalysisRequest): Promise<LotsResult> {
    return this.lotsService.analyse(userId, req, async (input) => (await runCalculation("lotsAnalysis", input)).result);
  }

  /**
   * Current holdings of the brokers, one row per asset (quantities summed over brokers, share-weighted
   * as in the report), valued in `currency` at today's prices; `price` is null when unvalued.
   */
  async holdings(userId: number, brokerIds: number[], currency: string): Promise<{ assetId: number; price: string | null; quantity: string; value: string | null }[]> {
    const report = await this.report(userId, { brokerIds, start: null, end: null, target: currency, flags: { summary: true } });
    const rows = (report.summary?.holdings ?? []) as { asset_id: number; current_price: string | null; quantity: string; current_value: string | null }[];
    const byAsset = new Map<number, { assetId: number; price: string | null; quantity: string; value: string | null }>();
    for (const h of rows) {
      const seen = byAsset.get(h.asset_id);
      if (!seen) {
        byAsset.set(h.asset_id, { assetId: h.asset_id, price: h.current_price, quantity: h.quantity, value: h.current_value });
        continue;
      }
      seen.quantity = addDecimal(seen.quantity, h.quantity);
      seen.value = seen.value !== null && h.current_value !== null ? addDecimal(seen.value, h.current_value) : null;
      seen.price ??= h.current_price;
    }
    return [...byAsset.values()].sort((a, b) => a.assetId - b.assetId);
  }
}

function addDecimal(a: string, b: string): string {
  return new Decimal(a).plus(b).toFixed();
}
