import { toOpenAPISchema } from "@elysiajs/openapi";
import { unwrapSchema } from "@elysiajs/openapi/openapi";
import type { AnyElysia } from "elysia";
import type { TokenRoutes } from "../bearer.ts";
import { LIMITS_DOC } from "../bulk-limits.ts";
import { JSON_BODY_DOC } from "../worker-json-body.ts";
import { type OperationDoc, operationKey } from "./operations.ts";

type Json = Record<string, any>;

const SCHEMA_REF = "#/components/schemas/";
const METHODS = ["get", "put", "post", "delete", "patch", "head", "options", "trace"];

const STATUS_TEXT: Record<string, string> = {
  200: "Success.",
  201: "Created.",
  204: "No content.",
  400: "The request is well-formed but breaks a rule; `code` says which (docs/errors.md).",
  401: "No valid session cookie or access token (`NOT_AUTHENTICATED`), or the account is disabled (`ACCOUNT_DISABLED`).",
  403: "Signed in but not allowed here: a broker role too low (`BROKER_ROLE_REQUIRED`), not the owner of the resource, ...; `code` says which.",
  404: "An id in the request names nothing the caller can see (a broker without an access row is always 404).",
  409: "Conflicts with stored state; `code` says which (`LAST_OWNER`, `BROKER_NAME_TAKEN`, ...).",
  413: "Too large: an upload over `max_file_upload_mb` (`FILE_TOO_LARGE`), or a bulk request over one of the route's limits "
    + "(`LIMIT_EXCEEDED`, `params.limit`, `params.requested`, `params.unit`; docs/security.md \"Bulk-read limits\").",
  415: "The upload's content is refused (`UPLOAD_REFUSED`).",
  422: "The request does not match the schema: `detail` lists each issue with its `loc` (where) and `msg` (what to change).",
  500: "Unexpected server failure; the body never carries internals.",
  502: "An upstream provider failed.",
};

export interface DocumentOptions {
  readonly info: Json;
  readonly tags: { name: string; description: string }[];
  readonly securitySchemes: Json;
  readonly exclude: (string | RegExp)[];
  /** Named schemas that routes refer to only by `$ref` (documentation of unparsed rows). */
  readonly extraSchemas?: readonly unknown[];
  /** Each operation's documentation by `METHOD /path` (operations.ts `operationDocs`). */
  readonly operations: Readonly<Record<string, OperationDoc>>;
  /** A wire field's description by name (glossary.ts `fieldGlossary`). */
  readonly describeField: (name: string) => string | undefined;
  /** What an access token may reach (bearer.ts), for the 403s an operation lists. */
  readonly tokenRoutes: TokenRoutes;
}

/**
 * The OpenAPI 3.1 document of the running routes. @elysiajs/openapi turns each route's zod
 * schemas into JSON Schema; this pass makes it usable for client generation: named schemas
 * (`.meta({ id })`, see components.ts) move from per-operation `$defs` to `components.schemas`
 * and are referenced by `$ref`; JSON bodies are documented as JSON only; every operation gets
 * its security (from the session macro's `x-access`), its error responses, a description that
 * says what it does, who may call it and what it changes, and examples for writes
 * (`opts.operations`); every field gets a description (`opts.describeField`). The texts are the
 * areas' own, listed in host/api/openapi.ts.
 */
