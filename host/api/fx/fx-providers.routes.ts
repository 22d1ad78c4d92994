import { Elysia } from "elysia";
import { z } from "zod";
import { fxProviderEdges, listFxProviders } from "../../../core/fx/fx-providers.ts";
import { FxRouteService } from "../../../core/fx/fx-route.service.ts";
import { searchRoutes } from "../../../core/fx/route-search.calc.ts";
import { readProviderStatus } from "../../../core/fx/provider-status.ts";
import { Database } from "../../../core/db/database.ts";
import type { HttpDeps } from "../../http/deps.ts";
import { bulkLimits, itemsLimit } from "../../http/bulk-limits.ts";
import { bulkCreateStatus, ErrorBody, errorResponses } from "../../http/errors.ts";
import type { SessionPlugin } from "../../http/session.ts";
import { FX_ADMIN_ONLY } from "./fx-access.ts";
import { FX_PROVIDERS, type FxProviders } from "./fx-port.ts";
import {
  FxProviderBody, MAX_ITEMS, ProviderStatusBody, ProvidersQuery, toProviderStatusBody, RouteRead, RoutesCreateRequest, RoutesCreateResponse, RoutesDeleteRequest, RoutesDeleteResponse,
  SuggestQuery, SuggestResponse, toDeleteResult, toFxProviderBody, toRouteRead, toRouteResult, toSuggestPath,
} from "./fx-providers.schema.ts";

const ITEMS = itemsLimit(MAX_ITEMS);

/** FX providers and conversion routes (decisions in docs/fx.md); routes are changed by administrators only. */
export function fxProvidersRoutes(deps: HttpDeps, session: SessionPlugin) {
  const routes = deps.container.resolve(FxRouteService);
  const entries = deps.container.resolve<FxProviders>(FX_PROVIDERS).entries;
  const known = new Set(entries.map((e) => e.code));
  const edges = fxProviderEdges(entries);

  return new Elysia({ prefix: "/fx/providers", tags: ["fx"] })
    .use(session)
    .use(bulkLimits)
    .get("", ({ query }) => listFxProviders(entries, query.providers).map(toFxProviderBody), {
      auth: true,
      query: ProvidersQuery,
      response: { 200: z.array(FxProviderBody), ...errorResponses },
      detail: { summary: "FX providers (`?providers=ECB&providers=FED` narrows); MANUAL and test-only providers are hidden" },
    })
    .get("/status", async () => [...(await readProviderStatus(deps.container.resolve(Database).reads)).values()]
      .sort((a, b) => a.provider.localeCompare(b.provider)).map(toProviderStatusBody), {
      auth: true,
      response: { 200: z.array(ProviderStatusBody), ...errorResponses },
      detail: { summary: "Each FX provider's last sync outcome: when it was asked, when it last answered, and its last failure with a classified cause" },
    })
    .get("/routes", async () => (await routes.list()).map(toRouteRead), {
      auth: true,
      response: { 200: z.array(RouteRead), ...errorResponses },
      detail: { summary: "Configured conversion routes, by pair (alphabetical) then priority" },
    })
    .post("/routes", async ({ body, status }) => {
      const outcomes = await routes.save(body.map((r) => ({
        base: r.base, chainSteps: r.chain_steps, priority: r.priority, quote: r.quote,
      })), known);
      const failed = outcomes.filter((o) => !o.success);
      return status(bulkCreateStatus(outcomes.length - failed.length), {
        results: outcomes.map(toRouteResult),
        success_count: outcomes.length - failed.length,
        errors: failed.map((o) => `${o.base}-${o.quote} priority ${o.priority}: ${o.message}`),
        error_count: failed.length,
      });
    }, {
      admin: FX_ADMIN_ONLY,
      limits: [ITEMS],
      body: RoutesCreateRequest,
      response: { 200: RoutesCreateResponse, 201: RoutesCreateResponse, ...errorResponses, 413: ErrorBody },
      detail: { summary: "Create or update routes (atomic); an unknown provider refuses the whole batch (400)" },
    })
    .delete("/routes", async ({ body }) => {
      const outcomes = await routes.delete(body);
      const failed = outcomes.filter((o) => !o.success);
      return {
        results: outcomes.map(toDeleteResult),
        success_count: outcomes.length - failed.length,
        errors: failed.map((o) => `${o.base}-${o.quote}: ${o.message}`),
        total_deleted: outcomes.reduce((n, o) => n + o.deletedCount, 0),
      };
    }, {
      admin: FX_ADMIN_ONLY,
      limits: [ITEMS],
      body: RoutesDeleteRequest,
      response: { 200: RoutesDeleteResponse, ...errorResponses, 413: ErrorBody },
      detail: { summary: "Delete routes of pairs (one priority or all); a pair losing its last provider route gets its MANUAL route back" },
    })
    .get("/routes/suggest", ({ query }) => ({
      base: query.base,
      quote: query.quote,
      paths: searchRoutes(edges, query.base, query.quote, { limit: query.limit }).map(toSuggestPath),
    }), {
      auth: true,
      query: SuggestQuery,
      response: { 200: SuggestResponse, ...errorResponses },
      detail: { summary: "Candidate chain_steps for a pair from the visible providers, shortest first (at most 4 steps)" },
    });
}
