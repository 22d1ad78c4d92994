import RESPONSES from "./response-examples.json" with { type: "json" };

/** What each write changes, who beyond the session may call it, and its example request and response. */
export interface OperationDoc {
  /** Stored state the call changes (writes only). */
  readonly changes?: string;
  /** Role or ownership rules beyond "signed in". */
  readonly who?: string;
  /** Example request body (JSON). */
  readonly request?: unknown;
  /** Example success response body (JSON); captured from a real server into response-examples.json. */
  readonly response?: unknown;
  /** What a status the route declares for its own rules means here (its codes), when the general text would mislead. */
  readonly errors?: Readonly<Record<number, string>>;
}

const EDITOR = "Needs the EDITOR or OWNER role on the broker; a broker without an access row is 404.";
const OWNER = "Needs the OWNER role on the broker; a broker without an access row is 404.";
const ANY_ASSET = "Only the asset's keeper (the user who created it) or a superuser: anyone else gets 403 "
  + "ASSET_KEEPER_OR_ADMIN_REQUIRED and nothing is written (docs/assets.md).";
const ASSET_SHARED = "Any signed-in user: assets are shared (docs/assets.md).";

/**
 * `METHOD /path` (without the /api/v1 prefix) → its documentation, in an order that works on an
 * empty database (the example capture replays them in this order: alice is user 1, bob user 2).
 */
