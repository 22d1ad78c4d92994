import { openapi } from "@elysiajs/openapi";
import { Elysia } from "elysia";
import { z } from "zod";
import pkg from "../../package.json" with { type: "json" };

const ASSETS: Record<string, { module: string; type: string }> = {
  "swagger-ui-bundle.js": { module: "swagger-ui-dist/swagger-ui-bundle.js", type: "text/javascript; charset=utf-8" },
  "swagger-ui.css": { module: "swagger-ui-dist/swagger-ui.css", type: "text/css; charset=utf-8" },
  "redoc.standalone.js": { module: "redoc/bundles/redoc.standalone.js", type: "text/javascript; charset=utf-8" },
};

const REDOC_PAGE = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Portfolio Tracker API — ReDoc</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body><redoc spec-url="/api/v1/openapi.json"></redoc>
<script src="/api/v1/docs-assets/redoc.standalone.js"></script></body></html>`;

/**
 * OpenAPI 3 document generated from the running routes, Swagger UI and ReDoc. The UI
 * bundles are served from node_modules so the pages render without internet access.
 */
export function docsRoutes() {
  return new Elysia({ name: "docs" })
    .use(openapi({
      path: "/docs",
      specPath: "/openapi.json",
      provider: "swagger-ui",
      swagger: { cdn: "/api/v1/docs-assets/swagger-ui-bundle.js", theme: "/api/v1/docs-assets/swagger-ui.css" },
      exclude: { paths: [/^\/api\/v1\/docs-assets\//, "/api/v1/redoc"] },
      documentation: {
        info: {
          title: "Portfolio Tracker API",
          version: pkg.version,
          description: "Self-hosted multi-user portfolio tracker. Decimals travel as strings, dates as YYYY-MM-DD. "
            + "Authenticate with POST /auth/login; the HTTP-only `session` cookie carries the session.",
        },
        components: {
          securitySchemes: { session: { type: "apiKey", in: "cookie", name: "session" } },
        },
      },
    }))
    .get("/redoc", () => new Response(REDOC_PAGE, { headers: { "content-type": "text/html; charset=utf-8" } }), {
      detail: { hide: true },
    })
    .get("/docs-assets/:file", ({ params, status }) => {
      const asset = ASSETS[params.file];
      if (!asset) return status(404, { detail: "Not Found", code: "NOT_FOUND" });
      return new Response(Bun.file(Bun.resolveSync(asset.module, import.meta.dir)), {
        headers: { "content-type": asset.type, "cache-control": "public, max-age=86400" },
      });
    }, { detail: { hide: true } });
}
