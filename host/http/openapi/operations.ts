/** What each write changes, who beyond the session may call it, and its example request and response. */
export interface OperationDoc {
  /** Stored state the call changes (writes only). */
  readonly changes?: string;
  /** Role or ownership rules beyond "signed in". */
  readonly who?: string;
  readonly requestDescription?: string;
  /** Example request body (JSON). */
  readonly request?: unknown;
  /** Example success response body (JSON). */
  readonly response?: unknown;
}

/** `METHOD /path` (without the /api/v1 prefix) → its documentation. */
export const OPERATIONS: Record<string, OperationDoc> = {
};

export function operationKey(method: string, path: string): string {
  return `${method.toUpperCase()} ${path.replace(/^\/api\/v1/, "") || "/"}`;
}