export function buildOpenApiDocument(app: AnyElysia, opts: DocumentOptions): Json {
  const raw = toOpenAPISchema(app, { paths: opts.exclude }, undefined, undefined, "3.1.0") as Json;
  const components: Json = {};
  const paths: Json = {};
  const ops: { key: string; op: Json; path: string }[] = [];
  for (const [rawPath, item] of Object.entries<Json>(raw.paths)) {
    const path = rawPath.replace(/\/\*$/, "/{path}");
    paths[path] = item;
    for (const method of METHODS) if (item[method]) ops.push({ key: operationKey(method, path), op: item[method], path });
  }
  for (const { op } of ops) documentJsonBody(op);
  for (const schema of opts.extraSchemas ?? []) {
    hoist((schema as any)["~standard"].jsonSchema.input({ target: "draft-2020-12" }), "input", components);
  }
  // Responses first, so a schema whose request form differs is the one renamed `<Id>Input`.
  for (const { op } of ops) for (const response of Object.values<Json>(op.responses ?? {})) hoistContent(response.content, "output", components);
  for (const { op } of ops) {
    for (const p of op.parameters ?? []) {
      if (p.in === "path" && p.name === "*") p.name = "path";
      p.schema = hoist(p.schema, "input", components);
    }
    if (op.requestBody) hoistContent(op.requestBody.content, "input", components);
  }
  for (const { key, op } of ops) finishOperation(key, op, components, opts.operations, opts.tokenRoutes);
  const schemas = Object.fromEntries(Object.entries(components).sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, v.schema]));
  const doc: Json = {
    openapi: "3.1.0",
    info: opts.info,
    servers: [{ url: "/", description: "This server (paths carry the /api/v1 prefix)" }],
    tags: opts.tags,
    paths,
    components: { schemas, securitySchemes: opts.securitySchemes },
  };
  walkSchemas(doc, opts.describeField, constToEnum);
  walkSchemas(doc, opts.describeField, nullableEnum);
  walkSchemas(doc, opts.describeField, (schema) => describeFields(schema, opts.describeField));
  walkSchemas(doc, opts.describeField, addDiscriminator);
  // Generators read `default` as "always present" (openapi-typescript makes such fields required),
  // which is true of answers but not of requests: there the default goes into the description.
  for (const { op } of ops) {
    for (const p of op.parameters ?? []) defaultsToText(p.schema);
    for (const media of Object.values<Json>(op.requestBody?.content ?? {})) defaultsToText(media.schema);
  }
  for (const entry of Object.values<Json>(components)) if (entry.io === "input") defaultsToText(entry.schema);
  return doc;
}

/**
 * A route with a parse hook of its own (a function) has its body's content types left out by
 * @elysiajs/openapi, which documents only named parsers; a route that reads a JSON body itself
 * names the body's schema under {@link JSON_BODY_DOC}, documented here as the generator documents a
 * JSON body.
 */
function documentJsonBody(op: Json) {
  const schema = op[JSON_BODY_DOC];
  if (schema === undefined) return;
  delete op[JSON_BODY_DOC];
  op.requestBody = { description: undefined, required: true, content: { "application/json": { schema: unwrapSchema(schema, undefined, "input", "3.1.0") } } };
}

function hoistContent(content: Json | undefined, io: "input" | "output", components: Json) {
  for (const media of Object.values<Json>(content ?? {})) media.schema = hoist(media.schema, io, components);
}

/**
 * Moves a converted schema's `$defs` into the shared components and points its refs there. A
 * definition already stored under the same id with a different body (a request form with
 * defaults or coercions) is stored as `<Id>Input`; renaming repeats until stable, since a
 * renamed definition changes the bodies that refer to it.
 */
function hoist(schema: Json | undefined, io: "input" | "output", components: Json): Json | undefined {
  if (!schema || typeof schema !== "object") return schema;
  const { $schema: _, $defs = {}, ...rest } = schema;
  const defs: Json = stripSchemaKeys($defs);
  const names: Record<string, string> = Object.fromEntries(Object.keys(defs).map((id) => [id, id]));
  for (let changed = true; changed;) {
    changed = false;
    for (const id of Object.keys(defs)) {
      const body = rewriteRefs(defs[id], names);
      const stored = components[id];
      const name = !stored || same(stored.schema, body) ? id : `${id}Input`;
      if (names[id] !== name) { names[id] = name; changed = true; }
    }
  }
  for (const [id, def] of Object.entries(defs)) {
    const name = names[id]!;
    const body = rewriteRefs(def, names);
    if (components[name] && !same(components[name].schema, body) && io === "input") {
      throw new Error(`OpenAPI: two request forms of schema ${id}`);
    }
    components[name] ??= { schema: body, io };
  }
  return rewriteRefs(stripSchemaKeys(rest), names);
}

