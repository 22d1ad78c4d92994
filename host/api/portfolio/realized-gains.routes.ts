import { Elysia } from "elysia";
import { type RealizedGainsResult, RealizedGainsService, type RealizedGainsRunner } from "../../../core/portfolio/realized-gains.service.ts";
import { runCalculation } from "../run-calculation.ts";
import type { HttpDeps } from "../../http/deps.ts";
import { bulkLimits, listLength } from "../../http/bulk-limits.ts";
import { ErrorBody, errorResponses } from "../../http/errors.ts";
import { acceptsGzip } from "../../http/gzip.ts";
import type { SessionPlugin } from "../../http/session.ts";
import { MAX_GAINS_BROKERS, RealizedGainsRequest, RealizedGainsResponse } from "./realized-gains.schema.ts";

/** `POST /portfolio/realized-gains`: every disposal with FIFO and average cost side by side (docs/portfolio-lots.md "Realised gains"). */
export function realizedGainsRoutes(deps: HttpDeps, session: SessionPlugin) {
  const gains = deps.container.resolve(RealizedGainsService);
  const run: RealizedGainsRunner = async (inputs) => (await runCalculation("realizedGains", inputs)).result;
  // The bytes of a cached answer, serialised and gzipped once: the service hands back the same
  // object until a declared write clears it (every sale of 20,000 transactions is ~3 MB of JSON).
  const encoded = new WeakMap<RealizedGainsResult, { json: Uint8Array<ArrayBuffer>; gzip: Uint8Array<ArrayBuffer> }>();
  return new Elysia({ prefix: "/portfolio", tags: ["portfolio"] })
    .use(session)
    .use(bulkLimits)
    .post("/realized-gains", async ({ body, user, request }) => {
      const result = await gains.gains(user.id, { brokerIds: body.broker_ids, targetCurrency: body.target_currency, year: body.year }, run);
      let bytes = encoded.get(result);
      if (!bytes) {
        const json = new TextEncoder().encode(JSON.stringify(result));
        encoded.set(result, bytes = { json, gzip: Bun.gzipSync(json) as Uint8Array<ArrayBuffer> });
      }
      const gzip = acceptsGzip(request);
      const out = gzip ? bytes.gzip : bytes.json;
      // The length is declared so the response is sent without another copy (host/http/gzip.ts).
      return new Response(out, {
        headers: {
          "content-type": "application/json", "content-length": String(out.byteLength), vary: "Accept-Encoding",
          ...(gzip ? { "content-encoding": "gzip" } : {}),
        },
      });
    }, {
      auth: true,
      limits: [{ max: MAX_GAINS_BROKERS, unit: "broker ids", count: ({ body }: { body: any }) => listLength(body?.broker_ids) }],
      body: RealizedGainsRequest,
      response: { 200: RealizedGainsResponse, ...errorResponses, 413: ErrorBody, 404: ErrorBody },
      detail: {
        summary: "Realised gains per disposal (every SELL) with its FIFO lots and the average cost side by side, in the target currency, "
          + "with totals per tax year; 404 for a broker without access",
      },
    });
}
