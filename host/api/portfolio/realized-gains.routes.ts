import { Elysia } from "elysia";
import { RealizedGainsService, type RealizedGainsRunner } from "../../../core/portfolio/realized-gains.service.ts";
import { runCalculation } from "../run-calculation.ts";
import type { HttpDeps } from "../../http/deps.ts";
import { bulkLimits, listLength } from "../../http/bulk-limits.ts";
import { ErrorBody, errorResponses } from "../../http/errors.ts";
import type { SessionPlugin } from "../../http/session.ts";
import { MAX_GAINS_BROKERS, RealizedGainsRequest, RealizedGainsResponse } from "./realized-gains.schema.ts";

/** `POST /portfolio/realized-gains`: every disposal with FIFO and average cost side by side (docs/portfolio-lots.md "Realised gains"). */
export function realizedGainsRoutes(deps: HttpDeps, session: SessionPlugin) {
  const gains = deps.container.resolve(RealizedGainsService);
  const run: RealizedGainsRunner = async (inputs) => (await runCalculation("realizedGains", inputs)).result;

  return new Elysia({ prefix: "/portfolio", tags: ["portfolio"] })
    .use(session)
    .use(bulkLimits)
    .post("/realized-gains", ({ body, user }) => gains.gains(user.id, {
      brokerIds: body.broker_ids, targetCurrency: body.target_currency, year: body.year,
    }, run), {
      auth: true,
      limits: [{ max: MAX_GAINS_BROKERS, unit: "broker ids", count: ({ body }: { body: any }) => listLength(body?.broker_ids) }],
      body: RealizedGainsRequest,
      response: { 200: RealizedGainsResponse, ...errorResponses, 413: ErrorBody },
      detail: {
        summary: "Realised gains per disposal (every SELL) with its FIFO lots and the average cost side by side, in the target currency, "
          + "with totals per tax year; 404 for a broker without access",
      },
    });
}
