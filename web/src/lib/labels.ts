/**
 * Names for the codes the API speaks (roles, statuses, setting keys, job names): the code stays
 * what the API receives, people read the name in their language. A code this app does not know
 * shows as is, so a newer server never breaks the page.
 */
import { msg, t } from "./i18n.ts";

function label(table: Readonly<Record<string, string>>, code: string | null | undefined): string {
  if (!code) return "";
  const name = table[code];
  return name ? t(name) : code;
}

/** Broker roles (docs/web.md "Sharing"). */
export const ROLE_NAMES: Readonly<Record<string, string>> = {
  OWNER: msg("Owner"),
  EDITOR: msg("Editor"),
  VIEWER: msg("Viewer"),
};
export const roleLabel = (code: string | null | undefined) => label(ROLE_NAMES, code);

/** Status of a broker report (`FileInfo.status`). */
const REPORT_STATUS: Readonly<Record<string, string>> = {
  uploaded: msg("Uploaded, not read yet"),
  parsed: msg("Read, ready to import"),
  failed: msg("Could not be read"),
};
export const reportStatusLabel = (code: string | null | undefined) => label(REPORT_STATUS, code);

/** Outcome of a scheduler run or a sync. */
const RUN_STATUS: Readonly<Record<string, string>> = {
  ok: msg("succeeded"),
  partial: msg("partly succeeded"),
  error: msg("failed"),
  failed: msg("failed"),
  skipped: msg("skipped"),
};
export const runStatusLabel = (code: string | null | undefined) => label(RUN_STATUS, code);

/** A lot's direction and how complete a lot calculation is (`POST /portfolio/lots/analysis`). */
const LOT_WORDS: Readonly<Record<string, string>> = {
  LONG: msg("Long"),
  SHORT: msg("Short"),
  COMPLETE: msg("complete"),
  DEGRADED: msg("incomplete: some data is missing"),
  FAILED: msg("could not be calculated"),
};
export const lotLabel = (code: string | null | undefined) => label(LOT_WORDS, code);

/** Status of a plugin at start-up (`GET /system/plugin-diagnostics`). */
const PLUGIN_STATUS: Readonly<Record<string, string>> = {
  loaded: msg("loaded"),
  disabled: msg("disabled"),
  failed: msg("failed to load"),
  incompatible: msg("incompatible"),
};
export const pluginStatusLabel = (code: string | null | undefined) => label(PLUGIN_STATUS, code);

/** How a price provider finds an asset (`identifier_type` of a provider assignment). */
const IDENTIFIER_TYPES: Readonly<Record<string, string>> = {
  TICKER: msg("ticker"),
  ISIN: msg("ISIN"),
  URL: msg("web address"),
  AUTO_GENERATED: msg("generated"),
};
export const identifierTypeLabel = (code: string | null | undefined) => label(IDENTIFIER_TYPES, code);

/** The server caches (`GET /settings/cache/status`), by what they keep. */
const CACHE_NAMES: Readonly<Record<string, string>> = {
  search_results: msg("Provider search results"),
  search_queries: msg("Provider searches"),
  asset_history_fetch: msg("Fetched price histories"),
  asset_current_fetch: msg("Fetched current prices"),
  asset_metadata_fetch: msg("Fetched asset details"),
  fx_provider_responses: msg("Fetched exchange rates"),
  portfolio_blob: msg("Portfolio reports"),
  portfolio_layer2: msg("Lot analyses"),
  portfolio_wac: msg("Average cost series"),
  upload_metadata: msg("Uploaded files"),
  scheduled_investment: msg("Scheduled investment values"),
  risk_optimization: msg("Portfolio optimisations"),
  risk_simulation: msg("Risk simulations"),
};
export const cacheLabel = (code: string | null | undefined) => label(CACHE_NAMES, code);

/** What a plugin adds (`kind` of a plugin manifest). */
const PLUGIN_KINDS: Readonly<Record<string, string>> = {
  "ai-export-dataset": msg("AI export data set"),
  "calculation-tool": msg("Calculation tool"),
  "fx-provider": msg("Exchange-rate provider"),
  "import-plugin": msg("Broker report reader"),
  "quote-provider": msg("Price provider"),
  "risk-tool": msg("Risk analysis"),
  "scheduled-investment-provider": msg("Scheduled investment provider"),
};
export const pluginKindLabel = (code: string | null | undefined) => label(PLUGIN_KINDS, code);

/** Scheduler jobs. */
const JOB_NAMES: Readonly<Record<string, string>> = {
  current_price: msg("Current prices"),
  history_sync: msg("Price history sync"),
};
export const jobLabel = (code: string | null | undefined) => label(JOB_NAMES, code);

/** Server settings (`GET /settings/global`): a label and a hint for each key. */
const SETTINGS: Readonly<Record<string, { label: string; hint: string }>> = {
  session_ttl_hours: { label: msg("Session length (hours)"), hint: msg("How long a sign-in lasts, applied at the next sign-in.") },
  enable_registration: { label: msg("Allow registration"), hint: msg("Let people create their own account (the first account is always allowed).") },
  require_email_verification: { label: msg("Require email verification"), hint: msg("Not in use yet.") },
  max_file_upload_mb: { label: msg("Largest upload (MiB)"), hint: msg("Larger files are refused.") },
  scheduler_enabled: { label: msg("Scheduler on"), hint: msg("Refresh prices and price history automatically.") },
  scheduler_current_price_frequency_minutes: { label: msg("Current prices every (minutes)"), hint: msg("Minutes between two refreshes of current prices.") },
  scheduler_history_sync_times: { label: msg("History sync times"), hint: msg("Times of day (HH:MM, separated by commas).") },
  scheduler_history_sync_days: { label: msg("History sync days"), hint: msg("Weekdays (mon, tue, …, separated by commas).") },
  scheduler_history_sync_horizon_days: { label: msg("History sync depth (days)"), hint: msg("Days of history fetched by each sync.") },
  scheduler_timezone: { label: msg("Scheduler time zone"), hint: msg("The time zone of the sync times, such as Europe/Rome.") },
  default_currency: { label: msg("Base currency of new users"), hint: msg("New accounts start with this currency.") },
  default_language: { label: msg("Language of new users"), hint: msg("New accounts start with this language.") },
  default_theme: { label: msg("Theme of new users"), hint: msg("New accounts start with this theme.") },
  outbound_allowed_hosts: { label: msg("Internal hosts plugins may reach"), hint: msg("Hosts, addresses, host:port or address ranges on your network that plugins may fetch from (separated by commas); any other internal address is refused.") },
};
export const settingLabel = (key: string) => (SETTINGS[key] ? t(SETTINGS[key].label) : key);
/** The hint of a known setting; the server's description of one this app does not know. */
export const settingHint = (key: string, description: string | null | undefined) => (SETTINGS[key] ? t(SETTINGS[key].hint) : description ?? undefined);