function stripSchemaKeys(node: any): any {
  if (Array.isArray(node)) return node.map(stripSchemaKeys);
  if (!node || typeof node !== "object") return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node)) if (k !== "$schema") out[k] = stripSchemaKeys(v);
  return out;
}

function rewriteRefs(node: any, names: Record<string, string>): any {
  if (Array.isArray(node)) return node.map((n) => rewriteRefs(n, names));
  if (!node || typeof node !== "object") return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === "$ref" && typeof v === "string" && v.startsWith("#/$defs/")) {
      const id = decodeURIComponent(v.slice("#/$defs/".length));
      out[k] = SCHEMA_REF + (names[id] ?? id);
    } else out[k] = rewriteRefs(v, names);
  }
  return out;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

function finishOperation(key: string, op: Json, components: Json, operations: Readonly<Record<string, OperationDoc>>, tokenRoutes: TokenRoutes) {
  const access: "public" | "user" | "admin" = op["x-access"] ?? "public";
  delete op["x-access"];
  const limits: string[] | undefined = op[LIMITS_DOC];
  delete op[LIMITS_DOC];
  op.security = access === "public" ? [] : op.security;
  const doc = operations[key];
  // JSON bodies: Elysia would also accept form encodings, but clients should send JSON.
  const content = op.requestBody?.content as Json | undefined;
  if (content?.["application/json"]) {
    for (const type of Object.keys(content)) if (type !== "application/json") delete content[type];
  }
  if (op.requestBody) {
    op.requestBody.description ??= "The request body.";
    if (doc?.request !== undefined && content?.["application/json"]) content["application/json"].example = doc.request;
  }
  op.responses ??= {};
  const reasons = errorReasons(key, op, access, limits !== undefined, doc, tokenRoutes);
  for (const [status, why] of Object.entries(reasons)) {
    // A body the route declares itself (an `anyOf` of both error bodies, ...) is kept.
    op.responses[status] = { ...(op.responses[status] ?? errorResponse(status === "422" ? "ValidationErrorBody" : "ErrorBody")), description: why.join(" ") };
  }
  for (const [status, response] of Object.entries<Json>(op.responses)) {
    if (!response.description || /^Response for status/.test(response.description)) {
      response.description = STATUS_TEXT[status] ?? `Status ${status}.`;
    }
    const okBody = response.content?.["application/json"];
    if (doc?.response !== undefined && okBody && /^2/.test(status)) okBody.example = doc.response;
  }
  op.responses = Object.fromEntries(Object.entries(op.responses).sort(([a], [b]) => a.localeCompare(b)));
  const read = key.startsWith("GET ") || key.startsWith("HEAD ");
  const what = [op.summary, op.description].filter(Boolean).join(". ").replace(/\.?$/, ".");
  const who = access === "public"
    ? "Anyone: a public endpoint, no session needed."
    : access === "admin"
      ? "Superusers only (`is_superuser`), by session cookie or by a personal access token with the admin scope."
      : doc?.who?.startsWith("Any signed-in user") ? doc.who
        : "Any signed-in user, by session cookie or personal access token (`Authorization: Bearer`); a read-only token may call only reads."
          + (doc?.who ? ` ${doc.who}` : "");
  const changes = read ? "Nothing: it only reads." : doc?.changes;
  const limited = limits ? [`**Limits:** ${limits.join("; ")}; beyond them 413 \`LIMIT_EXCEEDED\`.`] : [];
  const envelope = answerEnvelope(op, components);
  const answer = envelope ? [`**Answer:** ${envelope}`] : [];
  op.description = [what, `**Who may call:** ${who}`, ...(changes ? [`**Changes:** ${changes}`] : []), ...answer, ...limited].join("\n\n");
}

