/**
 * The domain's error family. Core code throws these with a stable `code`
 * (spec codes verbatim); only host/http/errors.ts knows HTTP statuses.
 */
export class DomainError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly params?: Record<string, unknown>,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** Bad input that passed schema validation but breaks a rule (400). */
export class InputError extends DomainError {}

/** A field-level validation failure (422), with field paths; `code` narrows it (e.g. SHARE_INVALID). */
export class ValidationError extends DomainError {
  constructor(
    readonly issues: { loc: (string | number)[]; msg: string; type: string }[],
    message = "Validation failed",
    code = "VALIDATION_ERROR",
    params?: Record<string, unknown>,
  ) {
    super(code, message, params);
  }
}

/** A well-formed value the rule refuses as a whole, said in one message rather than per field (422). */
export class UnprocessableError extends DomainError {}

/** The thing asked for does not exist, or its existence is not revealed (404). */
export class NotFoundError extends DomainError {}

/** The request conflicts with stored state (409). */
export class ConflictError extends DomainError {}

/** Authenticated but not allowed (403). */
export class NotAllowedError extends DomainError {}

/** No usable session, or a disabled account (401). */
export class UnauthenticatedError extends DomainError {}

/** A body or upload over a configured limit (413). */
export class PayloadTooLargeError extends DomainError {}

/** Content of a kind the endpoint refuses, e.g. an executable sent as a broker report (415). */
export class UnsupportedMediaError extends DomainError {}

/** The server cannot satisfy the request because an upstream failed (502). */
export class UpstreamError extends DomainError {}

/** Too much work queued right now; try again shortly (429). */
export class BusyError extends DomainError {}

/** The service cannot take the request now (shutting down, a source failed) (503). */
export class UnavailableError extends DomainError {}

/** Too many attempts: retry after `retryAfterSeconds` (429 with a Retry-After header). */
export class TooManyRequestsError extends DomainError {
  constructor(code: string, message: string, readonly retryAfterSeconds: number) {
    super(code, message, { retry_after_seconds: retryAfterSeconds });
  }
}