export const OPERATION_DOCS: Record<string, OperationDoc> = {
  "POST /auth/register": {
    changes: "Creates an account and its settings row. The first account becomes a superuser, even when registration is disabled.",
    request: { username: "carol", email: "carol@example.com", password: "correct horse 9" },
    errors: {
      403: "`REGISTRATION_DISABLED`: registration is turned off (`enable_registration`).",
      409: "`USER_EXISTS`: the user name or e-mail is taken (`params.field`).",
    },
  },
  "POST /auth/login": {
    changes: "Nothing stored; sets the `session` cookie (HTTP-only, lifetime `session_ttl_hours`).",
    request: { username: "carol", password: "correct horse 9" },
    errors: { 401: "`INVALID_CREDENTIALS`: wrong user name, e-mail or password; `ACCOUNT_DISABLED`: the account is disabled." },
  },
  "PATCH /auth/users/me/preferences": {
    changes: "The caller's language and base currency (settings row).",
    request: { language: "en", currency: "EUR" },
  },
  "POST /auth/tokens": {
    who: "Any signed-in user, by session cookie only (a token cannot create tokens). The admin scope needs a superuser.",
    changes: "Creates a personal access token; only the SHA-256 of its secret is stored. Password changes and resets, and an admin ending the user's sessions, end it too.",
    request: { name: "home-assistant", scope: "read", expires_at: "2030-01-01T00:00:00Z" },
  },
  "GET /auth/tokens": {
    who: "Any signed-in user, by session cookie only (a token cannot list tokens).",
  },
  "DELETE /auth/tokens/{id}": {
    who: "The token's owner, by session cookie only.",
    changes: "Deletes the token; requests carrying it get 401 at once.",
  },
  "GET /mcp/drafts": {
    who: "Any signed-in user (their own drafts only); not an MCP token.",
  },
  "POST /mcp/drafts/{id}/commit": {
    who: "The draft's owner, by session or a read-write token (not an MCP token); they also need the ledger rights the batch needs.",
    changes: "Commits the drafted batch through the ledger (all or nothing) and marks the draft committed; a committed draft answers its first result and changes nothing.",
  },
  "POST /mcp/drafts/{id}/discard": {
    who: "The draft's owner, by session or a read-write token (not an MCP token).",
    changes: "Marks the pending draft discarded; the ledger is not touched.",
  },
  "PUT /settings/user": {
    changes: "The caller's settings row; fields left out stay as they are.",
    request: { language: "en", base_currency: "EUR", theme: "dark" },
  },
  "PATCH /settings/global/bulk": {
    changes: "Global setting rows, all or nothing; values are stored as sent. Scheduler changes apply at once.",
    request: { items: [{ key: "session_ttl_hours", value: "48" }, { key: "enable_registration", value: "false" }] },
  },
  "POST /settings/global/initialize": {
    changes: "Creates the missing global setting rows with their defaults; existing rows are kept (idempotent).",
  },
  "POST /settings/cache/clear/{name}": {
    changes: "Empties one in-memory cache of the process that served the request. No stored data changes.",
  },
  "POST /settings/cache/clear-all": {
    changes: "Empties every in-memory cache of the process that served the request. No stored data changes.",
  },
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
  "POST /assets": {
    changes: "Creates shared assets, kept by the caller. Items are independent: a refused item does not stop the others.",
    who: "The caller becomes the keeper of the assets created (docs/assets.md).",
    request: [{ name: "Apple Inc.", currency: "USD", asset_type: "STOCK", identifier_isin: "US0378331005", identifier_ticker: "AAPL" }, { name: "Vanguard FTSE All-World", currency: "EUR", asset_type: "ETF" }],
  },
  "PATCH /assets": {
    who: ANY_ASSET,
    changes: "The assets' fields: an absent key keeps the value, null clears it; classification is replaced whole.",
    request: [{ asset_id: 1, user_url: "https://www.apple.com/investor/", icon_url: null }],
  },
  "POST /assets/provider": {
    who: ANY_ASSET,
    changes: "Provider assignments. A new provider, or new parameters of a parametric provider, deletes the old assignment's prices and events (transactions unlinked first; manual events stay).",
    request: [{ asset_id: 1, provider_code: "yfinance", identifier: "AAPL", identifier_type: "TICKER" }],
  },
  "POST /assets/prices": {
    who: ANY_ASSET,
    changes: "Stores manual daily prices; a price of the same asset and date is replaced.",
    request: [{ asset_id: 2, prices: [{ date: "2024-01-02", close: "101.25" }, { date: "2024-01-03", open: "101.25", high: "103", low: "100.5", close: "102.80", volume: "15000" }] }],
  },
  "POST /assets/prices/query": {
    changes: "Nothing: a read with a body.",
    request: [{ asset_id: 2, date_range: { start: "2024-01-01", end: "2024-01-31" }, include_events: true }],
  },
  "POST /assets/prices/current": {
    changes: "A provider quote dated today creates or extends today's price row; a database fallback is never written back.",
    request: [2, 999],
  },
  "POST /assets/prices/sync": {
    who: "Any asset, whoever keeps it: a sync stores only what the assigned provider answers.",
    changes: "Stores the provider's prices and events of each asset (`resume`: from the day after the last stored price).",
    request: [{ asset_id: 1, date_range: { start: "2024-01-01", end: "2024-01-31" } }],
    response: {
      results: [{
        asset_id: 1, status: "ok", provider_used: "yfinance", points_fetched: 21, points_changed: 21, inserted_count: 21,
        updated_count: 0, events_fetched: 0, events_changed: 0, message: "Stored 21 prices and 0 events", errors: [],
      }],
      success_count: 1, errors: [], total_points_changed: 21,
    },
  },
  "POST /assets/events": {
    who: ANY_ASSET,
    changes: "Manual events, item by item: each item is checked whole, then committed; a refused item ends the request and earlier items stay stored.",
    request: [{ asset_id: 2, events: [{ date: "2024-03-15", type: "DIVIDEND", value: { code: "USD", amount: "0.24" }, notes: "Q1 dividend" }] }],
  },
  "POST /assets/events/query": {
    changes: "Nothing: a read with a body.",
    request: [{ asset_id: 2, date_range: { start: "2024-01-01", end: "2024-12-31" } }],
  },
  "POST /transactions/validate": {
    who: EDITOR,
    changes: "Nothing: every check of a commit runs, nothing is kept (`committed` is always false).",
    request: { creates: [{ type: "BUY", broker_id: 1, asset_id: 2, date: "2024-01-03", quantity: "10", cash: { code: "EUR", amount: "-1028.00" } }] },
  },
  "POST /transactions/commit": {
    who: EDITOR,
    changes: "Applies deletes, updates, creates, splits and promotes in one database transaction, all or nothing: any issue keeps nothing and the answer lists the issues (status 200 either way).",
    request: {
      creates: [
        { type: "BUY", broker_id: 1, asset_id: 2, date: "2024-01-03", quantity: "10", cash: { code: "EUR", amount: "-1028.00" }, tags: ["core"] },
        { type: "DIVIDEND", broker_id: 1, asset_id: 2, date: "2024-03-15", cash: { code: "EUR", amount: "8.50" } },
        { type: "WITHDRAWAL", broker_id: 1, date: "2024-04-01", cash: { code: "EUR", amount: "-100.00" } },
        { type: "DEPOSIT", broker_id: 2, date: "2024-04-01", cash: { code: "EUR", amount: "100.00" } },
      ],
    },
  },
  "POST /transactions/events/suggest": {
    changes: "Nothing: a read with a body.",
    request: [{ asset_id: 2, date: "2024-03-15", type: "DIVIDEND", tolerance_days: 3 }],
  },
  "POST /transactions/promote-suggest": {
    changes: "Nothing: a read with a body.",
    request: [{ id: 4, type: "WITHDRAWAL", broker_id: 1, date: "2024-04-01", currency: "EUR", amount: "-100.00" }],
  },
  "POST /transactions/transfers/promote": {
    who: EDITOR + " Applies to both brokers.",
    changes: "Replaces the WITHDRAWAL and the DEPOSIT with one paired operation, atomically (rolled back on any issue).",
    request: { from_tx_id: 4, to_tx_id: 5, new_type: "CASH_TRANSFER" },
  },

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
  },  "POST /fx/currencies/sync": {
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
  "POST /portfolio/report": {
    changes: "Nothing stored; the result is cached until the next write.",
    request: { broker_ids: [1], date_range: { start: "2024-01-01", end: "2024-06-30" }, target_currency: "EUR", include_summary: true, include_history: false },
  },
  "POST /portfolio/wac": {
    changes: "Nothing: a read with a body.",
    request: { queries: [{ broker_id: 1, asset_id: 2 }] },
  },
  "POST /portfolio/lots/analysis": {
    changes: "Nothing stored; the result is cached until the next write (`force` bypasses the cache).",
    request: { asset_id: 2, broker_ids: [1], target_currency: "EUR", requested_analyses: ["LOT_SUMMARY"] },
  },
  "POST /portfolio/realized-gains": {
    changes: "Nothing: a read with a body.",
    request: { broker_ids: [1], year: 2024, target_currency: "EUR" },
  },
  "POST /assets/merge": {
    who: ANY_ASSET,
    changes: "Moves the source asset's transactions, prices and events to the target and deletes the source; `dry_run` only previews.",
    request: { source_asset_id: 1, target_asset_id: 2, dry_run: true },
  },
  "POST /uploads": {
    changes: "Stores the file under DATA_DIR and a record owned by the caller.",
  },
  "DELETE /uploads/{file_id}": {
    who: "The uploader or a superuser (403 otherwise).",
    changes: "Deletes the record and its bytes.",
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
  "DELETE /assets/events": {
    who: ANY_ASSET,
    changes: "Deletes manual events; one linked by a transaction is reported `in_use` and kept.",
  },
  "DELETE /assets/prices": {
    who: ANY_ASSET,
    changes: "Deletes the asset's prices within the inclusive date ranges.",
    request: [{ asset_id: 2, date_ranges: [{ start: "2024-01-02", end: "2024-01-02" }] }],
  },
  "POST /assets/{asset_id}/market-data/wipe": {
    who: ANY_ASSET,
    changes: "Deletes every price and every event (manual included) of the asset, unlinking transactions first.",
  },
  "DELETE /assets/provider": {
    who: ANY_ASSET,
    changes: "Removes the assignments; the provider's prices and events go with them (manual ones stay).",
  },
  "DELETE /assets": {
    who: ANY_ASSET,
    changes: "Deletes assets with their prices, events and assignment; an asset used by a transaction is refused per item (HAS_TRANSACTIONS).",
  },
  "PATCH /brokers/{id}/access/me": {
    changes: "Lowers the caller's own role (an OWNER's share becomes 0); the last OWNER cannot (409 LAST_OWNER).",
    request: { role: "VIEWER" },
  },
  "DELETE /brokers/{id}/access/me": {
    changes: "Removes the caller's access row; when the last OWNER leaves, the broker is deleted with its transactions and broker-report files.",
  },  "DELETE /brokers/{id}/access/{user_id}": {
    who: "The broker's OWNER, or the user themself.",
    changes: "Removes the access row; the last OWNER cannot be removed (409 LAST_OWNER).",
  },

  "DELETE /brokers/{id}": {
    who: OWNER,
    changes: "Deletes the broker, all its transactions, its access rows and its broker-report files.",
  },
  "DELETE /auth/users/me": {
    who: "Any signed-in user, by session cookie only.",
    changes: "Deletes the caller's account, settings and access rows; brokers where the caller was the last OWNER are deleted with their transactions. Refused for the only superuser (400 LAST_SUPERUSER).",
  },  "POST /backup/export": {
    who: "Any signed-in user for `json` (only what the caller owns or can read); superusers only for `sqlite` (the whole database; "
      + "409 EXPORT_FORMAT_UNAVAILABLE when the server runs on PostgreSQL).",
    changes: "Nothing stored; answers with the export file as a download.",
    request: { format: "json", scope: ["all"], include_price_history: false },
  },
  "POST /backup/restore": {
    who: "The uploader of the file; replacing existing data (`overwrite_existing`) needs the OWNER role on the brokers concerned.",
    changes: "Restores a JSON export uploaded through /uploads, all or nothing: brokers are recreated with the caller as OWNER, assets matched by ISIN, then ticker, then name (or created), duplicates skipped (or replaced with `overwrite_existing`). Every row is first held to its write route's rules (decimal limits, real dates, enums): any row outside them refuses the restore with 422 BACKUP_ROWS_INVALID listing the rows, and nothing is written. Counts per section (docs/backup.md).",
    request: { file_id: 7, overwrite_existing: false },
    response: { restored: { assets: 4, brokers: 2, broker_access: 2, transactions: 148, prices: 0 }, skipped: { assets: 1, brokers: 0, broker_access: 0, transactions: 0, prices: 0 }, warnings: [] },
  },
  "DELETE /users/{user_id}/sessions": {
    changes: "Revokes every session of the user (cookies and tokens issued before now stop working); the user logs in again.",
  },
  // Answers written by hand: replaying them would promote bob or change his password for every later example.
  "PATCH /users/{user_id}": {
    who: "Superusers only (403 ADMIN_REQUIRED otherwise). Not on one's own account, and never leaving no active superuser.",
    changes: "The account's active flag (a deactivated account's next request and logins get 401) and/or superuser flag (applies at its next request). Audit-logged.",
    request: { is_superuser: true },
    response: { id: 2, username: "bob", email: "bob@example.com", is_active: true, is_superuser: true, created_at: "2026-01-05T09:30:00.000Z" },
    errors: { 400: "CANNOT_CHANGE_SELF: the caller's own account deactivated or demoted; LAST_SUPERUSER: no active superuser would remain" },
  },
  "POST /users/{user_id}/password": {
    who: "Superusers only (403 ADMIN_REQUIRED otherwise).",
    changes: "The account's password hash, after the password policy (422 WEAK_PASSWORD); every session of the account ends. Audit-logged without the password.",
    request: { password: "a new long passphrase 7" },
    response: { message: "The password was reset and every session of the user was ended" },
  },
  "POST /auth/change-password": {
    who: "Any signed-in user, by session cookie only.",
    changes: "The caller's password hash; every earlier session of the caller ends and the answer sets a new session cookie.",
    request: { current_password: "correct horse 9", new_password: "battery staple 10" },
  },
  "POST /brokers/import/upload": {
    who: EDITOR,
    changes: "Stores the report under DATA_DIR/brim/<uuid> and a file record with the plugins that recognise it (no ledger change).",
    response: {
      file_id: "6f1c2d3e-4a5b-4c6d-8e9f-0a1b2c3d4e5f", filename: "Account.csv", size_bytes: 2391, status: "uploaded", uploaded_at: "2026-01-05T10:00:00.000Z",
      processed_at: null, compatible_plugins: ["broker_degiro", "broker_generic_csv"], error_message: null, uploaded_by_user_id: 1, target_broker_id: 1,
      parsed_plugin_code: null, parsed_plugin_version: null, parse_is_stale: false,
    },
  },
  "DELETE /brokers/import/files/{file_id}": {
    who: EDITOR,
    changes: "Deletes the file record, its bytes and its last parse. Transactions already committed stay.",
    response: { success: true, file_id: "6f1c2d3e-4a5b-4c6d-8e9f-0a1b2c3d4e5f" },
  },
  "POST /brokers/import/files/{file_id}/parse": {
    who: EDITOR,
    changes: "The file's status (parsed or failed), its error message and its last parse; nothing in the ledger (import through POST /brokers/import/files/{file_id}/commit).",
    request: { plugin_code: "auto", broker_id: 1 },
    response: {
      file_id: "6f1c2d3e-4a5b-4c6d-8e9f-0a1b2c3d4e5f", plugin_code: "broker_degiro", plugin_version: "1.0.0", broker_id: 1,
      transactions: [
        { broker_id: 1, type: "DEPOSIT", date: "2024-01-02", quantity: "0", cash: { code: "EUR", amount: "2500" } },
        { broker_id: 1, asset_id: 2147473647, type: "BUY", date: "2024-01-03", quantity: "10", cash: { code: "EUR", amount: "-1084.2" } },
      ],
      asset_mappings: [{
        fake_asset_id: 2147473647, extracted_isin: "IE00B3RBWM25", extracted_name: "VANGUARD FTSE ALL-WORLD UCITS ETF USD DIS",
        candidates: [{ asset_id: 3, symbol: "VWRL", isin: "IE00B3RBWM25", name: "Vanguard FTSE All-World", match_confidence: "exact" }],
        selected_asset_id: 3, notices: [{ kind: "rows", reason: "transactions that use this asset", transaction_indexes: [1] }],
      }],
      duplicates: { tx_unique_indices: [0, 1], tx_possible_duplicates: [], tx_likely_duplicates: [] },
      warnings: [{ severity: "info", code: "fillsMerged", message: "2 fills of order 7a1c9a43 were merged into one row", evidence: ["row 17", "row 18"] }],
      validation_issues: [], field_todos: [],
    },
  },
  "POST /brokers/import/files/{file_id}/commit": {
    who: "Needs the EDITOR or OWNER role on the file's broker and on the broker written to; a file or broker without an access row is 404.",
    changes: "dry_run false and no issue: creates the assets chosen to be created (the caller their keeper) and the rows, in one "
      + "database transaction; any issue or error writes nothing. dry_run true: nothing stored.",
    request: {
      dry_run: false, parse_token: "9b0c1d5e3f0a4b7c8d2e6f1a0b3c5d7e9f1a2b4c6d8e0f1a3b5c7d9e1f2a4b6c",
      edits: [{ row: 0, description: "Initial funding" }], skips: [], keep_duplicates: [],
      asset_choices: [{ fake_asset_id: 2147473647, action: "create", asset: { asset_type: "ETF" } }],
    },
    response: {
      dry_run: false, committed: true, file_id: "6f1c2d3e-4a5b-4c6d-8e9f-0a1b2c3d4e5f", broker_id: 1,
      parse_token: "9b0c1d5e3f0a4b7c8d2e6f1a0b3c5d7e9f1a2b4c6d8e0f1a3b5c7d9e1f2a4b6c", row_count: 3,
      rows: [
        { row: 0, transaction_id: 41, broker_id: 1, type: "DEPOSIT", date: "2024-01-02", quantity: "0", cash: { code: "EUR", amount: "2500" }, asset_id: null,
          fake_asset_id: null, link_uuid: null, tags: null, description: "Initial funding", cost_basis_override: null, cost_basis_mode: null, edited: true },
        { row: 2, transaction_id: 42, broker_id: 1, type: "BUY", date: "2024-01-03", quantity: "10", cash: { code: "EUR", amount: "-1084.2" }, asset_id: 7,
          fake_asset_id: 2147473647, link_uuid: null, tags: null, description: null, cost_basis_override: null, cost_basis_mode: null, edited: false },
      ],
      assets: [{
        fake_asset_id: 2147473647, action: "create", asset_id: 7, name: "VANGUARD FTSE ALL-WORLD UCITS ETF USD DIS", currency: "EUR", asset_type: "ETF",
        identifier_isin: "IE00B3RBWM25", identifier_ticker: null, rows: 1,
      }],
      skipped: [{ row: 1, reason: "duplicate" }],
      duplicates: [{ row: 1, match_level: "likely", existing_transaction_ids: [17], same_as_rows: [], skipped: true }],
      issues: [],
    },
  },
  "POST /brokers/import/duplicates": {
    who: EDITOR,
    changes: "Nothing stored: compares the rows with the broker's ledger.",
    request: { broker_id: 1, transactions: [{ type: "DEPOSIT", date: "2024-01-02", quantity: "0", cash: { code: "EUR", amount: "2500" } }], asset_mappings: [] },
    response: { tx_unique_indices: [], tx_possible_duplicates: [], tx_likely_duplicates: [{ tx_index: 0, match_level: "likely", existing_transaction_ids: [41] }] },
  },
  "POST /brokers/import/asset-candidates": {
    changes: "Nothing stored: searches the assets.",
    request: { items: [{ extracted_isin: "IE00B3RBWM25" }, { extracted_symbol: "AAPL" }] },
    response: { items: [
      { candidates: [{ asset_id: 3, symbol: "VWRL", isin: "IE00B3RBWM25", name: "Vanguard FTSE All-World", match_confidence: "exact" }] },
      { candidates: [{ asset_id: 4, symbol: "AAPL", isin: "US0378331005", name: "Apple Inc.", match_confidence: "high" }] },
    ] },
  },
  "POST /auth/logout": {
    changes: "Revokes the session token until it would have expired (its id is kept in the revocation list) and clears the `session` cookie.",
  },
  "PUT /assets/{id}/keeper": {
    changes: "The asset's keeper: from now on that user and superusers change the asset and its market data.",
    request: { user_id: 2 },
    response: { asset_id: 1, keeper_user_id: 2 },
  },

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
  "POST /signals/preview": {
    changes: "Nothing: a calculation on the points sent.",
    request: {
      domain: "asset", points: [{ date: "2024-01-02", value: 10 }, { date: "2024-01-03", value: 11 }, { date: "2024-01-04", value: 12 }],
      signals: [{ instance_id: "sma2", signal_code: "SMA", params: { period: 2 } }],
    },
    response: {
      signals: [{
        instance_id: "sma2", signal_code: "SMA", status: "ok",
        outputs: { value: [{ date: "2024-01-02", value: null }, { date: "2024-01-03", value: 10.5 }, { date: "2024-01-04", value: 11.5 }] },
      }],
    },
  },
  "POST /tools/compute": {
    who: "A `positions_from` broker needs an access row (404 otherwise).",
    changes: "Nothing stored: the tools are pure calculations run on the worker pool.",
    request: {
      request_id: "plan-2024-06",
      items: [{
        correlation_id: "pac", tool_code: "pac_allocator", contract_version: "1.0.0", implementation_version: "1.0.0",
        schema_fingerprint: "9f2c4e6a8b0d1f3e5a7c9e1b3d5f7a9c2e4b6d8f0a1c3e5b7d9f1a3c5e7b9d0f",
        parameters: {
          budget: { code: "EUR", amount: "300" },
          positions: [{ key: "A", price: "100", quantity: "1", target_weight: "0.5" }, { key: "B", price: "50", quantity: "0", target_weight: "0.5" }],
          whole_units: true,
        },
      }],
    },
    response: {
      request_id: "plan-2024-06",
      results: [{
        correlation_id: "pac", tool_code: "pac_allocator", contract_version: "1.0.0", implementation_version: "1.0.0",
        schema_fingerprint: "9f2c4e6a8b0d1f3e5a7c9e1b3d5f7a9c2e4b6d8f0a1c3e5b7d9f1a3c5e7b9d0f", execution_id: "3f0c9e62-1d7a-4c3e-9a55-0c1f8f1f2b11",
        metrics: { queue_ms: 0.01, execution_ms: 3.2 }, status: "success",
        result: {
          orders: [{ key: "A", quantity: "1", amount: "100" }, { key: "B", quantity: "4", amount: "200" }],
          cash_left: "0",
          weights_after: [{ key: "A", weight: "0.5" }, { key: "B", weight: "0.5" }],
        },
      }],
      metrics: { server_processing_ms: 4.1 },
      success_count: 1,
      failed_count: 0,
    },
  },
  "POST /ai-export/snapshot": {
    who: "Only brokers with an access row are read; asking for another is 404.",
    changes: "Nothing stored; the portfolio report it builds on is cached until the next write.",
    request: {
      domain: "fx", base_currency: "EUR", quote_currency: "USD", selection: { kind: "dataset", id: "fx.market_history", version: 1 },
      detail_level: "compact", period: { start: "2024-01-01", end: "2024-01-31" }, expected_catalog_version: 1,
    },
    response: {
      selection: { kind: "dataset", id: "fx.market_history", version: 1 },
      catalog_version: 1,
      generated_at: "2024-02-01T08:00:00.000Z",
      period: { start: "2024-01-01", end: "2024-01-31" },
      target_currency: "EUR",
      detail_level: "compact",
      data: { "fx.market_history": { pair: "EUR/USD", rates: [{ date: "2024-01-02", rate: "1.1", change_percent: "0" }, { date: "2024-01-31", rate: "1.08", change_percent: "-1.8182" }] } },
      markdown: "# Portfolio data for an AI assistant: Dataset fx.market_history v1\n\n- period: 2024-01-01 to 2024-01-31\n...",
    },
  },
};

/** A response written here wins over the captured one (sync answers: the capture runs offline). */
export const OPERATIONS: Record<string, OperationDoc> = Object.fromEntries(Object.entries(OPERATION_DOCS).map(([key, doc]) => [
  key, { ...(key in RESPONSES ? { response: (RESPONSES as Record<string, unknown>)[key] } : {}), ...doc },
]));

export function operationKey(method: string, path: string): string {
  return `${method.toUpperCase()} ${path.replace(/^\/api\/v1/, "") || "/"}`;
}
