import { Elysia } from "elysia";
import { AssetKeeperService } from "../../../core/assets/asset-keeper.service.ts";
import { z } from "zod";
import {
  PROVIDER_DIRECTORY, ProviderAssignmentService, type ProviderDirectory,
} from "../../../core/assets/provider-assignment.service.ts";
import { type ProviderSearchOutcome, ProviderSearchService } from "../../../core/assets/provider-search.service.ts";
import type { HttpDeps } from "../../http/deps.ts";
import { bulkLimits, itemsLimit, queryListLimit } from "../../http/bulk-limits.ts";
import { ErrorBody, errorResponses } from "../../http/errors.ts";
import type { SessionPlugin } from "../../http/session.ts";
import { AssetIdsQuery, MAX_ITEMS } from "./assets.schema.ts";
import {
  AssignmentRead, AssignRequest, AssignResponse, ProviderInfo, ProviderListQuery, RemoveResponse, SearchQuery, SearchResponse,
  SearchStreamEvent, toAssignmentRead, toAssignResult, toHits, toProviderInfo, toRemoveResult, toSearchResponse,
} from "./providers.schema.ts";

const ASSET_IDS = queryListLimit(MAX_ITEMS, "asset_ids", "asset ids");

/** Server-sent events: one per provider as it answers, then `done`. */
function searchStream(query: string, outcomes: AsyncGenerator<ProviderSearchOutcome>): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (event: string, data: unknown) => controller.enqueue(encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`));
      let total = 0;
      let providers = 0;
      let errors = 0;
      try {
        for await (const o of outcomes) {
          providers++;
          if (o.ok) {
            total += o.hits.length;
            send("provider_results", { provider_code: o.providerCode, cached: o.cached, results: toHits(o) });
          } else {
            errors++;
            send("provider_error", { provider_code: o.providerCode, error: o.error, reason: o.reason });
          }
        }
        send("done", { query, total_results: total, provider_count: providers, error_count: errors });
        controller.close();
      } catch {
        // The client went away; nothing is left to tell it.
      }
    },
  });
  return new Response(body, { headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" } });
}

/**
 * Pricing providers of assets: the list, assignment to assets, and instrument search. Hidden
 * (test-only) providers are left out of the list and of searches that name no provider, but can
 * be assigned and searched by code.
 */
export function providersRoutes(deps: HttpDeps, session: SessionPlugin) {
  const directory = deps.container.resolve<ProviderDirectory>(PROVIDER_DIRECTORY);
  const assignments = deps.container.resolve(ProviderAssignmentService);
  const keepers = deps.container.resolve(AssetKeeperService);
  const search = deps.container.resolve(ProviderSearchService);

  return new Elysia({ prefix: "/assets/provider", tags: ["assets"] })
    .use(session)
    .use(bulkLimits)
    .get("", ({ query }) => directory.list()
      .filter((e) => !e.hidden && (!query.providers?.length || query.providers.includes(e.code)))
      .map(toProviderInfo), {
      auth: true,
      query: ProviderListQuery,
      response: { 200: z.array(ProviderInfo), ...errorResponses },
      detail: { summary: "Quote and scheduled-investment providers (`providers` narrows to some codes); test-only ones are hidden" },
    })
    .post("", async ({ body, user }) => {
      await keepers.assertMayChange(user, body.map((i) => i.asset_id));
      const outcomes = await assignments.assign(body.map((i) => ({
        assetId: i.asset_id, providerCode: i.provider_code, identifier: i.identifier, identifierType: i.identifier_type,
        providerParams: i.provider_params,
      })));
      return { results: outcomes.map(toAssignResult), success_count: outcomes.filter((o) => o.success).length, errors: [] };
    }, {
      auth: true,
      limits: [itemsLimit(MAX_ITEMS)],
      body: AssignRequest,
      response: { 200: AssignResponse, ...errorResponses, 413: ErrorBody },
      detail: {
        summary: "Assign providers to assets. Moving to another provider, or new parameters of a parametric provider, "
          + "deletes the old assignment's prices and events (transactions unlinked first; manual events stay)",
      },
    })
    .delete("", async ({ query, user }) => {
      await keepers.assertMayChange(user, query.asset_ids);
      const outcomes = await assignments.remove(query.asset_ids);
      return { results: outcomes.map(toRemoveResult), success_count: outcomes.filter((o) => o.success).length, errors: [] };
    }, {
      auth: true,
      limits: [ASSET_IDS],
      query: AssetIdsQuery,
      response: { 200: RemoveResponse, ...errorResponses, 413: ErrorBody },
      detail: { summary: "Remove assignments; the provider's prices and events go with them (manual ones stay)" },
    })
    .get("/assignments", async ({ query }) => (await assignments.read(query.asset_ids)).map(toAssignmentRead), {
      auth: true,
      limits: [ASSET_IDS],
      query: AssetIdsQuery,
      response: { 200: z.array(AssignmentRead), ...errorResponses, 413: ErrorBody },
      detail: { summary: "Assignments of the given assets, with the last fetch time and the instrument's page at the provider" },
    })
    .get("/search", async ({ query }) => toSearchResponse(query.q, await search.search({ query: query.q, providerCodes: query.providers })), {
      auth: true,
      query: SearchQuery,
      response: { 200: SearchResponse, ...errorResponses },
      detail: { summary: "Search providers in parallel; a provider that fails or times out gives an error entry, never a failed request" },
    })
    .get("/search/stream", ({ query }) => searchStream(query.q, search.stream({ query: query.q, providerCodes: query.providers })), {
      auth: true,
      query: SearchQuery,
      response: { 200: SearchStreamEvent, ...errorResponses },
      detail: { summary: "The same search as text/event-stream: `provider_results` or `provider_error` per provider as it answers, then `done`" },
    });
}
