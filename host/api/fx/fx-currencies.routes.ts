import { Elysia } from "elysia";
import { FxRateService } from "../../../core/fx/fx-rate.service.ts";
import { FxSyncService } from "../../../core/fx/fx-sync.service.ts";
import { InputError, NotFoundError } from "../../../core/errors/domain-error.ts";
import { databaseTarget } from "../../db/dialect.ts";
import type { z } from "zod";
import { bulkLimits, daySeriesLimit, daysIn, itemsLimit, type Limit, listLength, perItemLimit } from "../../http/bulk-limits.ts";
import { MAX_SIGNALS } from "../signals/signals.schema.ts";
import { gzippedJson } from "../../http/gzip.ts";
import { runCalculation } from "../run-calculation.ts";
import { fxProviderLookup } from "../assets/market-data-port.ts";
import type { HttpDeps } from "../../http/deps.ts";
import { ErrorBody, errorResponses } from "../../http/errors.ts";
import type { SessionPlugin } from "../../http/session.ts";
import { signalCatalog } from "../../../core/signals/signals.calc.ts";
import { SignalCatalogResponse } from "../signals/signals.schema.ts";
import {
  ConvertRequest, ConvertResponse, FxSyncRequest, MAX_CONVERT_ITEMS, MAX_RATE_DELETE_ITEMS, MAX_RATE_ITEMS, MAX_SYNC_PAIRS, FxSyncResponse, RateDeleteRequest, RateDeleteResponse, RateUpsertRequest,
  RateUpsertResponse, toConvertItem, toDeleteItem, toSyncItem, toUpsertItem,
} from "./fx-currencies.schema.ts";

const SYNC_PAIRS: Limit = { max: MAX_SYNC_PAIRS, unit: "pairs", count: ({ body }) => listLength(body?.pairs), hint: "Sync the pairs in several requests" };
const CONVERT_LIMITS: Limit[] = [
  itemsLimit(MAX_CONVERT_ITEMS),
  perItemLimit(MAX_SIGNALS, "signals", "signals"),
  daySeriesLimit((body: z.output<typeof ConvertRequest>) => body, (i) => daysIn(i.date_range.start, i.date_range.end ?? i.date_range.start), (i) => i.signals?.length ?? 0),
];

/** `/fx/currencies`: provider sync, manual rates and conversion (REFERENCE §2.5; decisions in docs/fx.md). */
export function fxCurrenciesRoutes(deps: HttpDeps, session: SessionPlugin) {
  const rates = deps.container.resolve(FxRateService);
  const db = databaseTarget(deps.config.dataDir);
  const limited = { ...errorResponses, 413: ErrorBody };
  const syncs = deps.container.resolve(FxSyncService);
  const providers = fxProviderLookup(deps.plugins);

  return new Elysia({ prefix: "/fx/currencies", tags: ["fx"] })
    .use(session)
    .use(bulkLimits)
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
      limits: [SYNC_PAIRS],
      body: FxSyncRequest,
      response: { 200: FxSyncResponse, ...limited },
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
      limits: [itemsLimit(MAX_RATE_ITEMS)],
      body: RateUpsertRequest,
      response: { 200: RateUpsertResponse, ...limited },
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
      limits: [itemsLimit(MAX_RATE_DELETE_ITEMS)],
      body: RateDeleteRequest,
      response: { 200: RateDeleteResponse, ...limited },
      detail: { summary: "Delete a pair's rates (every provider) within a date range, or all with delete_all (JSON body)" },
    })
    .get("/signals", () => ({ items: signalCatalog().filter((s) => s.domains.includes("fx")) }), {
      auth: true,
      response: { 200: SignalCatalogResponse, ...errorResponses },
      detail: { summary: "Signals available on FX rate series (the signal catalog's fx domain)" },
    })
    .post("/convert", async ({ body, request }) => {
      const items = body.map((i) => ({
        amount: i.from_amount.amount, end: i.date_range.end, from: i.from_amount.code, start: i.date_range.start, to: i.to,
        ...(i.signals ? { signals: i.signals } : {}),
      }));
      const { result } = await runCalculation("fxConvert", { db, items });
      if (!result.ok) throw new NotFoundError("FX_RATE_NOT_FOUND", "No conversion could be made", { errors: result.errors });
      return gzippedJson(result.gzipped, request);
    }, {
      auth: true,
      limits: CONVERT_LIMITS,
      body: ConvertRequest,
      // Documents the body; the worker's gzipped JSON is sent as it is (a Response is not re-validated).
      response: { 200: ConvertResponse, ...limited },
      detail: { summary: "Convert amounts on each day of a range through the pair's routes by priority, with unlimited backward fill; 404 if every conversion failed" },
    });
}
