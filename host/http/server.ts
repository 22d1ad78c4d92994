import type { AppConfig } from "../config.ts";
import type { Logger } from "../logger.ts";
import type { App } from "./app.ts";
import { clientAddress, rememberSocketAddress } from "./client-address.ts";
import { gzipResponse } from "./gzip.ts";


/**
 * Serves the app with Bun.serve. Wrapping fetch (rather than Elysia hooks) lets gzip and the
 * access log see every response: thrown errors, 404s and file bodies included.
 */
export function serveHttp(app: App, config: AppConfig, logger: Logger) {
  return Bun.serve({
    hostname: config.host,
    port: config.port,
    maxRequestBodySize: 1024 * 1024 * 1024,
    async fetch(request, server) {
      const started = performance.now();
      rememberSocketAddress(request, server.requestIP(request)?.address);
      const response = await gzipResponse(request, await app.handle(request));
      logger.info("request", {
        method: request.method,
        path: new URL(request.url).pathname,
        status: response.status,
        ms: Math.round((performance.now() - started) * 10) / 10,
        ip: clientAddress(request, config.trustedProxies),
      });
      return response;
    },
  });
}
