import type { AreaDocs } from "../../http/openapi/operations.ts";

/** OpenAPI text of the risk area, listed in host/api/openapi.ts (docs/architecture.md "Where to add"). */
export const riskDocs: AreaDocs = {
  operations: {
    "POST /risk/query": {
      who: "A portfolio scope counts only brokers with an access row of the caller (share-weighted); another broker is 404.",
      changes: "Nothing stored; simulation and optimisation results are cached (`risk_simulation`, `risk_optimization`) until the next write.",
      request: {
        scope: { kind: "portfolio" }, date_range: { start: "2024-01-01", end: "2024-12-31" }, target_currency: "EUR",
        mode: "current_composition", composition_policy: "current_buy_and_hold",
        analytics: [{ instance_id: "var", analytic_code: "historical_var", parameters: { confidence_level: 0.95, horizon_days: 1, method: "historical" } }],
      },
      response: {
        items: [{
          instance_id: "var", analytic_code: "historical_var", status: "ok",
          output: { kind: "var_cvar", confidence_level: 0.95, horizon_days: 1, method: "historical", var: 0.0191, cvar: 0.0227, var_amount: "191.43", cvar_amount: "226.72" },
          metadata: {
            algorithm_version: "1.0.0", scope_kind: "portfolio", mode: "current_composition", target_currency: "EUR", requested_start: "2024-01-01",
            requested_end: "2024-12-31", observations_start: "2024-01-02", observations_end: "2024-12-31", cached: false,
          },
          data_quality: {
            data_quality_status: "ok", missing_price_assets: [], missing_fx_pairs: [], incomplete_nav_dates_count: 0,
            observations_start: "2024-01-02", observations_end: "2024-12-31",
          },
          warnings: [], error: null,
        }],
      },
    },
    "POST /risk/eligibility": {
      changes: "Nothing: a read with a body.",
      request: { asset_ids: [1, 2], date_range: { start: "2024-01-01", end: "2024-12-31" }, target_currency: "EUR" },
      response: {
        items: [
          { asset_id: 1, level: "eligible", reasons: [], first_quote: "2024-01-02", last_quote: "2024-12-31", quotes_in_period: 252 },
          { asset_id: 2, level: "ineligible", reasons: ["no_price_history"], first_quote: null, last_quote: null, quotes_in_period: 0 },
        ],
        min_quotes: 20, stale_days: 7, common_range: { start: "2024-01-02", end: "2024-12-31" }, suggested_range: { start: "2024-01-02", end: "2024-12-31" },
      },
    },
  },
  fields: {
    analytics: "Analytics of the catalog",
    analytic_code: "Code of the analytic to run",
    instance_id: "Your id for this item, echoed in the answer",
    algorithm_version: "Version of the algorithm",
    output: "The result",
    output_kind: "Kind of the output",
    at: "Time (ISO 8601, UTC)",
    mode: "How the input is built (current_composition or historical)",
    supported_modes: "Modes the analytic supports",
    supported_scopes: "Scopes the analytic supports (asset, asset_set, portfolio)",
    min_observations: "Fewest observations the analytic needs",
    min_quotes: "Fewest quotes needed",
    quotes_in_period: "Quotes available in the period",
    first_quote: "Date of the first quote",
    last_quote: "Date of the last quote",
    common_range: "Date range every member has data for",
    suggested_range: "A range that would work",
    members: "Members of the set",
    composition_policy: "How the set's weights are chosen",
    positions_from: "Date the positions are read at",
    scenario: "Scenario to apply",
  },
};
