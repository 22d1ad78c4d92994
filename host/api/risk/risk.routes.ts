import { Elysia } from "elysia";
import { databaseTarget } from "../../db/dialect.ts";
import { RISK_TOOLS, RiskService, type RiskTools } from "./risk.service.ts";
import type { HttpDeps } from "../../http/deps.ts";
import { ErrorBody, errorResponses } from "../../http/errors.ts";
import type { SessionPlugin } from "../../http/session.ts";
import {
  EligibilityRequest, EligibilityResponse, RiskCatalogResponse, RiskQueryRequest, RiskQueryResponse, ScenarioCatalogResponse,
} from "./risk.schema.ts";

/** `/risk` (docs/risk.md): the analytics catalog, queries and per-asset eligibility. */
export function riskRoutes(deps: HttpDeps, session: SessionPlugin) {
  const tools = deps.container.resolve<RiskTools>(RISK_TOOLS);
  const risk = new RiskService(deps.container, databaseTarget(deps.config.dataDir), tools, deps.config.dataDir, {
    analyticTimeoutMs: deps.config.riskAnalyticTimeoutMs, maxQueuedTasks: deps.config.riskMaxQueuedTasks,
  });
  return new Elysia({ prefix: "/risk", tags: ["risk"] })
    .use(session)
    .get("/catalog", () => ({ items: risk.catalog() }), {
      auth: true,
      response: { 200: RiskCatalogResponse, ...errorResponses },
      detail: { summary: "Risk analytics with their scopes, modes and parameter JSON Schemas" },
    })
    .get("/scenario-catalog", () => risk.scenarioCatalog(), {
      auth: true,
      response: { 200: ScenarioCatalogResponse, ...errorResponses },
      detail: { summary: "Stress scenarios (built-in and DATA_DIR/scenarios/*.json), geography groups, and warnings for invalid files" },
    })
    // A client that goes away cancels its analytics: the pool drops a queued task or ends its thread.
    .post("/query", ({ body, user, request }) => risk.query(user.id, body, request.signal), {
      auth: true,
      body: RiskQueryRequest,
      response: { 200: RiskQueryResponse, ...errorResponses, 404: ErrorBody },
      detail: { summary: "Run 1–32 analytics on an asset, an asset set or the caller's portfolio; each answers in its own envelope" },
    })
    .post("/eligibility", ({ body, user }) => risk.eligibility(user.id, body), {
      auth: true,
      body: EligibilityRequest,
      response: { 200: EligibilityResponse, ...errorResponses },
      detail: { summary: "Whether each asset's quotes in a period can feed risk analytics" },
    });
}