/**
 * The envelope of a success answer, said in words, since collections differ (a plain array, a list
 * `{items}`, a bulk `{results, success_count, errors}`) and clients depend on them as they are.
 */
function answerEnvelope(op: Json, components: Json): string | null {
  const ok = op.responses?.["200"] ?? op.responses?.["201"];
  let schema = ok?.content?.["application/json"]?.schema;
  if (schema?.$ref) schema = components[schema.$ref.slice(SCHEMA_REF.length)]?.schema;
  if (!schema) return null;
  if (schema.type === "array") return "a plain JSON array, no envelope.";
  const props = schema.properties ?? {};
  if (props.results && props.success_count) return "the bulk envelope `{results: [...], success_count, errors, ...}`: one result per item, in input order.";
  if (props.items?.type === "array") return "the list envelope `{items: [...]}`" + (Object.keys(props).length > 1 ? `, with ${Object.keys(props).filter((k) => k !== "items").map((k) => `\`${k}\``).join(", ")} beside it.` : ".");
  return null;
}

const WRITES = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * The error statuses an operation can answer, each with why, derived from its route definition
 * instead of one list for all (docs/errors.md "Which statuses an operation lists"):
 * a session → 401; admin-only or cookie-only → 403; any write → 415 and 403 (the write guard of
 * docs/security.md), 403 for a read-only token too when signed in; a path parameter → 404; a JSON
 * body → 400 (not JSON at all); parameters or a body → 422; bulk limits → 413. A status the route
 * declares itself in its `response` (a rule's 400, a conflict's 409, a role check's 403, an id in
 * the body's 404, ...) is kept, described by the operation's `errors` (its area's `*.openapi.ts`) when it has them. 405 (another method) and
 * 500 concern every path and are described in docs/errors.md, not per operation.
 */
function errorReasons(key: string, op: Json, access: "public" | "user" | "admin", limited: boolean, doc: OperationDoc | undefined, tokenRoutes: TokenRoutes): Record<string, string[]> {
  const method = key.split(" ")[0]!;
  const out: Record<string, string[]> = {};
  const add = (status: number, text: string) => (out[status] ??= []).push(text);
  const declared = Object.keys(op.responses ?? {}).filter((s) => /^[45]/.test(s));
  const pathParams = (op.parameters ?? []).filter((p: Json) => p.in === "path").map((p: Json) => `\`${p.name}\``);
  const json = !!op.requestBody?.content?.["application/json"];
  const multipart = !!op.requestBody?.content?.["multipart/form-data"];
  if (json) add(400, "`MALFORMED_BODY`: the body is not valid JSON.");
  if (access !== "public") add(401, STATUS_TEXT[401]!);
  if (access === "admin") add(403, "`ADMIN_REQUIRED`: the caller is not a superuser (or the token lacks the admin scope).");
  const path = key.slice(method.length + 1);
  if (access !== "public" && tokenRoutes.cookieOnly.some((re) => re.test(path))) add(403, "`TOKEN_NOT_ALLOWED`: called with an access token instead of a session cookie.");
  if (WRITES.has(method)) {
    if (access !== "public" && !tokenRoutes.readPosts.has(path)) add(403, "`TOKEN_READ_ONLY`: a write with a read-only access token.");
    add(403, "`CROSS_SITE_REQUEST`: a write signed in by cookie sent by another site's page (docs/security.md).");
    add(415, `\`UNSUPPORTED_MEDIA_TYPE\`: a body that is not ${multipart ? "`multipart/form-data` or " : ""}\`application/json\`.`);
  }
  if (pathParams.length) add(404, `No such ${pathParams.join(", ")}, or one the caller cannot see (a broker without an access row is always 404).`);
  if (limited) add(413, STATUS_TEXT[413]!);
  if (op.parameters?.length || op.requestBody) add(422, STATUS_TEXT[422]!);
  const said = doc?.errors ?? {};
  for (const status of declared) {
    if (said[Number(status)]) continue;
    const text = op.responses[status]?.description;
    const own = text && !/^Response for status/.test(text) ? text : STATUS_TEXT[status] ?? `Status ${status}.`;
    if (!out[status]?.includes(own)) add(Number(status), own);
  }
  // The operation's own words for its rules' statuses (its documentation's `errors`).
  for (const [status, text] of Object.entries(said)) add(Number(status), text);
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
}

