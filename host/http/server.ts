import type { AppConfig } from "../config.ts";
import type { Logger } from "../logger.ts";
import { clientAddress, rememberSocketAddress } from "./client-address.ts";
import { errorResponse } from "./errors.ts";
import { gzipResponse } from "./gzip.ts";
import { BULK_REQUEST_BYTES, createHeapSettler } from "./heap-settle.ts";
import { declaredLength } from "./request-body.ts";
import { serveWebApp } from "./web-assets.ts";
import { withBrowserHeaders } from "./browser-headers.ts";
import { bodyReadByWorker } from "./worker-json-body.ts";
import { crossSiteWriteRefusal } from "./write-guard.ts";
import webApp from "../../web/index.html";
import { requestPath } from "./request-url.ts";

/** What the server serves under /api: the assembled Elysia app (host/api/index.ts). */
export interface HttpApp {
  handle(request: Request): Promise<Response>;
}

/** Whether a request's credentials hold up before its body is read (session.ts `credentialsProbe`). */
export type CredentialsProbe = (request: Request) => Promise<boolean>;

/** The browser app's icon (an inline SVG), so browsers do not log a 404 on every page. */
const FAVICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#1f6feb"/><path d="M3 12l3-4 3 2 4-6" stroke="#fff" stroke-width="1.6" fill="none"/></svg>`;

/**
 * The largest body a request without credentials may send: the public routes (register, login)
 * take a few hundred bytes. Elysia parses a JSON body before the session check, so without this an
 * anonymous client could make the request thread read and parse up to `maxRequestBodySize` (1 GiB,
 * for uploads) before being told 401.
 */
export const ANONYMOUS_BODY_BYTES = 64 * 1024;

/**
 * 401 for a request whose body is larger than {@link ANONYMOUS_BODY_BYTES} or of unknown length
 * (chunked) and whose credentials do not hold up (none, a forged or expired session token, an
 * unknown access token); its body is not read.
 */
async function anonymousBodyRefusal(request: Request, probe: CredentialsProbe): Promise<Response | null> {
  if (request.body === null) return null;
  const length = declaredLength(request);
  if (length !== null && length <= ANONYMOUS_BODY_BYTES) return null;
  if (await probe(request)) return null;
  return errorResponse(401, {
    detail: `Not authenticated: a request without a session may send at most ${ANONYMOUS_BODY_BYTES / 1024} KiB`,
    code: "NOT_AUTHENTICATED",
  });
}

/**
 * Whether the request thread held `request`'s body only as bytes, never as parsed rows: a file upload
 * (multipart), or a JSON body a worker read (a 5 MB duplicates check). The heap settler then asks for a
 * concurrent collection after it rather than the full one of a large JSON write, which held the
 * request thread 12–49 ms after each duplicates check (docs/import.md "Performance").
 */
export function bodyHeldAsBytes(request: Request): boolean {
  return /^multipart\/form-data\b/i.test(request.headers.get("content-type") ?? "") || bodyReadByWorker(request);
}

/**
 * Serves the app with Bun.serve. Wrapping fetch (rather than Elysia hooks) lets gzip and the
 * access log see every response: thrown errors, 404s and file bodies included.
 */
export function serveHttp(app: HttpApp, config: AppConfig, logger: Logger, probe: CredentialsProbe, multipartPaths: readonly string[] = []) {
  const settler = createHeapSettler();
  const writeGuard = { isMultipartPath: (path: string) => multipartPaths.includes(path.replace(/\/+$/, "")), behindTrustedProxy: config.trustedProxies.length > 0 };
  const api = async (request: Request, server: Bun.Server<undefined>) => {
    const started = performance.now();
    let responseBytes = 0;
    settler.beforeRequest();
    try {
      rememberSocketAddress(request, server.requestIP(request)?.address);
      const refusal = crossSiteWriteRefusal(request, writeGuard) ?? await anonymousBodyRefusal(request, probe);
      const response = withBrowserHeaders(request, await gzipResponse(request, refusal ?? await app.handle(request), (n) => { responseBytes = n; }));
      logger.info("request", {
        method: request.method,
        path: requestPath(request),
        status: response.status,
        ms: Math.round((performance.now() - started) * 10) / 10,
        ip: clientAddress(request, config.trustedProxies),
      });
      return response;
    } finally {
      // A body of undeclared length (chunked) counts as bulk.
      settler.afterRequest(request.body === null ? 0 : declaredLength(request) ?? BULK_REQUEST_BYTES, responseBytes, bodyHeldAsBytes(request));
    }
  };
  const dev = process.env.NODE_ENV === "development";
  return Bun.serve({
    hostname: config.host,
    port: config.port,
    maxRequestBodySize: 1024 * 1024 * 1024,
    // The web app (web/index.html) is bundled on its first request: minified, with hashed
    // immutable chunks served gzipped from memory (web-assets.ts), unless NODE_ENV=development
    // asks for Bun's unminified bundle with hot reload.
    development: dev,
    routes: {
      // /api and everything below it is the API; every other path is a client route of the web
      // app (deep links) or one of its chunks.
      "/api": api,
      "/api/*": api,
      "/favicon.ico": (request: Request) => withBrowserHeaders(request, new Response(FAVICON, {
        headers: { "content-type": "image/svg+xml", "cache-control": "public, max-age=86400" },
      })),
      "/*": dev ? webApp : async (request: Request) => withBrowserHeaders(request, await serveWebApp(request)),
    },
    fetch: api,
  });
}
