/**
 * The typed fetch wrapper: every call is checked against the generated `paths` of
 * /api/v1/openapi.json (schema.d.ts), so a path, a body or a response shape that the API does
 * not have fails `tsc`. Errors arrive as {@link ApiError} (the one error body of docs/errors.md);
 * a 401 on any call but the auth ones sends the browser to the login page and back afterwards.
 */
import type { paths } from "./schema";
import { errorMessage } from "../lib/error-messages.ts";
import { t } from "../lib/i18n.ts";

export const API_BASE = "/api/v1";

type Method = "get" | "post" | "put" | "patch" | "delete";
type Strip<P> = P extends `/api/v1${infer S}` ? S : never;
/** Paths (without the /api/v1 prefix) that have an operation for the method. */
export type PathFor<M extends Method> = {
  [P in keyof paths]: paths[P] extends { [K in M]: object } ? Strip<P> : never
}[keyof paths];
type Full<P extends string> = `/api/v1${P}` & keyof paths;
export type Operation<M extends Method, P extends PathFor<M>> = paths[Full<P>][M];

type Params<O, K extends string> = O extends { parameters: { [Q in K]?: infer V } } ? V : never;
export type Body<M extends Method, P extends PathFor<M>> =
  Operation<M, P> extends { requestBody?: { content: { "application/json": infer B } } } ? B : never;
type JsonOf<R> = R extends { content: { "application/json": infer J } } ? J : unknown;
/** The JSON of the operation's 200 (or 201) answer. */
export type Result<M extends Method, P extends PathFor<M>> =
  Operation<M, P> extends { responses: infer R }
    ? R extends { 200: infer A } ? JsonOf<A> : R extends { 201: infer A } ? JsonOf<A> : unknown
    : unknown;

export interface RequestOptions<M extends Method, P extends PathFor<M>> {
  path?: Params<Operation<M, P>, "path">;
  query?: Params<Operation<M, P>, "query">;
  body?: Body<M, P> | FormData;
  signal?: AbortSignal;
  /** Do not send the browser to the login page on 401 (the login form, the session probe). */
  noRedirect?: boolean;
}

/** One item of a 422 `detail` list (docs/errors.md). */
export interface FieldIssue { loc: (string | number)[]; msg: string; type: string }

/** An error answer of the API, or a network failure (status 0). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    detail: string,
    readonly params: Record<string, unknown> = {},
    readonly issues: FieldIssue[] = [],
  ) {
    super(detail);
    this.name = "ApiError";
  }

  /** The issue messages for a body field path such as `items.0.value` (422 only). */
  fieldMessages(field: string): string[] {
    return this.issues.filter((i) => i.loc.slice(1).join(".") === field).map((i) => i.msg);
  }
}

/** Reads any error answer into an ApiError, whatever shape a proxy or the API gave it. */
export async function toApiError(res: Response): Promise<ApiError> {
  let body: unknown = undefined;
  try { body = await res.json(); } catch { /* not JSON: a proxy page, an empty body */ }
  if (body && typeof body === "object" && "detail" in body) {
    const b = body as { detail: unknown; code?: unknown; params?: unknown };
    const code = typeof b.code === "string" ? b.code : `HTTP_${res.status}`;
    const params = b.params && typeof b.params === "object" ? b.params as Record<string, unknown> : {};
    if (Array.isArray(b.detail)) {
      const issues = b.detail.filter((i): i is FieldIssue => !!i && typeof i === "object" && Array.isArray(i.loc));
      const text = issues.map((i) => `${i.loc.slice(1).join(".") || i.loc.join(".")}: ${i.msg}`).join("; ");
      return new ApiError(res.status, code, text || t("The request was not valid"), params, issues);
    }
    return new ApiError(res.status, code, String(b.detail), params);
  }
  return new ApiError(res.status, `HTTP_${res.status}`, res.statusText || `The server answered ${res.status}`);
}

/** Where a 401 sends the browser; replaced in unit tests. */
export const session = {
  onExpired(): void {
    const here = location.pathname + location.search;
    if (location.pathname === "/login" || location.pathname === "/register") return;
    location.assign(`/login?expired=1&next=${encodeURIComponent(here)}`);
  },
};

const AUTH_PATHS = ["/auth/login", "/auth/register", "/auth/logout"];

export function buildUrl(path: string, pathParams?: object, query?: object): string {
  let url = API_BASE + path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = (pathParams as Record<string, unknown> | undefined)?.[name];
    if (value === undefined || value === null) throw new Error(`missing path parameter ${name}`);
    return encodeURIComponent(String(value));
  });
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const v of value) search.append(key, String(v));
    else search.append(key, String(value));
  }
  const qs = search.toString();
  if (qs) url += `?${qs}`;
  return url;
}

/** The raw call: returns the Response when it is 2xx, throws ApiError otherwise. */
export interface RawOptions { path?: object; query?: object; body?: unknown; signal?: AbortSignal; noRedirect?: boolean }

export async function call(method: Method, path: string, opts: RawOptions = {}): Promise<Response> {
  const init: RequestInit = { method: method.toUpperCase(), credentials: "same-origin", signal: opts.signal, headers: {} };
  if (opts.body instanceof FormData) init.body = opts.body;
  else if (opts.body !== undefined) {
    init.body = JSON.stringify(opts.body);
    (init.headers as Record<string, string>)["content-type"] = "application/json";
  }
  let res: Response;
  try {
    res = await fetch(buildUrl(path, opts.path, opts.query), init);
  } catch (e) {
    if ((e as Error).name === "AbortError") throw e;
    throw new ApiError(0, "NETWORK_ERROR", t("The server could not be reached"));
  }
  if (res.ok) return res;
  const error = await toApiError(res);
  if (res.status === 401 && !opts.noRedirect && !AUTH_PATHS.includes(path)) session.onExpired();
  throw error;
}

async function json<T>(res: Response): Promise<T> {
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/** Typed calls: `api.get("/brokers/{id}", { path: { id } })`. */
export const api = {
  get: async <P extends PathFor<"get">>(p: P, o?: RequestOptions<"get", P>) => json<Result<"get", P>>(await call("get", p, o as RawOptions)),
  post: async <P extends PathFor<"post">>(p: P, o?: RequestOptions<"post", P>) => json<Result<"post", P>>(await call("post", p, o as RawOptions)),
  put: async <P extends PathFor<"put">>(p: P, o?: RequestOptions<"put", P>) => json<Result<"put", P>>(await call("put", p, o as RawOptions)),
  patch: async <P extends PathFor<"patch">>(p: P, o?: RequestOptions<"patch", P>) => json<Result<"patch", P>>(await call("patch", p, o as RawOptions)),
  delete: async <P extends PathFor<"delete">>(p: P, o?: RequestOptions<"delete", P>) => json<Result<"delete", P>>(await call("delete", p, o as RawOptions)),
};

/** A human sentence for any thrown value: an API error worded from its code and params when the app knows it. */
export function errorText(e: unknown): string {
  if (e instanceof ApiError) return errorMessage(e.code, e.params) ?? e.message;
  if (e instanceof Error) return e.message;
  return String(e);
}
