import { Elysia } from "elysia";
import { signalCatalog } from "../../../core/signals/signals.calc.ts";
import { closeOnly, runSignals } from "./signals.ts";
import type { HttpDeps } from "../../http/deps.ts";
import { errorResponses } from "../../http/errors.ts";
import type { SessionPlugin } from "../../http/session.ts";
import { SignalCatalogResponse, SignalsPreviewRequest, SignalsPreviewResponse } from "./signals.schema.ts";

/** `/signals` (docs/risk.md "Signals"): the catalog and previews on caller-supplied points. */
export function signalsRoutes(_deps: HttpDeps, session: SessionPlugin) {
  return new Elysia({ prefix: "/signals", tags: ["signals"] })
    .use(session)
    .get("/catalog", () => ({ items: signalCatalog() }), {
      auth: true,
      response: { 200: SignalCatalogResponse, ...errorResponses },
      detail: { summary: "The 23 signals with their domains, parameters (JSON Schema), output lines and volume needs" },
    })
    .post("/preview", async ({ body }) => ({
      signals: body.points.length === 0 ? [] : await runSignals(body.domain, closeOnly(body.points), body.signals),
    }), {
      auth: true,
      body: SignalsPreviewRequest,
      response: { 200: SignalsPreviewResponse, ...errorResponses },
      detail: { summary: "Compute signals on up to 2000 caller-supplied points (close only: no volume)" },
    });
}
