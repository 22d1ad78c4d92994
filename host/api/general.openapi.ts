import type { AreaDocs } from "../http/openapi/operations.ts";

/**
 * Conventions for every wire field: decimals are strings, dates `YYYY-MM-DD`,
 * timestamps ISO 8601 in UTC, money `{code, amount}`; cash amounts are signed from the broker
 * account's point of view (negative leaves the account). `DEC` says "decimal" in field texts.
 */
export const DEC = "a decimal string";

/** Fields every area uses, listed first in host/api/openapi.ts; an area's own fields live in its `*.openapi.ts`. */
export const generalDocs: AreaDocs = {
  fields: {
    // identity and bookkeeping
    id: "Numeric id of this record",
    ids: "Ids of the transactions this operation wrote",
    user_id: "Id of a user account",
    broker_id: "Id of a broker",
    broker_ids: "Ids of brokers (only brokers the caller has an access row for are read)",
    asset_id: "Id of an asset",
    event_id: "Id of an asset event",
    transaction_id: "Id of a transaction",
    assignment_id: "Id of the provider assignment",
    lot_id: "Id of the FIFO lot (the id of the transaction that opened it)",
    ref_id: "Id of the stored transaction the issue is about, when it has one",
    index: "Position of the item in its request list, from 0",
    created_at: "When the record was created (ISO 8601, UTC)",
    updated_at: "When the record was last changed (ISO 8601, UTC)",
    updated_by: "Id of the user who last changed it",
    generated_at: "When this answer was computed (ISO 8601, UTC)",
    started_at: "When it started (ISO 8601, UTC)",
    version: "Version string",
    schema_version: "Version of this document layout",
    name: "Display name",
    description: "Free text description",
    notes: "Free text notes",
    message: "Human-readable outcome; may change between versions",
    msg: "What is wrong and how to fix it",
    loc: "Path of the field the issue is about",
    detail: "Details of the outcome",
    kind: "Kind of the item",
    key: "Stable key",
    label: "Display label",
    type: "Kind of the record (see the enumeration)",
    status: "Outcome or state (see the enumeration)",
    success: "True when this item was applied",
    success_count: "Number of items that succeeded",
    error: "Why this item failed; absent or null when it succeeded",
    error_code: "Stable code of the failure",
    error_count: "Number of items that failed",
    errors: "Operation-level errors (per-item errors are in the items)",
    results: "One result per request item, in request order",
    items: "The records",
    count: "Number of entries",
    total: "Total number",
    issues: "Problems found; each names its code and the item it is about",
    field: "The request field the item is about",
    params: "Parameters of the message (for translations)",
    icon: "Icon name",
    icon_url: "URL of an icon image (stored as sent; escape before rendering)",
    url: "URL to fetch it from",
    user_url: "A web page about the asset chosen by the user",
    // money
    code: "Three-letter currency code (ISO 4217), or a stable code where the object is not money",
    amount: `Amount, ${DEC}; signed where it is a cash movement (negative leaves the account)`,
    currency: "Three-letter currency code (ISO 4217)",
    cash: "Cash movement {code, amount}; a negative amount leaves the account",
    quantity: `Units of the asset, ${DEC}; positive adds to the position, negative removes`,
    date: "Date, YYYY-MM-DD",
    // query and path parameters
    q: "Search text",
    limit: "Largest number of entries to return",
    offset: "Entries to skip before the first returned (for paging)",
    since: "Only entries at or after this time (ISO 8601)",
  },
};
