import { Elysia } from "elysia";
import { signalCatalog } from "../../../core/signals/signals.calc.ts";
import { runSignals } from "./signals.ts";
import { closeOnly } from "./signal-points.ts";
import { bulkLimits, type Limit, listLength } from "../../http/bulk-limits.ts";
import type { HttpDeps } from "../../http/deps.ts";
import { ErrorBody, errorResponses } from "../../http/errors.ts";
import type { SessionPlugin } from "../../http/session.ts";
import { MAX_PREVIEW_POINTS, MAX_SIGNALS, SignalCatalogResponse, SignalsPreviewRequest, SignalsPreviewResponse } from "./signals.schema.ts";

const PREVIEW_LIMITS: Limit[] = [
  { max: MAX_PREVIEW_POINTS, unit: "points", count: ({ body }) => listLength(body?.points), hint: "Preview on a shorter series" },
  { max: MAX_SIGNALS, unit: "signals", count: ({ body }) => listLength(body?.signals) },
];

/** `/signals` (docs/risk.md "Signals"): the catalog and previews on caller-supplied points. */
export function signalsRoutes(_deps: HttpDeps, session: SessionPlugin) {
  return new Elysia({ prefix: "/signals", tags: ["signals"] })
    .use(session)
    .use(bulkLimits)
    .get("/catalog", () => ({ items: signalCatalog() }), {
      auth: true,
      response: { 200: SignalCatalogResponse, ...errorResponses },
      detail: { summary: "The 23 signals with their domains, parameters (JSON Schema), output lines and volume needs" },
    })
    .post("/preview", async ({ body }) => ({
      signals: body.points.length === 0 ? [] : await runSignals(body.domain, closeOnly(body.points), body.signals),
    }), {
      auth: true,
      limits: PREVIEW_LIMITS,
      body: SignalsPreviewRequest,
      response: { 200: SignalsPreviewResponse, ...errorResponses, 413: ErrorBody },
      detail: { summary: "Compute signals on up to 2000 caller-supplied points (close only: no volume)" },
    });
}
