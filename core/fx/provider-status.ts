/**
 * The last sync outcome of each FX provider (table `fx_provider_status`, docs/fx.md "Provider
 * status"), with the failure's cause classified from the SDK error (reason and message) so a user
 * reads "no network", "the name does not resolve" or "HTTP 503" instead of a stack of words.
 */
import type { PluginErrorReason } from "../../sdk/index.ts";
import type { Queryable } from "../db/sql-reader.ts";

/** Why a provider call failed, as far as the error tells. */
export type SyncFailureCause = "offline" | "dns" | "http" | "timeout" | "blocked" | "rate_limited" | "bad_response" | "not_loaded" | "other";

export interface SyncFailure {
  cause: SyncFailureCause;
  httpStatus: number | null;
  message: string;
}

/**
 * Classifies a failed provider call. The SDK's HTTP client words its errors "<host> answered HTTP
 * 503", "<host> could not be reached: <system error>" and "gave no answer within"; the system error
 * tells a name that does not resolve (ENOTFOUND, EAI_AGAIN, getaddrinfo) from a network that is
 * down or refuses (ECONNREFUSED, "Unable to connect", ...).
 */
export function classifySyncFailure(message: string, reason?: PluginErrorReason | string): SyncFailure {
  const status = /\bHTTP (\d{3})\b/.exec(message);
  const out = (cause: SyncFailureCause, httpStatus: number | null = null): SyncFailure => ({ cause, httpStatus, message });
  if (reason === "blocked") return out("blocked");
  if (/is not loaded/.test(message)) return out("not_loaded");
  if (status) return out(Number(status[1]) === 429 ? "rate_limited" : "http", Number(status[1]));
  if (reason === "rate-limited") return out("rate_limited");
  if (reason === "timeout" || /no answer within|timed? ?out|ETIMEDOUT|TimeoutError/i.test(message)) return out("timeout");
  if (/ENOTFOUND|EAI_AGAIN|EAI_NONAME|getaddrinfo|DNS|could not resolve|resolve host/i.test(message)) return out("dns");
  if (/ECONNREFUSED|ECONNRESET|EHOSTUNREACH|ENETUNREACH|Unable to connect|could not be reached|network|fetch failed|socket|ConnectionRefused/i.test(message)) return out("offline");
  if (reason === "bad-response") return out("bad_response");
  if (reason === "unavailable") return out("offline");
  return out("other");
}

/** One provider's outcome in a sync: answered, or failed with its cause. */
export interface ProviderOutcome {
  provider: string;
  failure: SyncFailure | null;
}

/** Stores the outcomes of one sync (`at`: ISO time), the last one per provider winning. */
export async function recordProviderOutcomes(tx: Queryable, outcomes: readonly ProviderOutcome[], at: string): Promise<void> {
  const last = new Map(outcomes.map((o) => [o.provider, o]));
  for (const { provider, failure } of last.values()) {
    if (failure === null) {
      await tx.query(
        `INSERT INTO fx_provider_status (provider, last_attempt_at, last_success_at) VALUES (?, ?, ?)
         ON CONFLICT (provider) DO UPDATE SET last_attempt_at = excluded.last_attempt_at, last_success_at = excluded.last_success_at`,
        [provider, at, at]);
    } else {
      await tx.query(
        `INSERT INTO fx_provider_status (provider, last_attempt_at, last_error_at, last_error_cause, last_error_http_status, last_error_message)
         VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (provider) DO UPDATE SET last_attempt_at = excluded.last_attempt_at, last_error_at = excluded.last_error_at,
         last_error_cause = excluded.last_error_cause, last_error_http_status = excluded.last_error_http_status,
         last_error_message = excluded.last_error_message`,
        [provider, at, at, failure.cause, failure.httpStatus, failure.message.slice(0, 1000)]);
    }
  }
}

export interface ProviderStatus {
  provider: string;
  lastAttemptAt: string;
  lastSuccessAt: string | null;
  /** The last failure, when it came after the last success (an older one is history). */
  lastError: (SyncFailure & { at: string }) | null;
}

/** Every provider's status, by code. */
export async function readProviderStatus(reads: Queryable): Promise<Map<string, ProviderStatus>> {
  const rows = await reads.query(`SELECT provider, last_attempt_at, last_success_at, last_error_at, last_error_cause, last_error_http_status, last_error_message
    FROM fx_provider_status`) as {
    provider: string; last_attempt_at: string; last_success_at: string | null; last_error_at: string | null;
    last_error_cause: string | null; last_error_http_status: number | null; last_error_message: string | null;
  }[];
  return new Map(rows.map((r) => {
    const current = r.last_error_at !== null && (r.last_success_at === null || r.last_error_at > r.last_success_at);
    return [r.provider, {
      provider: r.provider, lastAttemptAt: r.last_attempt_at, lastSuccessAt: r.last_success_at,
      lastError: current ? {
        at: r.last_error_at!, cause: (r.last_error_cause ?? "other") as SyncFailureCause,
        httpStatus: r.last_error_http_status === null ? null : Number(r.last_error_http_status), message: r.last_error_message ?? "",
      } : null,
    }];
  }));
}
