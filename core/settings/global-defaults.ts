import type { GlobalValueType } from "./global-setting.entity.ts";

export interface GlobalDefault {
  readonly key: string;
  readonly value: string;
  readonly valueType: GlobalValueType;
  readonly description: string;
}

/** Allow-list of internal destinations for plugins' HTTP calls (docs/security.md). */
export const OUTBOUND_ALLOWED_HOSTS = "outbound_allowed_hosts";

/** The global settings: key, type and default. */
export const GLOBAL_DEFAULTS: readonly GlobalDefault[] = [
  { key: "session_ttl_hours", value: "24", valueType: "int", description: "Session token and cookie lifetime in hours, read at login" },
  { key: "enable_registration", value: "true", valueType: "bool", description: "Allow self-registration (the first account is always allowed)" },
  { key: "require_email_verification", value: "false", valueType: "bool", description: "Placeholder, read-only in the UI" },
  { key: "max_file_upload_mb", value: "10", valueType: "int", description: "Largest accepted upload in MiB" },
  { key: "scheduler_enabled", value: "true", valueType: "bool", description: "Run the price and history scheduler" },
  { key: "scheduler_current_price_frequency_minutes", value: "10", valueType: "int", description: "Minutes between current-price refreshes" },
  { key: "scheduler_history_sync_times", value: "06:00,23:00", valueType: "str", description: "Times of day (HH:MM, comma separated) of the history sync" },
  { key: "scheduler_history_sync_days", value: "mon,tue,wed,thu,fri,sat", valueType: "str", description: "Weekdays of the history sync" },
  { key: "scheduler_history_sync_horizon_days", value: "14", valueType: "int", description: "Days of history fetched by each sync" },
  { key: "scheduler_timezone", value: "UTC", valueType: "str", description: "Time zone of the scheduler's times" },
  { key: "default_currency", value: "EUR", valueType: "str", description: "Base currency seeded into new user settings" },
  { key: "default_language", value: "en", valueType: "str", description: "Language seeded into new user settings" },
  { key: "default_theme", value: "auto", valueType: "str", description: "Theme seeded into new user settings" },
  {
    key: "outbound_allowed_hosts", value: "", valueType: "str",
    description: "Internal hosts, addresses, host:port or CIDR ranges plugins may fetch from (comma separated); everything else internal is refused",
  },
];

export const GLOBAL_DEFAULTS_BY_KEY = new Map(GLOBAL_DEFAULTS.map((d) => [d.key, d]));

const TRUE_WORDS = new Set(["true", "1", "yes", "on"]);

/** Typed read of a stored string (int: unparsable → 0; bool true for true/1/yes/on; json parsed). */
export function parseGlobalValue(value: string, type: GlobalValueType): string | number | boolean | unknown {
  switch (type) {
    case "int": {
      const trimmed = value.trim();
      if (!/^[+-]?\d+$/.test(trimmed)) return 0;
      const n = Number.parseInt(trimmed, 10);
      return Number.isSafeInteger(n) ? n : 0;
    }
    case "bool":
      return TRUE_WORDS.has(value.trim().toLowerCase());
    case "json":
      try {
        return JSON.parse(value);
      } catch {
        return null;
      }
    default:
      return value;
  }
}
