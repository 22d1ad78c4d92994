import { Elysia } from "elysia";
import { z } from "zod";
import {
  BusyError, ConflictError, DomainError, InputError, NotAllowedError, NotFoundError, PayloadTooLargeError,
  TooManyRequestsError, UnauthenticatedError, UnavailableError, UnprocessableError, UnsupportedMediaError, UpstreamError, ValidationError,
} from "../../core/errors/domain-error.ts";
import type { Logger } from "../logger.ts";
import { type Issue, schemaIssues } from "../../core/errors/validation-issues.ts";
import { requestPath } from "./request-url.ts";

const ErrorParams = z.record(z.string(), z.unknown()).optional()
  .describe("Context for the error (the limit exceeded, the unknown key, ...); present only when useful");

/** One issue of a refused request: where (`loc`) and what to change (`msg`). */
export const ValidationIssue = z.object({
  loc: z.array(z.union([z.string(), z.number()]))
    .describe("Where the value is: `body`, `query` or `params`, then the path inside it (keys and array indexes)"),
  msg: z.string().describe("What is wrong and, where possible, how to fix it"),
  type: z.string().describe("Stable issue kind (`invalid_type`, `unrecognized_keys`, `too_small`, ...)"),
}).meta({ id: "ValidationIssue" });

/** The one error body (docs/errors.md). */
export const ErrorBody = z.object({
  detail: z.string().describe("A message for people; it may change between versions"),
  code: z.string().describe("Stable error code; clients branch on it (docs/errors.md)"),
  params: ErrorParams,
}).meta({ id: "ErrorBody", description: "Every error response except request validation" });

/** The error body of request validation (422): the issues instead of one message. */
export const ValidationErrorBody = z.object({
  detail: z.array(ValidationIssue).describe("One entry per problem found"),
  code: z.string().describe("`VALIDATION_ERROR`, or a rule code with the same layout such as `SHARE_INVALID`"),
  params: ErrorParams,
}).meta({ id: "ValidationErrorBody", description: "A request that does not match the schema (422)" });

export type ErrorBody = { detail: string | z.infer<typeof ValidationIssue>[]; code: string; params?: Record<string, unknown> };

/** Category → status: the only place that knows HTTP statuses of domain errors. */
const STATUS_BY_CATEGORY: [Function, number][] = [
  [UnprocessableError, 422],
  [ValidationError, 422],
  [InputError, 400],
  [UnauthenticatedError, 401],
  [NotAllowedError, 403],
  [NotFoundError, 404],
  [ConflictError, 409],
  [PayloadTooLargeError, 413],
  [UnsupportedMediaError, 415],
  [TooManyRequestsError, 429],
  [UpstreamError, 502],
  [BusyError, 429],
  [UnavailableError, 503],
];

export function statusOf(error: DomainError): number {
  return STATUS_BY_CATEGORY.find(([cls]) => error instanceof cls)?.[1] ?? 400;
}

