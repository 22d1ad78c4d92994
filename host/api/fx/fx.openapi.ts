import { DEC } from "../general.openapi.ts";
import type { AreaDocs } from "../../http/openapi/operations.ts";

/** OpenAPI text of the fx area, listed in host/api/openapi.ts (docs/architecture.md "Where to add"). */
export const fxDocs: AreaDocs = {
  tag: { name: "fx", description: "FX providers, conversion routes, rates, sync and conversion" },
  operations: {
    "POST /fx/currencies/rate": {
      changes: "Stores shared manual rates (alphabetical pair order; a rate posted the other way round is inverted), which value every user's "
        + "portfolio, and clears the portfolio caches. Anyone else gets 403 FX_ADMIN_REQUIRED and keeps private rates instead (docs/fx.md).",
      request: [{ date: "2024-01-02", base: "EUR", quote: "USD", rate: "1.0950" }],
    },
    "POST /fx/currencies/private-rates": {
      who: "The rates are the caller's own: nobody else reads or changes them.",
      changes: "Stores the caller's private manual rates (alphabetical pair order; a rate posted the other way round is inverted), used only by the "
        + "caller's conversions and reports, for the days the shared FX data cannot convert, and clears the portfolio caches.",
      request: [{ date: "2024-01-02", base: "NOK", quote: "ISK", rate: "12.85" }],
      response: {
        results: [{ success: true, action: "inserted", rate: "12.85", date: "2024-01-02", base: "ISK", quote: "NOK" }], success_count: 1, errors: [],
      },
    },
    "DELETE /fx/currencies/private-rates": {
      who: "Only the caller's own private rates are deleted.",
      changes: "Deletes the caller's private rates of a pair within the range (or all with `delete_all`) and clears the portfolio caches.",
      request: [{ from: "NOK", to: "ISK", delete_all: true }],
      response: {
        results: [{ success: true, deleted_count: 1, base: "ISK", quote: "NOK", date_range: null, existing_count: 1 }], success_count: 1, errors: [], total_deleted: 1,
      },
    },
    "POST /fx/currencies/convert": {
      changes: "Nothing: a read with a body.",
      request: [{ from_amount: { code: "EUR", amount: "100" }, to: "USD", date_range: { start: "2024-01-02", end: "2024-01-03" } }],
    },
    "POST /fx/providers/routes": {
      changes: "Creates or replaces conversion routes of pairs, atomically. Routes are shared by all users; anyone but a superuser gets 403 FX_ADMIN_REQUIRED.",
      request: [{ base: "EUR", quote: "USD", priority: 1, chain_steps: [{ from: "EUR", to: "USD", provider: "ECB" }] }],
    },
    "POST /fx/currencies/sync": {
      changes: "Stores the provider rates of each pair through its routes, by priority, and clears the portfolio caches when rates changed.",
      request: { pairs: ["EUR-USD"], start: "2024-01-01", end: "2024-01-31" },
      response: {
        results: [{
          pair: "EUR-USD", status: "ok", points_fetched: 22, points_changed: 22, message: "Stored 22 rates", errors: [],
          detail: [{ provider: "ECB", leg: "EUR-USD", dates_available: 22 }], elapsed_ms: 412,
        }],
        success_count: 1, errors: [], date_range: { start: "2024-01-01", end: "2024-01-31" }, total_points_changed: 22,
      },
    },
    "DELETE /fx/currencies/rate": {
      changes: "Deletes a pair's shared rates of every provider within the range (or all with `delete_all`) and clears the portfolio caches. "
        + "Anyone but a superuser gets 403 FX_ADMIN_REQUIRED.",
      request: [{ from: "EUR", to: "USD", date_range: { start: "2024-01-02", end: "2024-01-02" } }],
    },
    "DELETE /fx/providers/routes": {
      changes: "Deletes routes of pairs (one priority, or all); a pair losing its last provider route gets its MANUAL route back. "
        + "Anyone but a superuser gets 403 FX_ADMIN_REQUIRED.",
      request: [{ base: "EUR", quote: "USD", priority: 1 }],
    },
  },
  fields: {
    base: "Base currency of the pair (three letters)",
    quote: "Quote currency of the pair (three letters)",
    rate: `Units of the quote currency per unit of the base, ${DEC}`,
    pair: "Pair slug BASE-QUOTE",
    pairs: "Pair slugs BASE-QUOTE",
    priority: "Route priority, 1 is primary; the MANUAL route is 999",
    chain_steps: "Steps of the conversion route, in order (at most 4)",
    from: "Currency converted from",
    to: "Currency converted to",
    provider: "Provider code (MANUAL for manual rates)",
    leg: "One step of the route, FROM-TO",
    dates_available: "Dates with a rate from this provider",
    elapsed_ms: "Duration of the sync, in milliseconds",
    action: "What happened: created, updated, inserted, ...",
    manual_reinstated: "True when the pair got its MANUAL route back",
    existing_count: "Rates that existed in the range",
    delete_all: "True: delete every rate of the pair, ignoring date_range",
    base_currencies: "Currencies the provider quotes from",
    target_currencies: "Currencies the provider quotes to",
    warning_i18n: "Translation key of a warning about this provider",
    from_amount: "Amount to convert {code, amount}",
    to_amount: "Converted amount {code, amount}",
    conversion_date: "Day the conversion is for",
    backward_fill_info: "Present when an earlier rate was used",
    actual_rate_date: "Date of the rate used",
    days_back: "Days between the rate used and the conversion day",
    paths: "Routes found, shortest first",
    length: "Number of steps",
    reversed: "True when the step runs against the provider's direction (rate inverted)",
  },
};