function errorResponse(name: string): Json {
  return { content: { "application/json": { schema: { $ref: SCHEMA_REF + name } } } };
}

/** Visits every schema object of the document (component schemas, parameters, bodies, responses). */
function walkSchemas(doc: Json, describeField: (name: string) => string | undefined, visit: (schema: Json) => void) {
  const seen = new Set<object>();
  const inSchema = (node: any) => {
    if (!node || typeof node !== "object" || seen.has(node)) return;
    seen.add(node);
    if (Array.isArray(node)) return node.forEach(inSchema);
    visit(node);
    for (const [k, v] of Object.entries(node)) if (k !== "example" && k !== "examples" && k !== "enum" && k !== "default") inSchema(v);
  };
  Object.values<Json>(doc.components.schemas).forEach(inSchema);
  for (const item of Object.values<Json>(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      for (const p of op.parameters ?? []) {
        inSchema(p.schema);
        if (!p.description) p.description = p.schema?.description ?? describeField(p.name);
      }
      for (const media of Object.values<Json>(op.requestBody?.content ?? {})) inSchema(media.schema);
      for (const r of Object.values<Json>(op.responses ?? {})) for (const media of Object.values<Json>(r.content ?? {})) inSchema(media.schema);
    }
  }
}

function defaultsToText(node: any) {
  if (!node || typeof node !== "object") return;
  if (Array.isArray(node)) return node.forEach(defaultsToText);
  if ("default" in node && (node.type !== undefined || node.anyOf || node.oneOf || node.$ref)) {
    const text = `Default: ${JSON.stringify(node.default)}.`;
    node.description = node.description ? `${node.description.replace(/\.?$/, ".")} ${text}` : text;
    delete node.default;
  }
  for (const [k, v] of Object.entries(node)) if (k !== "example" && k !== "examples" && k !== "enum") defaultsToText(v);
}

/** A pinned value is a single-value enumeration, never `const` (`z.literal`). */
function constToEnum(schema: Json) {
  if (!("const" in schema)) return;
  schema.enum = [schema.const];
  delete schema.const;
}

/** Elysia folds `anyOf [enum, null]` into `type: [string, null]` but leaves null out of the enum. */
function nullableEnum(schema: Json) {
  if (Array.isArray(schema.type) && schema.type.includes("null") && Array.isArray(schema.enum) && !schema.enum.includes(null)) {
    schema.enum = [...schema.enum, null];
  }
}

function describeFields(schema: Json, describeField: (name: string) => string | undefined) {
  if (!schema.properties) return;
  for (const [name, prop] of Object.entries<Json>(schema.properties)) {
    if (prop && typeof prop === "object" && !prop.description) {
      const text = describeField(name);
      if (text) prop.description = text;
    }
  }
}

/** A `oneOf` whose members all pin one property to a single value gets an OpenAPI discriminator. */
function addDiscriminator(schema: Json) {
  if (!Array.isArray(schema.oneOf) || schema.discriminator) return;
  const members: Json[] = schema.oneOf;
  if (members.length < 2) return;
  const first = members[0]!.properties ?? {};
  for (const prop of Object.keys(first)) {
    const values = members.map((m) => m.properties?.[prop]?.enum);
    if (values.every((v) => Array.isArray(v) && v.length === 1)) {
      schema.discriminator = { propertyName: prop };
      return;
    }
  }
}
