import { Elysia } from "elysia";
import { LotsAnalysisService } from "../../../core/portfolio/lots-analysis.service.ts";
import { runCalculation } from "../run-calculation.ts";
import type { HttpDeps } from "../../http/deps.ts";
import { bulkLimits, type Limit, listLength } from "../../http/bulk-limits.ts";
import { ErrorBody, errorResponses } from "../../http/errors.ts";
import type { SessionPlugin } from "../../http/session.ts";
import { LotsAnalysisRequest, LotsAnalysisResponse, MAX_LOTS_BROKERS, MAX_SELECTED_LOTS } from "./lots.schema.ts";

const LOTS_LIMITS: Limit[] = [
  { max: MAX_LOTS_BROKERS, unit: "broker ids", count: ({ body }) => listLength(body?.broker_ids) },
  { max: MAX_SELECTED_LOTS, unit: "selected lot ids", count: ({ body }) => listLength(body?.selected_lot_ids) },
];

/** `POST /portfolio/lots/analysis`: FIFO lots of one asset (decisions in docs/portfolio-lots.md). */
export function lotsRoutes(deps: HttpDeps, session: SessionPlugin) {
  const lots = deps.container.resolve(LotsAnalysisService);

  return new Elysia({ prefix: "/portfolio", tags: ["portfolio"] })
    .use(session)
    .use(bulkLimits)
    .post("/lots/analysis", async ({ body, user }) => lots.analyse(user.id, {
      analyses: body.requested_analyses, assetId: body.asset_id, brokerIds: body.broker_ids, end: body.date_range?.end,
      force: body.force, selectedLotIds: body.selected_lot_ids, start: body.date_range?.start, targetCurrency: body.target_currency,
    }, async (input) => (await runCalculation("lotsAnalysis", input)).result), {
      auth: true,
      limits: LOTS_LIMITS,
      body: LotsAnalysisRequest,
      response: { 200: LotsAnalysisResponse, ...errorResponses, 413: ErrorBody, 404: ErrorBody },
      detail: {
        summary: "FIFO lots of one asset across the scope's brokers (share-weighted, in the target currency) with the requested analyses; "
          + "404 for an unknown asset or a broker without access; force bypasses the cache",
      },
    });
}
