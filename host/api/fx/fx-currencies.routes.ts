import { Elysia } from "elysia";
import { FxRateService } from "../../../core/fx/fx-rate.service.ts";
import { FxSyncService } from "../../../core/fx/fx-sync.service.ts";
import { InputError, NotFoundError } from "../../../core/errors/domain-error.ts";
import { databaseTarget } from "../../db/dialect.ts";
import type { z } from "zod";
import { bulkLimits, itemsLimit, type Limit, listLength, perItemLimit } from "../../http/bulk-limits.ts";
import { daySeriesLimit, daysIn } from "../day-series-limit.ts";
import { MAX_SIGNALS } from "../signals/signals.schema.ts";
import { gzippedJson } from "../../http/gzip.ts";
import { runCalculation } from "../run-calculation.ts";
import { FX_PROVIDERS, type FxProviders } from "./fx-port.ts";
import type { HttpDeps } from "../../http/deps.ts";
import { ErrorBody, errorResponses } from "../../http/errors.ts";
import type { SessionPlugin } from "../../http/session.ts";
import { signalCatalog } from "../../../core/signals/signals.calc.ts";
import { SignalCatalogResponse } from "../signals/signals.schema.ts";
import type { ManualRateOutcome, RateDeleteOutcome } from "../../../core/fx/fx-rate.service.ts";
import { FX_ADMIN_ONLY } from "./fx-access.ts";
import {
  ConvertRequest, ConvertResponse, FxSyncRequest, FxSyncResponse, MAX_CONVERT_ITEMS, MAX_RATE_DELETE_ITEMS, MAX_RATE_ITEMS, MAX_SYNC_PAIRS,
  PrivateRatesQuery, PrivateRatesResponse, RateDeleteRequest, RateDeleteResponse, RateUpsertRequest, RateUpsertResponse, toDeleteItem, toPrivateRate,
  toSyncItem, toUpsertItem,
} from "./fx-currencies.schema.ts";

const SYNC_PAIRS: Limit = { max: MAX_SYNC_PAIRS, unit: "pairs", count: ({ body }) => listLength(body?.pairs), hint: "Sync the pairs in several requests" };
const CONVERT_LIMITS: Limit[] = [
  itemsLimit(MAX_CONVERT_ITEMS),
  perItemLimit(MAX_SIGNALS, "signals", "signals"),
  daySeriesLimit((body: z.output<typeof ConvertRequest>) => body, (i) => daysIn(i.date_range.start, i.date_range.end ?? i.date_range.start), (i) => i.signals?.length ?? 0),
];

/** The answer of a manual-rate upsert (shared or private); 400 FX_RATE_INVALID when no item could be stored. */
function upsertAnswer(out: ManualRateOutcome[]) {
  const failed = out.filter((o) => !o.success);
  if (failed.length === out.length) {
    throw new InputError("FX_RATE_INVALID", "No rate could be stored", { errors: failed.map((o) => `${o.base}-${o.quote} ${o.date}: ${o.message}`) });
  }
  return {
    results: out.map(toUpsertItem),
    success_count: out.length - failed.length,
    errors: failed.map((o) => `${o.base}-${o.quote} ${o.date}: ${o.message}`),
  };
}

/** The answer of a rate delete (shared or private). */
function deleteAnswer(out: RateDeleteOutcome[]) {
  const failed = out.filter((o) => !o.success);
  return {
    results: out.map(toDeleteItem),
    success_count: out.length - failed.length,
    errors: failed.map((o) => `${o.base}-${o.quote}: ${o.message}`),
    total_deleted: out.reduce((n, o) => n + o.deletedCount, 0),
  };
}

const deleteInput = (body: { from: string; to: string; date_range?: { start: string; end?: string | null }; delete_all: boolean }[]) =>
  body.map((i) => ({ dateRange: i.date_range && { start: i.date_range.start, end: i.date_range.end ?? i.date_range.start }, deleteAll: i.delete_all, from: i.from, to: i.to }));

/**
 * `/fx/currencies`: provider sync, manual rates and conversion (decisions in
 * docs/fx.md). The shared manual rates are written by administrators only; every user keeps
 * private rates that only their own conversions and reports read.
 */