export function errorResponse(status: number, body: ErrorBody, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

function domainErrorBody(error: DomainError): ErrorBody {
  if (error instanceof ValidationError) {
    return { detail: error.issues, code: error.code, ...(error.params ? { params: error.params } : {}) };
  }
  return { detail: error.message, code: error.code, ...(error.params ? { params: error.params } : {}) };
}

/** The zod issues of a failed request, re-read from the route's schema; null when the validator is not zod. */
function zodIssues(on: string, validator: any, value: unknown): Issue[] | null {
  const schema = validator instanceof z.ZodType ? validator : validator?.schema;
  if (!(schema instanceof z.ZodType)) return null;
  return schemaIssues(on, schema, value);
}

/** Elysia's validation issues as field paths (`loc`), without echoing the submitted values. */
function validationIssues(error: any): Issue[] {
  const on: string = error.type ?? "body";
  try {
    const fromZod = zodIssues(on, error.validator, error.value);
    if (fromZod?.length) return fromZod;
  } catch {
    // fall back to Elysia's own issue list below
  }
  const all: any[] = Array.isArray(error.all) ? error.all : [];
  const issues = all.map((i) => {
    const raw = typeof i.path === "string" ? i.path : "";
    const path = raw === "root" || raw === "" ? [] : raw.replace(/^\//, "").split(/[./]/);
    return {
      loc: [on, ...path.map((p: string) => (/^\d+$/.test(p) ? Number(p) : p))],
      msg: String(i.message ?? i.summary ?? "Invalid value"),
      type: String(i.code ?? error.valueError?.code ?? "invalid"),
    };
  });
  return issues.length ? issues : [{ loc: [on], msg: "Invalid request", type: "invalid" }];
}

/**
 * The methods the app's routes take on `path` (Elysia's route list; `:param` segments match any
 * segment), for the 405 of a known path asked with another method.
 */
export function routeMethods(routes: () => readonly { method: string; path: string }[]): (path: string) => string[] {
  let table: { pattern: RegExp; method: string }[] | undefined;
  return (path) => {
    table ??= routes().filter((r) => r.method !== "ALL").map((r) => ({
      method: r.method.toUpperCase(),
      pattern: new RegExp(`^${r.path.split("/").map((seg) => (seg.startsWith(":") ? "[^/]+" : seg === "*" ? ".*" : seg.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))).join("/")}/?$`),
    }));
    const normalised = path.length > 1 ? path.replace(/\/+$/, "") : path;
    return [...new Set(table.filter((r) => r.pattern.test(normalised)).map((r) => r.method))].sort();
  };
}

/**
 * Renders every failure as the single error body. Unknown errors become a generic 500;
 * their stack is logged, never sent.
 */
export function errorHandler(logger: Logger, allowedMethods: (path: string) => string[] = () => []) {
  return new Elysia({ name: "error-handler" })
    .onError({ as: "global" }, ({ code, error, request }) => {
      if (error instanceof TooManyRequestsError) {
        return errorResponse(429, domainErrorBody(error), { "retry-after": String(error.retryAfterSeconds) });
      }
      if (error instanceof DomainError) return errorResponse(statusOf(error), domainErrorBody(error));
      switch (code) {
        case "VALIDATION": {
          if ((error as any).type === "response") break;
          return errorResponse(422, { detail: validationIssues(error), code: "VALIDATION_ERROR" });
        }
        case "PARSE":
          return errorResponse(400, { detail: "Malformed request body", code: "MALFORMED_BODY" });
        case "NOT_FOUND": {
          // A known path asked with a method it does not take: say which ones it does.
          const allow = allowedMethods(requestPath(request));
          if (allow.length > 0) {
            return errorResponse(405, {
              detail: `${request.method} is not allowed on this path; it takes ${allow.join(", ")}`,
              code: "METHOD_NOT_ALLOWED",
              params: { allowed: allow },
            }, { allow: allow.join(", ") });
          }
          return errorResponse(404, { detail: "Not Found", code: "NOT_FOUND" });
        }
        case "INVALID_COOKIE_SIGNATURE":
          return errorResponse(401, { detail: "Not authenticated", code: "NOT_AUTHENTICATED" });
      }
      logger.error("unhandled error", {
        method: request.method, path: requestPath(request), code: String(code), error: error as Error,
      });
      return errorResponse(500, { detail: "Internal server error", code: "INTERNAL_ERROR" });
    });
}

/**
 * The error statuses every route shares: none. The OpenAPI document derives each operation's
 * statuses from its definition (session, path parameters, body, write, limits; see
 * openapi/document.ts `errorReasons`); a route declares in its `response` only the statuses of
 * its own rules (`409: ErrorBody` for a conflict, ...), so the document lists what it can return.
 */
export const errorResponses = {} as const;

/** 429 of throttled login, registration and password change. */
export const throttledErrorResponses = { 429: ErrorBody } as const;

/**
 * The status of a bulk create (docs/decisions.md, "Bulk creates"): 201 when at least one item was
 * created, 200 when none was; the per-item results say why, in the same body either way.
 */
export const bulkCreateStatus = (created: number): 200 | 201 => (created > 0 ? 201 : 200);
