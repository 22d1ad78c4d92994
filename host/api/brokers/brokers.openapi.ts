import { DEC } from "../general.openapi.ts";
import type { AreaDocs } from "../../http/openapi/operations.ts";

/** Who may call a write on a broker's data; the import and ledger areas say it the same way. */
export const EDITOR = "Needs the EDITOR or OWNER role on the broker; a broker without an access row is 404.";
export const OWNER = "Needs the OWNER role on the broker; a broker without an access row is 404.";

/** OpenAPI text of the brokers area, listed in host/api/openapi.ts (docs/architecture.md "Where to add"). */
export const brokersDocs: AreaDocs = {
  tag: { name: "brokers", description: "Brokers, their summaries and sharing (access rows)" },
  operations: {
    "POST /brokers": {
      changes: "Creates brokers, an OWNER access row (share 1.000000) for the caller on each, and one DEPOSIT per positive initial balance, dated `opened_at` (today when absent). Items are independent: a refused item does not stop the others.",
      request: [{ name: "Degiro", opened_at: "2024-01-02", initial_balances: [{ code: "EUR", amount: "1000.00" }] }, { name: "Scalable" }],
    },
    "PATCH /brokers/{id}": {
      who: EDITOR,
      changes: "The broker's fields. Turning off overdraft or shorting re-validates the ledger and is refused per item when a balance would go negative.",
      request: { name: "Degiro (main)", allow_cash_overdraft: true },
      errors: { 409: "`BROKER_NAME_TAKEN`: the caller already has a broker of that name." },
    },
    "POST /brokers/{id}/access": {
      who: OWNER,
      changes: "Creates an access row for another user. Shares of one broker sum to at most 1.00.",
      request: { user_id: 2, role: "VIEWER" },
      errors: { 409: "`ACCESS_EXISTS`: the user already has access (`params.username`, `params.broker_name`); change the row instead." },
    },
    "PATCH /brokers/{id}/access/{user_id}": {
      who: OWNER,
      changes: "The user's role or share; the last OWNER cannot be downgraded (409 LAST_OWNER).",
      request: { role: "EDITOR" },
      errors: { 409: "`LAST_OWNER`: the broker's last OWNER cannot be downgraded." },
    },
    "PATCH /brokers/{id}/access/me": {
      changes: "Lowers the caller's own role (an OWNER's share becomes 0); the last OWNER cannot (409 LAST_OWNER).",
      request: { role: "VIEWER" },
    },
    "DELETE /brokers/{id}/access/me": {
      changes: "Removes the caller's access row; when the last OWNER leaves, the broker is deleted with its transactions and broker-report files.",
    },
    "DELETE /brokers/{id}/access/{user_id}": {
      who: "The broker's OWNER, or the user themself.",
      changes: "Removes the access row; the last OWNER cannot be removed (409 LAST_OWNER).",
    },
    "DELETE /brokers/{id}": {
      who: OWNER,
      changes: "Deletes the broker, all its transactions, its access rows and its broker-report files.",
    },
  },
  fields: {
    role: "Broker role: OWNER, EDITOR or VIEWER",
    share_percentage: `Share of the broker counted in aggregates, ${DEC} in [0, 1] with six decimals; only an OWNER may hold more than 0`,
    user_role: "The caller's role on this broker",
    user_share_percentage: "The caller's share of this broker (six decimals)",
    broker_deleted: "True when the broker was deleted because its last OWNER left",
    portal_url: "URL of the broker's web portal",
    default_import_plugin: "Code of the import plugin preselected for this broker's reports",
    allow_cash_overdraft: "When false, a write that makes a cash balance negative is refused",
    allow_asset_shorting: "When false, a write that makes a position negative is refused",
    opened_at: "Date the account was opened; initial balances are booked as DEPOSITs on this date (today when absent)",
    initial_balances: "Cash balances at opening: each positive amount becomes a DEPOSIT dated `opened_at` (today when absent); zero and negative amounts are ignored",
    deposits_created: "Number of DEPOSITs created from `initial_balances`",
    validation_triggered: "True when the change re-checked the ledger's balances",
    deleted_count: "Number of records deleted",
    transactions_deleted: "Number of transactions deleted with it",
    cash_balances: "Cash balance per currency",
    holdings: "Open positions",
    asset_name: "Name of the asset",
    average_cost_per_unit: `Average cost of one unit, ${DEC}, in the cost currency`,
  },
};
