/** What each write changes, who beyond the session may call it, and its example request and response. */
export interface OperationDoc {
  /** Stored state the call changes (writes only). */
  readonly changes?: string;
  /** Role or ownership rules beyond "signed in". */
  readonly who?: string;
  /** Example request body (JSON). */
  readonly request?: unknown;
  /** Example success response body (JSON); captured from a real server into host/api/response-examples.json. */
  readonly response?: unknown;
  /** What a status the route declares for its own rules means here (its codes), when the general text would mislead. */
  readonly errors?: Readonly<Record<number, string>>;
}

/**
 * One area's OpenAPI text, kept in its own folder (`host/api/<area>/<area>.openapi.ts`) and listed
 * in `host/api/openapi.ts`, so the kernel's document builder knows no area.
 */
export interface AreaDocs {
  /** The area's tag (the `tags` its routes carry), in the order the list gives. */
  readonly tag?: { readonly name: string; readonly description: string };
  /** `METHOD /path` (without the /api/v1 prefix) → its documentation. */
  readonly operations?: Readonly<Record<string, OperationDoc>>;
  /** Descriptions of wire fields by name, used where a schema gives none (glossary.ts). */
  readonly fields?: Readonly<Record<string, string>>;
}

/**
 * Every area's operations in one map. A response written in an area wins over the captured one
 * (sync answers: the capture runs offline). An operation documented by two areas is refused, so
 * neither text silently wins.
 */
export function operationDocs(areas: readonly AreaDocs[], responses: Readonly<Record<string, unknown>>): Record<string, OperationDoc> {
  const out: Record<string, OperationDoc> = {};
  for (const area of areas) {
    for (const [key, doc] of Object.entries(area.operations ?? {})) {
      if (Object.hasOwn(out, key)) throw new Error(`OpenAPI: operation ${key} is documented twice`);
      out[key] = { ...(Object.hasOwn(responses, key) ? { response: responses[key] } : {}), ...doc };
    }
  }
  return out;
}

export function operationKey(method: string, path: string): string {
  return `${method.toUpperCase()} ${path.replace(/^\/api\/v1/, "") || "/"}`;
}