export function fxCurrenciesRoutes(deps: HttpDeps, session: SessionPlugin) {
  const rates = deps.container.resolve(FxRateService);
  const db = databaseTarget(deps.config.dataDir);
  const limited = { ...errorResponses, 413: ErrorBody };
  const syncs = deps.container.resolve(FxSyncService);
  const providers = deps.container.resolve<FxProviders>(FX_PROVIDERS).lookup;

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
    .post("/rate", async ({ body }) => upsertAnswer(await rates.upsert(body)), {
      admin: FX_ADMIN_ONLY,
      limits: [itemsLimit(MAX_RATE_ITEMS)],
      body: RateUpsertRequest,
      response: { 200: RateUpsertResponse, ...limited },
      detail: { summary: "Upsert shared manual rates (stored alphabetically, inverted when posted the other way); 400 only when all failed" },
    })
    .delete("/rate", async ({ body }) => deleteAnswer(await rates.delete(deleteInput(body))), {
      admin: FX_ADMIN_ONLY,
      limits: [itemsLimit(MAX_RATE_DELETE_ITEMS)],
      body: RateDeleteRequest,
      response: { 200: RateDeleteResponse, ...limited },
      detail: { summary: "Delete a pair's shared rates (every provider) within a date range, or all with delete_all (JSON body)" },
    })
    .get("/private-rates", async ({ query, user }) => ({
      items: (await rates.listPrivate(user.id, query.base && query.quote ? { from: query.base, to: query.quote } : undefined)).map(toPrivateRate),
    }), {
      auth: true,
      query: PrivateRatesQuery,
      response: { 200: PrivateRatesResponse, ...errorResponses },
      detail: { summary: "The caller's private manual rates (`?base=&quote=` narrows to one pair)" },
    })
    .post("/private-rates", async ({ body, user }) => upsertAnswer(await rates.upsert(body, user.id)), {
      auth: true,
      limits: [itemsLimit(MAX_RATE_ITEMS)],
      body: RateUpsertRequest,
      response: { 200: RateUpsertResponse, ...limited },
      detail: { summary: "Upsert the caller's private manual rates, which only the caller's conversions and reports use where the shared FX data has no rate; 400 only when all failed" },
    })
    .delete("/private-rates", async ({ body, user }) => deleteAnswer(await rates.delete(deleteInput(body), user.id)), {
      auth: true,
      limits: [itemsLimit(MAX_RATE_DELETE_ITEMS)],
      body: RateDeleteRequest,
      response: { 200: RateDeleteResponse, ...limited },
      detail: { summary: "Delete the caller's private rates of a pair within a date range, or all with delete_all (JSON body)" },
    })
    .get("/signals", () => ({ items: signalCatalog().filter((s) => s.domains.includes("fx")) }), {
      auth: true,
      response: { 200: SignalCatalogResponse, ...errorResponses },
      detail: { summary: "Signals available on FX rate series (the signal catalog's fx domain)" },
    })
    .post("/convert", async ({ body, request, user }) => {
      const items = body.map((i) => ({
        amount: i.from_amount.amount, end: i.date_range.end ?? undefined, from: i.from_amount.code, start: i.date_range.start, to: i.to,
        ...(i.signals ? { signals: i.signals } : {}),
      }));
      // The requesting user's private rates fill the days the shared routes cannot convert (docs/fx.md "Private manual rates").
      const { result } = await runCalculation("fxConvert", { db, items, userId: user.id });
      if (!result.ok) throw new NotFoundError("FX_RATE_NOT_FOUND", "No conversion could be made", { errors: result.errors });
      return gzippedJson(result.gzipped, request);
    }, {
      auth: true,
      limits: CONVERT_LIMITS,
      body: ConvertRequest,
      // Documents the body; the worker's gzipped JSON is sent as it is (a Response is not re-validated).
      response: { 200: ConvertResponse, ...limited, 404: ErrorBody },
      detail: { summary: "Convert amounts on each day of a range through the pair's routes by priority, then the caller's private rates, with unlimited backward fill; 404 if every conversion failed" },
    });
}
