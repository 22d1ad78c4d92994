import { Elysia } from "elysia";
import { FxConvertService } from "../../../core/fx/fx-convert.service.ts";
import { FxRateService } from "../../../core/fx/fx-rate.service.ts";
import { FxSyncService } from "../../../core/fx/fx-sync.service.ts";
import { InputError } from "../../../core/errors/domain-error.ts";
import { fxProviderLookup } from "../assets/market-data-port.ts";
import type { HttpDeps } from "../../http/deps.ts";
import { errorResponses } from "../../http/errors.ts";
import type { SessionPlugin } from "../../http/session.ts";
import { signalCatalog } from "../../../core/signals/signals.calc.ts";
import { convertSignals } from "../signals/signals.ts";
import { SignalCatalogResponse } from "../signals/signals.schema.ts";
import {
  ConvertRequest, ConvertResponse, FxSyncRequest, FxSyncResponse, RateDeleteRequest, RateDeleteResponse, RateUpsertRequest,
  RateUpsertResponse, toConvertItem, toDeleteItem, toSyncItem, toUpsertItem,
} from "./fx-currencies.schema.ts";

/** `/fx/currencies`: provider sync, manual rates and conversion (REFERENCE §2.5; decisions in docs/fx.md). */
export function fxCurrenciesRoutes(deps: HttpDeps, session: SessionPlugin) {
  const rates = deps.container.resolve(FxRateService);
  const converter = deps.container.resolve(FxConvertService);
  const syncs = deps.container.resolve(FxSyncService);
  const providers = fxProviderLookup(deps.plugins);

  return new Elysia({ prefix: "/fx/currencies", tags: ["fx"] })
    .use(session)
    .post("/sync", async ({ body }) => {
      const out = await syncs.sync(body, providers);
      const notOk = out.results.filter((r) => r.status === "failed");
      return {
        results: out.results.map(toSyncItem),
        success_count: out.results.filter((r) => r.status === "ok" || r.status === "partial").length,
        errors: notOk.map((r) => `${r.pair}: ${r.message ?? "failed"}`),
        date_range: out.dateRange,
        total_points_changed: out.totalPointsChanged,
      };
    }, {
      auth: true,
      body: FxSyncRequest,
      response: { 200: FxSyncResponse, ...errorResponses },
      detail: { summary: "Fetch provider rates of pairs through their routes by priority (every leg of a multi-step route); 400 when start > end or end > today" },
    })
    .post("/rate", async ({ body }) => {
      const out = await rates.upsert(body);
      const failed = out.filter((o) => !o.success);
      if (failed.length === out.length) {
        throw new InputError("FX_RATE_INVALID", "No rate could be stored", { errors: failed.map((o) => `${o.base}-${o.quote} ${o.date}: ${o.message}`) });
      }
      return {
        results: out.map(toUpsertItem),
        success_count: out.length - failed.length,
        errors: failed.map((o) => `${o.base}-${o.quote} ${o.date}: ${o.message}`),
      };
    }, {
      auth: true,
      body: RateUpsertRequest,
      response: { 200: RateUpsertResponse, ...errorResponses },
      detail: { summary: "Upsert manual rates (stored alphabetically, inverted when posted the other way); 400 only when all failed" },
    })
    .delete("/rate", async ({ body }) => {
      const out = await rates.delete(body.map((i) => ({ dateRange: i.date_range, deleteAll: i.delete_all, from: i.from, to: i.to })));
      const failed = out.filter((o) => !o.success);
      return {
        results: out.map(toDeleteItem),
        success_count: out.length - failed.length,
        errors: failed.map((o) => `${o.base}-${o.quote}: ${o.message}`),
        total_deleted: out.reduce((n, o) => n + o.deletedCount, 0),
      };
    }, {
      auth: true,
      body: RateDeleteRequest,
      response: { 200: RateDeleteResponse, ...errorResponses },
      detail: { summary: "Delete a pair's rates (every provider) within a date range, or all with delete_all (JSON body)" },
    })
    .get("/signals", () => ({ items: signalCatalog().filter((s) => s.domains.includes("fx")) }), {
      auth: true,
      response: { 200: SignalCatalogResponse, ...errorResponses },
      detail: { summary: "Signals available on FX rate series (the signal catalog's fx domain)" },
    })
    .post("/convert", async ({ body }) => {
      const input = body.map((i) => ({
        amount: i.from_amount.amount, end: i.date_range.end, from: i.from_amount.code, start: i.date_range.start, to: i.to,
      }));
      const out = await converter.convert(input);
      const signals = await convertSignals(body, async (k) => (await converter.convert([input[k]!])).results);
      return { results: out.results.map(toConvertItem), success_count: out.results.length, errors: out.errors, ...(signals ? { signals } : {}) };
    }, {
      auth: true,
      body: ConvertRequest,
      response: { 200: ConvertResponse, ...errorResponses },
      detail: { summary: "Convert amounts on each day of a range through the pair's routes by priority, with unlimited backward fill; 404 if every conversion failed" },
    });
}
