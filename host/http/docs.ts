import { readFileSync } from "node:fs";
import { Elysia } from "elysia";
import pkg from "../../package.json" with { type: "json" };
import type { TokenRoutes } from "./bearer.ts";
import { ErrorBody, ValidationErrorBody } from "./errors.ts";
import { registerComponentSchemas } from "./openapi/components.ts";
import { buildOpenApiDocument } from "./openapi/document.ts";
import { fieldGlossary } from "./openapi/glossary.ts";
import { type AreaDocs, operationDocs } from "./openapi/operations.ts";

const ASSETS: Record<string, { module: string; type: string }> = {
  "swagger-ui-bundle.js": { module: "swagger-ui-dist/swagger-ui-bundle.js", type: "text/javascript; charset=utf-8" },
  "swagger-ui.css": { module: "swagger-ui-dist/swagger-ui.css", type: "text/css; charset=utf-8" },
  "redoc.standalone.js": { module: "redoc/bundles/redoc.standalone.js", type: "text/javascript; charset=utf-8" },
};

const SPEC_URL = "/api/v1/openapi.json";

const html = (body: string) => new Response(body, { headers: { "content-type": "text/html; charset=utf-8" } });

// Absolute URLs, so the pages work with and without a trailing slash.
const SWAGGER_PAGE = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Portfolio Tracker API</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/api/v1/docs-assets/swagger-ui.css"></head>
<body><div id="swagger-ui" data-spec-url="${SPEC_URL}"></div>
<script src="/api/v1/docs-assets/swagger-ui-bundle.js"></script>
<script src="/api/v1/docs-assets/swagger-init.js"></script>
</body></html>`;

/** Swagger UI's start, served as a file: the pages' Content-Security-Policy allows no inline script. */
const SWAGGER_INIT = `window.onload = () => {
  const root = document.getElementById("swagger-ui");
  window.ui = SwaggerUIBundle({ url: root.dataset.specUrl, dom_id: "#swagger-ui" });
};
`;

/** The badge ReDoc loads from its CDN; served in place so the reference works without internet access. */
const REDOC_CDN_LOGO = "https://cdn.redoc.ly/redoc/logo-mini.svg";
const LOCAL_LOGO = `data:image/svg+xml,${encodeURIComponent(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#1f6feb"/></svg>`)}`;
let redoc: string | undefined;

/** ReDoc's bundle with its one CDN address (the footer logo) replaced by an inline image, read once. */
function redocBundle(module: string): string {
  redoc ??= readFileSync(Bun.resolveSync(module, import.meta.dir), "utf8").replaceAll(REDOC_CDN_LOGO, LOCAL_LOGO);
  return redoc;
}

const REDOC_PAGE = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Portfolio Tracker API — ReDoc</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body><redoc spec-url="${SPEC_URL}"></redoc>
<script src="/api/v1/docs-assets/redoc.standalone.js"></script></body></html>`;

/** The areas' OpenAPI text, listed at the top of host/api/ (host/api/openapi.ts). */
export interface ApiDocs {
  /** Each area's tag, operation texts and field descriptions, in tag order. */
  readonly areas: readonly AreaDocs[];
  /** Captured example answers by `METHOD /path` (test/helpers/capture-openapi-examples.ts). */
  readonly responses: Readonly<Record<string, unknown>>;
  /** Named schemas no route refers to by itself (the transaction rows of a batch). */
  readonly extraSchemas: readonly unknown[];
  /** Links of `GET /api/v1` beside the documentation's own (the health check). */
  readonly links: Readonly<Record<string, string>>;
}

/**
 * The OpenAPI document of the running routes (openapi/document.ts), Swagger UI at `/docs` and
 * ReDoc at `/redoc`, both with or without a trailing slash, and `GET /api/v1` linking to them.
 * The UI bundles are served from node_modules so the pages render without internet access.
 * The areas' texts are merged here, at start-up, so one documented twice stops the server.
 */
export function docsRoutes(api: ApiDocs, tokenRoutes: TokenRoutes) {
  const operations = operationDocs(api.areas, api.responses);
  const describeField = fieldGlossary(api.areas);
  const tags = api.areas.flatMap((area) => (area.tag ? [{ name: area.tag.name, description: area.tag.description }] : []));
  let cached: { routes: number; doc: unknown } | undefined;
  const app = new Elysia({ name: "docs" });
  return app
    .get("/openapi.json", async () => {
      const routes = (app as unknown as { getGlobalRoutes(): unknown[] }).getGlobalRoutes().length;
      if (cached?.routes !== routes) {
        await registerComponentSchemas({ ErrorBody, ValidationErrorBody });
        cached = { routes, doc: buildOpenApiDocument(app, {
          info: {
            title: "Portfolio Tracker API",
            version: pkg.version,
            license: { name: "Proprietary (self-hosted)", identifier: "LicenseRef-Proprietary" },
            description: "Self-hosted multi-user portfolio tracker. Decimals travel as strings, dates as YYYY-MM-DD. "
              + "Authenticate with POST /auth/login (the HTTP-only `session` cookie carries the session) or send a "
              + "personal access token as `Authorization: Bearer <token>`. Every error has one body (`ErrorBody`; "
              + "request validation: `ValidationErrorBody`).",
          },
          tags,
          securitySchemes: {
            session: { type: "apiKey", in: "cookie", name: "session", description: "Set by POST /auth/login." },
            bearer: { type: "http", scheme: "bearer", description: "A personal access token from POST /auth/tokens: `Authorization: Bearer <token>`." },
          },
          extraSchemas: api.extraSchemas,
          operations,
          describeField,
          tokenRoutes,
          exclude: [/^\/api\/v1\/docs/, /^\/api\/v1\/redoc/, "/api/v1/openapi.json", "/api/v1", "/api/v1/"],
        }) };
      }
      return cached.doc;
    }, { detail: { hide: true } })
    .get("", () => ({
      name: "Portfolio Tracker API",
      version: pkg.version,
      links: {
        openapi: SPEC_URL, docs: "/api/v1/docs", redoc: "/api/v1/redoc", ...api.links,
      },
    }), { detail: { hide: true } })
    .get("/docs", () => html(SWAGGER_PAGE), { detail: { hide: true } })
    .get("/docs/", () => html(SWAGGER_PAGE), { detail: { hide: true } })
    .get("/redoc", () => html(REDOC_PAGE), { detail: { hide: true } })
    .get("/redoc/", () => html(REDOC_PAGE), { detail: { hide: true } })
    .get("/docs-assets/:file", ({ params, status }) => {
      if (params.file === "swagger-init.js") {
        return new Response(SWAGGER_INIT, { headers: { "content-type": "text/javascript; charset=utf-8", "cache-control": "no-cache" } });
      }
      const asset = ASSETS[params.file];
      if (!asset) return status(404, { detail: "Not Found", code: "NOT_FOUND" });
      if (params.file === "redoc.standalone.js") {
        return new Response(redocBundle(asset.module), { headers: { "content-type": asset.type, "cache-control": "public, max-age=86400" } });
      }
      return new Response(Bun.file(Bun.resolveSync(asset.module, import.meta.dir)), {
        headers: { "content-type": asset.type, "cache-control": "public, max-age=86400" },
      });
    }, { detail: { hide: true } });
}
