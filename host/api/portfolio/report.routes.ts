import { Elysia } from "elysia";
import type { z } from "zod";
import { databaseTarget } from "../../db/dialect.ts";
import { PortfolioReportService, reportBytes, type ReportQuery } from "./report.service.ts";
import type { HttpDeps } from "../../http/deps.ts";
import { bulkLimits, listLength } from "../../http/bulk-limits.ts";
import { ErrorBody, errorResponses } from "../../http/errors.ts";
import { acceptsGzip } from "../../http/gzip.ts";
import type { SessionPlugin } from "../../http/session.ts";
import { MAX_REPORT_BROKERS, ReportRequest, ReportResponse } from "./report.schema.ts";

/** The request body as the service's query. */
export function reportQuery(body: z.output<typeof ReportRequest>): ReportQuery {
  return {
    brokerIds: body.broker_ids ?? null,
    start: body.date_range?.start ?? null,
    end: body.date_range?.end ?? null,
    target: body.target_currency ?? null,
    flags: {
      summary: body.include_summary, history: body.include_history, allocationHistory: body.include_allocation_history,
      breakdown: body.include_breakdown, positionsContribution: body.include_positions_contribution,
      periodReturns: body.include_period_returns, incomePayments: body.include_income_payments,
    },
  };
}

/** `POST /portfolio/report` (docs/portfolio.md): computed in the worker pool, served from the cache as bytes. */
export function reportRoutes(deps: HttpDeps, session: SessionPlugin) {
  const reports = new PortfolioReportService(deps.container, databaseTarget(deps.config.dataDir));
  return new Elysia({ prefix: "/portfolio", tags: ["portfolio"] })
    .use(session)
    .use(bulkLimits)
    .post("/report", async ({ body, user, request }) => {
      const out = await reports.report(user.id, reportQuery(body));
      // Served as stored: the worker already serialised and gzipped it (unzipped for the rare client without gzip).
      const gzip = acceptsGzip(request) && out.chars >= 1024;
      // The length is declared so the response is sent without another copy (host/http/gzip.ts).
      const bytes = gzip ? out.gzip as Uint8Array<ArrayBuffer> : reportBytes(out);
      return new Response(bytes, {
        headers: {
          "content-type": "application/json",
          "content-length": String(bytes.byteLength),
          ...(gzip ? { "content-encoding": "gzip" } : {}),
          ...(out.chars >= 1024 ? { vary: "Accept-Encoding" } : {}),
        },
      });
    }, {
      auth: true,
      limits: [{ max: MAX_REPORT_BROKERS, unit: "broker ids", count: ({ body }: { body: any }) => listLength(body?.broker_ids) }],
      body: ReportRequest,
      response: { 200: ReportResponse, ...errorResponses, 413: ErrorBody, 404: ErrorBody },
      detail: { summary: "Portfolio summary, daily history, allocation, breakdown and contribution with the data-quality report (cached until a write)" },
    });
}
