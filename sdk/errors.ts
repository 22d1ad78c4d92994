/**
 * Why a plugin operation failed, as a stable code the host can map.
 *
 * `not-found` (the upstream has no such item), `unavailable` (network or 5xx),
 * `rate-limited` (HTTP 429 or a quota), `timeout` (no answer in time),
 * `bad-response` (the upstream answered something unparseable),
 * `invalid-input` (the request itself is wrong, e.g. an unknown currency),
 * `blocked` (the SDK's HTTP client refused the destination: an internal
 * address, a scheme other than http(s), too many redirects; since 1.2).
 */
export type PluginErrorReason =
  | "bad-response"
  | "blocked"
  | "invalid-input"
  | "not-found"
  | "rate-limited"
  | "timeout"
  | "unavailable";

/**
 * Every {@link PluginErrorReason}, sorted. Useful to validate a reason read from
 * elsewhere, e.g. `PLUGIN_ERROR_REASONS.includes(x)`.
 */
export const PLUGIN_ERROR_REASONS: readonly PluginErrorReason[] = Object.freeze([
  "bad-response",
  "blocked",
  "invalid-input",
  "not-found",
  "rate-limited",
  "timeout",
  "unavailable",
]);

const RETRYABLE_BY_DEFAULT: ReadonlySet<PluginErrorReason> = new Set(["rate-limited", "timeout", "unavailable"]);

/**
 * The serialisable part of a {@link PluginError}: what a batch outcome carries
 * and what crosses a worker boundary (class instances don't survive cloning).
 */
export interface PluginErrorLike {
  readonly message: string;
  readonly reason: PluginErrorReason;
  readonly retryable: boolean;
}

/**
 * The one error class plugins throw for expected failures.
 *
 * `retryable` defaults from the reason: `rate-limited`, `timeout` and
 * `unavailable` are retryable, the others are not; pass `retryable` to
 * override. The host turns it into per-item messages and never shows it to a
 * client raw. Example: `throw new PluginError("not-found", "no quote for XYZ")`.
 */
export class PluginError extends Error implements PluginErrorLike {
  readonly reason: PluginErrorReason;
  readonly retryable: boolean;

  constructor(reason: PluginErrorReason, message: string, options: { cause?: unknown; retryable?: boolean } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "PluginError";
    this.reason = reason;
    this.retryable = options.retryable ?? RETRYABLE_BY_DEFAULT.has(reason);
  }

  /** The plain-object form, e.g. for `{ ok: false, error: err.toJSON() }`. */
  toJSON(): PluginErrorLike {
    return { message: this.message, reason: this.reason, retryable: this.retryable };
  }
}

/**
 * True for a {@link PluginError}, also one created by another copy of the SDK
 * (checked by shape, not `instanceof`, since an external plugin may bundle its
 * own copy). Example: `if (isPluginError(e) && e.retryable) retryLater()`.
 */
export function isPluginError(value: unknown): value is PluginErrorLike & Error {
  if (!(value instanceof Error)) return false;
  const candidate = value as Partial<PluginErrorLike>;
  return (
    typeof candidate.reason === "string" &&
    PLUGIN_ERROR_REASONS.includes(candidate.reason) &&
    typeof candidate.retryable === "boolean"
  );
}

/**
 * One item's result in a batch: the value, or why this item failed. Batch
 * methods return one outcome per requested item, in request order, instead of
 * throwing, so one bad symbol never sinks the batch.
 * Example: `[{ ok: true, value: q }, { ok: false, error: { reason: "not-found", ... } }]`.
 */
export type Outcome<T> = { readonly ok: true; readonly value: T } | { readonly error: PluginErrorLike; readonly ok: false };

/**
 * Turns anything caught into a failed {@link Outcome}: a PluginError keeps its
 * reason, any other error becomes `unavailable` (retryable).
 * Example: `items.map(async (i) => fetchOne(i).then(ok, failure))`.
 */
export function failure(error: unknown): Outcome<never> {
  if (isPluginError(error)) {
    return { error: { message: error.message, reason: error.reason, retryable: error.retryable }, ok: false };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { error: { message, reason: "unavailable", retryable: true }, ok: false };
}

/** Wraps a value in a successful {@link Outcome}. Example: `return ok(quote)`. */
export function ok<T>(value: T): Outcome<T> {
  return { ok: true, value };
}

/**
 * Formats a zod error (or any object with zod-like `issues`) as one line,
 * `path: message; path: message`, for diagnostics and `invalid-input` errors.
 * Example: `"baseUrl: Invalid URL; timeoutMs: Too small"`.
 */
export function describeZodError(error: { issues: ReadonlyArray<{ message: string; path: ReadonlyArray<PropertyKey> }> }): string {
  return error.issues
    .map((issue) => `${issue.path.length ? issue.path.map(String).join(".") : "(root)"}: ${issue.message}`)
    .join("; ");
}
