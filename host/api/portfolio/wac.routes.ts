import { Elysia } from "elysia";
import { WacSeriesService, type WacSeriesRunner } from "../../../core/portfolio/wac-series.service.ts";
import { runCalculation } from "../run-calculation.ts";
import type { HttpDeps } from "../../http/deps.ts";
import { bulkLimits, listLength } from "../../http/bulk-limits.ts";
import { ErrorBody, errorResponses } from "../../http/errors.ts";
import type { SessionPlugin } from "../../http/session.ts";
import { MAX_WAC_QUERIES, toWacQuery, toWacResult, WacRequest, WacResponse } from "./wac.schema.ts";

/** `POST /portfolio/wac`: WAC series per (broker, asset), with broker access checks (docs/portfolio.md "WAC series"). */
export function wacRoutes(deps: HttpDeps, session: SessionPlugin) {
  const wac = deps.container.resolve(WacSeriesService);
  const run: WacSeriesRunner = async (input) => (await runCalculation("wacSeries", input)).result;

  return new Elysia({ prefix: "/portfolio", tags: ["portfolio"] })
    .use(session)
    .use(bulkLimits)
    .post("/wac", async ({ body, user }) => {
      const results = await wac.series(user.id, body.queries.map(toWacQuery), run);
      return { results: results.map(toWacResult) };
    }, {
      auth: true,
      limits: [{ max: MAX_WAC_QUERIES, unit: "queries", count: ({ body }: { body: any }) => listLength(body?.queries), hint: "Ask in several requests" }],
      body: WacRequest,
      response: { 200: WacResponse, ...errorResponses, 413: ErrorBody, 404: ErrorBody },
      detail: { summary: "Weighted average cost series per (broker, asset): one point per quantity move; 404 for a broker without access or an unknown asset" },
    });
}
