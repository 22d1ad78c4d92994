import { Elysia } from "elysia";
import { aiExportRoutes } from "./ai-export/ai-export.routes.ts";
import { assetsRoutes } from "./assets/assets.routes.ts";
import { providersRoutes } from "./assets/providers.routes.ts";
import { authRoutes } from "./auth/auth.routes.ts";
import { backupRoutes } from "./backup/backup.routes.ts";
import { eventsRoutes } from "./assets/events.routes.ts";
import { pricesRoutes } from "./assets/prices.routes.ts";
import { brimRoutes } from "./brokers/import/brim.routes.ts";
import { brokersRoutes } from "./brokers/brokers.routes.ts";
import type { TokenRoutes } from "../http/bearer.ts";
import type { HttpDeps } from "../http/deps.ts";
import { docsRoutes } from "../http/docs.ts";
import { fxCurrenciesRoutes } from "./fx/fx-currencies.routes.ts";
import { fxProvidersRoutes } from "./fx/fx-providers.routes.ts";
import { errorHandler, routeMethods } from "../http/errors.ts";
import { mcpDraftsRoutes } from "./mcp/drafts.routes.ts";
import { mcpRoutes } from "./mcp/mcp.routes.ts";
import { API_DOCS } from "./openapi.ts";
import { lotsRoutes } from "./portfolio/lots.routes.ts";
import { realizedGainsRoutes } from "./portfolio/realized-gains.routes.ts";
import { reportRoutes } from "./portfolio/report.routes.ts";
import { riskRoutes } from "./risk/risk.routes.ts";
import { wacRoutes } from "./portfolio/wac.routes.ts";
import { sessionPlugin } from "../http/session.ts";
import { settingsRoutes } from "./settings/settings.routes.ts";
import { signalsRoutes } from "./signals/signals.routes.ts";
import { systemRoutes } from "./system/system.routes.ts";
import { toolsRoutes } from "./tools/tools.routes.ts";
import { transactionsRoutes } from "./transactions/transactions.routes.ts";
import { uploadsRoutes } from "./uploads/uploads.routes.ts";
import { usersRoutes } from "./users/users.routes.ts";
import { utilitiesRoutes } from "./utilities/utilities.routes.ts";

export const API_PREFIX = "/api/v1";

/** The routes that take a multipart body (a file); every other write takes JSON (host/http/write-guard.ts). */
export const MULTIPART_PATHS: readonly string[] = [`${API_PREFIX}/uploads`, `${API_PREFIX}/brokers/import/upload`];

/** What a personal access token may reach besides reads (host/http/bearer.ts; docs/decisions.md "Personal access tokens"). */
export const TOKEN_ROUTES: TokenRoutes = {
  readPosts: new Set([
    "/assets/prices/query", "/assets/prices/current", "/assets/events/query",
    "/transactions/validate", "/transactions/events/suggest", "/transactions/promote-suggest",
    "/fx/currencies/convert", "/portfolio/report", "/portfolio/wac", "/portfolio/lots/analysis",
    "/brokers/import/duplicates", "/brokers/import/asset-candidates",
    "/ai-export/snapshot", "/risk/query", "/risk/eligibility", "/signals/preview", "/tools/compute",
  ]),
  cookieOnly: [/^\/auth\/tokens(\/|$)/, /^\/auth\/change-password$/, /^\/auth\/users\/me$/],
};

/** The whole HTTP API under /api/v1; one Elysia instance per spec prefix, in spec-table order. */
export function createApp(deps: HttpDeps) {
  const session = sessionPlugin(deps, TOKEN_ROUTES);
  let routes: readonly { method: string; path: string }[] = [];
  const app = new Elysia({ prefix: API_PREFIX })
    .use(errorHandler(deps.logger, routeMethods(() => routes)))
    .use(docsRoutes(API_DOCS, TOKEN_ROUTES))
    .use(authRoutes(deps, session))
    .use(usersRoutes(deps, session))
    .use(settingsRoutes(deps, session))
    .use(systemRoutes(deps, session))
    .use(uploadsRoutes(deps, session))
    .use(transactionsRoutes(deps, session))
    .use(brimRoutes(deps, session))
    .use(brokersRoutes(deps, session))
    .use(assetsRoutes(deps, session))
    .use(providersRoutes(deps, session))
    .use(pricesRoutes(deps, session))
    .use(eventsRoutes(deps, session))
    .use(backupRoutes(deps, session))
    .use(fxProvidersRoutes(deps, session))
    .use(fxCurrenciesRoutes(deps, session))
    .use(reportRoutes(deps, session))
    .use(wacRoutes(deps, session))
    .use(lotsRoutes(deps, session))
    .use(realizedGainsRoutes(deps, session))
    .use(riskRoutes(deps, session))
    .use(signalsRoutes(deps, session))
    .use(aiExportRoutes(deps, session))
    .use(toolsRoutes(deps, session))
    .use(mcpRoutes(deps))
    .use(mcpDraftsRoutes(deps, session))
    .use(utilitiesRoutes());
  routes = app.routes;
  return app;
}

export type App = ReturnType<typeof createApp>;
