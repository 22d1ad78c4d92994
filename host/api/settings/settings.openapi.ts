import type { AreaDocs } from "../../http/openapi/operations.ts";

/** OpenAPI text of the settings area, listed in host/api/openapi.ts (docs/architecture.md "Where to add"). */
export const settingsDocs: AreaDocs = {
  tag: { name: "settings", description: "Per-user settings, global settings (admin), scheduler state and logs, caches" },
  operations: {
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
  },
  fields: {
    value_type: "How the stored string is read: str, int, bool or json",
    value: "The value",
    cleared_count: "Number of caches emptied",
    current_size: "Entries in the cache now",
    maxsize: "Maximum number of entries",
    ttl_seconds: "Lifetime of an entry, in seconds",
    created: "Keys of the rows created",
  },
};
