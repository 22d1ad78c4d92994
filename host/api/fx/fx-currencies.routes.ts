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
import type { ManualRateOutcome, RateDeleteOutcome } from "../../../core/fx/fx-rate.service.ts";
import { FX_ADMIN_ONLY } from "./fx-access.ts";
import {
  ConvertRequest, ConvertResponse, FxSyncRequest, FxSyncResponse, PrivateRatesQuery, PrivateRatesResponse, RateDeleteRequest, RateDeleteResponse,
  RateUpsertRequest, RateUpsertResponse, toConvertItem, toDeleteItem, toPrivateRate, toSyncItem, toUpsertItem,
} from "./fx-currencies.schema.ts";

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

const deleteInput = (body: { from: string; to: string; date_range?: { start: string; end?: string }; delete_all: boolean }[]) =>
  body.map((i) => ({ dateRange: i.date_range, deleteAll: i.delete_all, from: i.from, to: i.to }));

/**
 * `/fx/currencies`: provider sync, manual rates and conversion (REFERENCE §2.5; decisions in
 * docs/fx.md). The shared manual rates are written by administrators only; every user keeps
 * private rates that only their own conversions and reports read.
 */
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
    .post("/rate", async ({ body }) => upsertAnswer(await rates.upsert(body)), {
      admin: FX_ADMIN_ONLY,
      body: RateUpsertRequest,
      response: { 200: RateUpsertResponse, ...errorResponses },
      detail: { summary: "Upsert shared manual rates (stored alphabetically, inverted when posted the other way); 400 only when all failed" },
    })
    .delete("/rate", async ({ body }) => deleteAnswer(await rates.delete(deleteInput(body))), {
      admin: FX_ADMIN_ONLY,
      body: RateDeleteRequest,
      response: { 200: RateDeleteResponse, ...errorResponses },
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
      body: RateUpsertRequest,
      response: { 200: RateUpsertResponse, ...errorResponses },
      detail: { summary: "Upsert the caller's private manual rates, which only the caller's conversions and reports use where the shared FX data has no rate; 400 only when all failed" },
    })
    .delete("/private-rates", async ({ body, user }) => deleteAnswer(await rates.delete(deleteInput(body), user.id)), {
      auth: true,
      body: RateDeleteRequest,
      response: { 200: RateDeleteResponse, ...errorResponses },
      detail: { summary: "Delete the caller's private rates of a pair within a date range, or all with delete_all (JSON body)" },
    })
    .get("/signals", () => ({ items: signalCatalog().filter((s) => s.domains.includes("fx")) }), {
      auth: true,
      response: { 200: SignalCatalogResponse, ...errorResponses },
      detail: { summary: "Signals available on FX rate series (the signal catalog's fx domain)" },
    })
    .post("/convert", async ({ body, user }) => {
      const input = body.map((i) => ({
        amount: i.from_amount.amount, end: i.date_range.end, from: i.from_amount.code, start: i.date_range.start, to: i.to,
      }));
      const out = await converter.convert(input, user.id);
      const signals = await convertSignals(body, async (k) => (await converter.convert([input[k]!], user.id)).results);
      return { results: out.results.map(toConvertItem), success_count: out.results.length, errors: out.errors, ...(signals ? { signals } : {}) };
    }, {
      auth: true,
      body: ConvertRequest,
      response: { 200: ConvertResponse, ...errorResponses },
      detail: { summary: "Convert amounts on each day of a range through the pair's routes by priority, then the caller's private rates, with unlimited backward fill; 404 if every conversion failed" },
    });
}
