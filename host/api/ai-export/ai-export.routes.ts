import { Elysia } from "elysia";
import { AiExportCatalog } from "./catalog.ts";
import { AiExportSnapshotService } from "./snapshot.service.ts";
import { PortfolioEngineAdapter } from "../portfolio/engine-adapter.ts";
import type { HttpDeps } from "../../http/deps.ts";
import { ErrorBody, errorResponses } from "../../http/errors.ts";
import type { SessionPlugin } from "../../http/session.ts";
import { AiExportCatalogResponse, SnapshotRequest, SnapshotResponse } from "./ai-export.schema.ts";

export { AiExportCatalogResponse as AiExportCatalog } from "./ai-export.schema.ts";

/**
 * `/ai-export` (docs/ai-export.md): the catalogue is public, static and free of user data;
 * snapshots need a session and read only the caller's brokers.
 */
export function aiExportRoutes(deps: HttpDeps, session: SessionPlugin) {
  const catalog = deps.container.resolve(AiExportCatalog);
  const wire = catalog.wire();
  const snapshots = new AiExportSnapshotService(deps.container, catalog, new PortfolioEngineAdapter(deps.container, deps.config.dataDir));
  return new Elysia({ prefix: "/ai-export", tags: ["ai-export"] })
    .get("/catalog", () => wire, {
      response: { 200: AiExportCatalogResponse },
      detail: { summary: "Versioned catalogue of AI-export datasets and analyses (public)" },
    })
    .use(session)
    .post("/snapshot", ({ body, user }) => snapshots.snapshot(user.id, {
      ...(body.domain === "asset" ? { assetId: body.asset_id } : {}),
      ...(body.domain === "broker" ? { brokerIds: [body.broker_id] } : "broker_ids" in body && body.broker_ids ? { brokerIds: body.broker_ids } : {}),
      detailLevel: body.detail_level,
      domain: body.domain,
      expectedCatalogVersion: body.expected_catalog_version,
      maskAmounts: body.mask_amounts,
      ...(body.domain === "fx" ? { pair: { base: body.base_currency, quote: body.quote_currency } } : {}),
      period: body.period,
      selection: body.selection,
      ...(body.target_currency ? { targetCurrency: body.target_currency } : {}),
      ...(body.user_notes ? { userNotes: body.user_notes } : {}),
    }), {
      auth: true,
      body: SnapshotRequest,
      response: { 200: SnapshotResponse, 503: ErrorBody, ...errorResponses, 404: ErrorBody, 409: ErrorBody },
      detail: { summary: "Builds a dataset or analysis snapshot: machine-readable data and markdown for a chat assistant" },
    });
}
