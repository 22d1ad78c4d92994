import { parseQuery } from "elysia/parse-query";
import type { z } from "zod";
import { InputError, UnauthenticatedError } from "../../core/errors/domain-error.ts";
import { carriesCredentials } from "./session.ts";

/**
 * Detail key under which a route with {@link jsonBodyReadBy} names its body's schema: @elysiajs/openapi
 * leaves out the content types of a body read by a parse hook of the route's own, and the
 * OpenAPI document (host/http/openapi/document.ts) documents it from this schema as any JSON body.
 */
export const JSON_BODY_DOC = "x-json-body";

/**
 * A JSON body the request thread did not parse: its bytes went to a worker, which parsed and
 * validated them (`read`), or failed (`error`, rethrown by the handler as any other failure).
 */
export class WorkerJsonBody<T> {
  constructor(readonly read: T | undefined, readonly error?: unknown) {}
}

/** Requests whose JSON body went to a worker as bytes (see {@link bodyReadByWorker}). */
const readByWorker = new WeakSet<Request>();

/**
 * Whether `request`'s JSON body was handed to a worker as bytes by {@link jsonBodyReadBy}: the request
 * thread never held its rows as objects, so it leaves no more garbage than an upload does
 * (host/http/heap-settle.ts collects after it as after an upload).
 */
export function bodyReadByWorker(request: Request): boolean {
  return readByWorker.has(request);
}

/**
 * An Elysia parse hook for a large JSON body (megabytes: parsing and validating it would hold the
 * request loop for hundreds of ms): a JSON body is read as bytes and handed to `read`, which runs
 * in a worker and answers null for bytes that are not JSON (400 `MALFORMED_BODY`, before the
 * session check, as Elysia's own parser does). Elysia picks its JSON parser by the content type's
 * 13th character (`application/json`, with or without parameters), and so does this hook; any other
 * body is read as Elysia would (text, form, bytes) and validated on the request thread.
 * For routes that need a session: a request carrying no credentials at all (no session cookie, no
 * Authorization header) is not read, so anonymous clients cannot queue megabytes of parsing on the
 * worker pool; the session check then answers 401.
 */
export function jsonBodyReadBy<T>(read: (bytes: Uint8Array) => Promise<T | null>) {
  return async ({ request }: { request: Request }): Promise<unknown> => {
    if (!request.body) return undefined;
    const contentType = request.headers.get("content-type") ?? "";
    switch (contentType.charCodeAt(12)) {
      case 106: { // application/json
        // A value, not undefined (which would hand the body to Elysia's own parser); the session check answers 401 before any handler.
        if (!carriesCredentials(request)) return new WorkerJsonBody<T>(undefined, new UnauthenticatedError("NOT_AUTHENTICATED", "Not authenticated"));
        const bytes = new Uint8Array(await request.arrayBuffer());
        readByWorker.add(request);
        let result: T | null;
        try {
          result = await read(bytes);
        } catch (error) {
          return new WorkerJsonBody<T>(undefined, error);
        }
        if (result === null) throw new InputError("MALFORMED_BODY", "Malformed request body");
        return new WorkerJsonBody(result);
      }
      case 120: return parseQuery(await request.text()); // application/x-www-form-urlencoded
      case 111: return request.arrayBuffer(); // application/octet-stream
      case 114: // multipart/form-data: Elysia's own form reading below (it fails on any other type)
        if (contentType.split(";")[0] !== "multipart/form-data") await request.formData();
        return undefined;
      default:
        return contentType.charCodeAt(0) === 116 ? request.text() : undefined; // text/*
    }
  };
}

/**
 * `schema` as the route's body schema: it documents the body in the OpenAPI document and validates
 * bodies Elysia parsed itself, but lets a {@link WorkerJsonBody} through, whose bytes the worker
 * validated with the same schema.
 */
export function validatedInWorker<S extends z.ZodType>(schema: S): S {
  const documented = schema.clone() as S;
  const standard = schema["~standard"];
  (documented as { "~standard": unknown })["~standard"] = {
    ...standard,
    validate: (value: unknown) => (value instanceof WorkerJsonBody ? { value } : standard.validate(value)),
  };
  return documented;
}

