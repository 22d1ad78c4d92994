import { beforeAll, describe, expect, test } from "bun:test";
import { type TestServer, useApi } from "../../helpers/server.ts";

const api = useApi();
let server: TestServer;
let doc: any;

beforeAll(async () => {
  server = api.server;
  doc = await (await fetch(`${server.base}/openapi.json`)).json();
});

function walk(node: unknown, visit: (n: Record<string, unknown>, path: string) => void, path = ""): void {
  if (Array.isArray(node)) node.forEach((n, i) => walk(n, visit, `${path}/${i}`));
  else if (node && typeof node === "object") {
    visit(node as Record<string, unknown>, path);
    for (const [k, v] of Object.entries(node)) walk(v, visit, `${path}/${k}`);
  }
}

/** A schema with its top-level `$ref` followed. */
function resolve(schema: any): any {
  return schema?.$ref ? schema.$ref.replace(/^#\//, "").split("/").reduce((n: any, k: string) => n?.[k], doc) : schema;
}

describe("OpenAPI document", () => {
  test("is OpenAPI 3 generated from the running routes, all under /api/v1", () => {
    expect(doc.openapi).toMatch(/^3\./);
    const paths = Object.keys(doc.paths);
    expect(paths).toContain("/api/v1/auth/login");
    expect(paths).toContain("/api/v1/settings/cache/clear/{name}");
    expect(paths.every((p) => p.startsWith("/api/v1/"))).toBe(true);
    expect(paths.filter((p) => p.endsWith("/"))).toEqual([]);
    expect(paths).toContain("/api/v1/brokers");
    expect(paths.some((p) => p.includes("docs-assets") || p.endsWith("/redoc"))).toBe(false);
  });

  test("every JSON operation declares a typed 200/201 response schema", () => {
    const missing: string[] = [];
    for (const [path, ops] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(ops)) {
        if (path.startsWith("/api/v1/uploads/file/") || path.startsWith("/api/v1/uploads/plugin/")) continue; // binary
        const ok = op.responses?.["200"] ?? op.responses?.["201"];
        if (ok?.content && !ok.content["application/json"] && Object.values<any>(ok.content).every((m) => m.schema?.format === "binary")) continue; // a download
        const schema = ok?.content?.["application/json"]?.schema;
        if (!schema || Object.keys(schema).length === 0) missing.push(`${method.toUpperCase()} ${path}`);
      }
    }
    expect(missing).toEqual([]);
  });

  test("discriminators are pinned with single-value enums, never const", () => {
    const consts: string[] = [];
    walk(doc, (n, p) => { if ("const" in n) consts.push(p); });
    expect(consts).toEqual([]);
  });

  test("every $ref resolves inside the document (no schema-local $defs, which ReDoc cannot follow)", () => {
    const refs: string[] = [];
    walk(doc, (n) => { if (typeof n.$ref === "string") refs.push(n.$ref); });
    const dangling = refs.filter((ref) => {
      const target = ref.replace(/^#\//, "").split("/").reduce<any>((node, key) => node?.[key], doc);
      return !ref.startsWith("#/") || target === undefined;
    });
    expect(dangling).toEqual([]);
  });

  test("request bodies are typed, on public and session routes alike", () => {
    const login = doc.paths["/api/v1/auth/login"].post;
    expect(JSON.stringify(resolve(login.requestBody.content["application/json"].schema))).toContain("password");
    const bulk = doc.paths["/api/v1/settings/global/bulk"].patch;
    expect(JSON.stringify(resolve(bulk.requestBody.content["application/json"].schema))).toContain("items");
    for (const [path, ops] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(ops)) {
        if (op.requestBody) expect({ path, method, types: Object.keys(op.requestBody.content ?? {}) }).not.toEqual({ path, method, types: [] });
      }
    }
  });

  test("query parameters are documented with their schemas", () => {
    const search = doc.paths["/api/v1/users/search"].get;
    expect(search.parameters.map((p: any) => p.name).sort()).toEqual(["admins", "limit", "q"]);
  });
});

describe("documentation pages", () => {
  test("Swagger UI at /api/v1/docs loads self-hosted assets", async () => {
    const res = await fetch(`${server.base}/docs`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("/api/v1/docs-assets/swagger-ui-bundle.js");
    expect(html).not.toContain("unpkg.com");
    const js = await fetch(`${server.base}/docs-assets/swagger-ui-bundle.js`);
    expect(js.status).toBe(200);
    expect((await js.text()).length).toBeGreaterThan(100_000);
  });

  test("ReDoc at /api/v1/redoc points at the spec and a self-hosted bundle", async () => {
    const res = await fetch(`${server.base}/redoc`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('spec-url="/api/v1/openapi.json"');
    const js = await fetch(`${server.base}/docs-assets/redoc.standalone.js`);
    expect(js.status).toBe(200);
    expect(js.headers.get("content-type")).toContain("javascript");
  });
});

const operations = () => Object.entries<any>(doc.paths).flatMap(([path, ops]) =>
  Object.entries<any>(ops).map(([method, op]) => ({ key: `${method.toUpperCase()} ${path.replace(/^\/api\/v1/, "")}`, method, op })));

describe("OpenAPI document for client generation", () => {
  test("resources and error bodies are named component schemas, referenced by $ref rather than inlined", () => {
    const schemas = doc.components.schemas;
    for (const name of ["ErrorBody", "ValidationErrorBody", "BrokerRead", "TxRead", "AssetDetail", "Account", "BatchRequest", "BatchResponse", "TxCreateRow"]) {
      expect(schemas[name]).toBeDefined();
    }
    expect(Object.keys(schemas).length).toBeGreaterThan(100);
    const paths = JSON.stringify(doc.paths);
    const inlined = Object.entries<any>(schemas)
      .filter(([, s]) => s.type === "object" && Object.keys(s.properties ?? {}).length > 2)
      .filter(([, s]) => paths.includes(JSON.stringify(s)))
      .map(([name]) => name);
    expect(inlined).toEqual([]);
  });

  test("every error response is ErrorBody, request validation (422) is ValidationErrorBody", () => {
    const wrong: string[] = [];
    for (const { key, op } of operations()) {
      for (const [status, response] of Object.entries<any>(op.responses)) {
        if (Number(status) < 400) continue;
        const ref = response.content?.["application/json"]?.schema?.$ref ?? "";
        const want = status === "422" ? /ValidationErrorBody$/ : /\/ErrorBody$/;
        const either = JSON.stringify(response.content?.["application/json"]?.schema?.anyOf?.map((s: any) => s.$ref));
        if (key.includes("container-image") && status === "422") {
          expect(either).toBe(JSON.stringify(["#/components/schemas/ErrorBody", "#/components/schemas/ValidationErrorBody"]));
        } else if (!want.test(ref)) wrong.push(`${key} ${status} ${ref}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(doc.components.schemas.ErrorBody.properties.detail.type).toBe("string");
    expect(doc.components.schemas.ValidationErrorBody.properties.detail.type).toBe("array");
  });

  test("every operation declares its security: none for the public endpoints, the session otherwise", () => {
    for (const { key, op } of operations()) {
      const pub = /^(POST \/auth\/(login|logout|register)|GET \/system\/(health|info)|GET \/utilities\/|GET \/ai-export\/catalog)/.test(key);
      expect({ key, security: op.security }).toEqual({ key, security: pub ? [] : expect.arrayContaining([{ session: [] }]) });
      if (!pub) expect({ key, has401: "401" in op.responses }).toEqual({ key, has401: true });
    }
  });

  test("every operation says what it does, who may call it and, for writes, what it changes", () => {
    const missing = operations().filter(({ method, op }) => !op.summary || !/\*\*Who may call:\*\*/.test(op.description ?? "")
      || (method !== "get" && !/\*\*Changes:\*\*/.test(op.description))).map(({ key }) => key);
    expect(missing).toEqual([]);
  });

  test("every write has an example request (for a JSON body) and an example response", () => {
    const missing: string[] = [];
    for (const { key, method, op } of operations()) {
      if (method === "get") continue;
      const json = op.requestBody?.content?.["application/json"];
      if (json && json.example === undefined) missing.push(`${key} request`);
      const ok = op.responses["200"] ?? op.responses["201"];
      if (ok?.content?.["application/json"] && ok.content["application/json"].example === undefined) missing.push(`${key} response`);
    }
    expect(missing).toEqual([]);
  });

  test("JSON request bodies are documented as JSON only", () => {
    for (const { key, op } of operations()) {
      const types = Object.keys(op.requestBody?.content ?? {});
      if (types.length) expect({ key, types }).toEqual({ key, types: ["POST /uploads", "POST /brokers/import/upload"].includes(key) ? ["multipart/form-data"] : ["application/json"] });
    }
  });

  test("commit and validate rows are typed: creates are a union discriminated by type, one member per transaction type", () => {
    for (const path of ["/api/v1/transactions/commit", "/api/v1/transactions/validate"]) {
      const body = resolve(doc.paths[path].post.requestBody.content["application/json"].schema);
      expect(body.properties.creates.items).toEqual({ $ref: "#/components/schemas/TxCreateRow" });
      expect(body.properties.updates.items).toEqual({ $ref: "#/components/schemas/TxUpdateRow" });
    }
    const union = doc.components.schemas.TxCreateRow;
    expect(union.discriminator.propertyName).toBe("type");
    expect(Object.keys(union.discriminator.mapping).sort()).toEqual(["ADJUSTMENT", "BUY", "CASH_TRANSFER", "DEPOSIT", "DIVIDEND", "FEE", "FX_CONVERSION", "INTEREST", "SELL", "TAX", "TRANSFER", "WITHDRAWAL"]);
    for (const [type, ref] of Object.entries<string>(union.discriminator.mapping)) {
      const member = resolve({ $ref: ref });
      expect(member.properties.type.enum).toEqual([type]);
    }
    expect(resolve({ $ref: union.discriminator.mapping.DEPOSIT }).properties.asset_id).toBeUndefined();
    expect(resolve({ $ref: union.discriminator.mapping.BUY }).required).toEqual(expect.arrayContaining(["asset_id", "quantity", "cash"]));
  });
});

describe("documentation entry points", () => {
  test("/api/v1/docs/ with a trailing slash serves the same page, loading the spec by absolute URL", async () => {
    for (const p of ["/docs", "/docs/", "/redoc/"]) {
      const res = await fetch(server.base + p);
      expect({ p, status: res.status }).toEqual({ p, status: 200 });
      expect(await res.text()).toContain("/api/v1/openapi.json");
    }
  });

  test("GET /api/v1 answers with links to the docs and health", async () => {
    const res = await fetch(server.base);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.links).toMatchObject({ docs: "/api/v1/docs", openapi: "/api/v1/openapi.json", health: "/api/v1/system/health" });
    expect((await fetch(body.links.health.replace("/api/v1", server.base))).status).toBe(200);
  });
});

describe("OpenAPI field documentation", () => {
  test("every field and every parameter has a description", () => {
    const bare: string[] = [];
    walk(doc, (n, p) => {
      if (p.includes("/example")) return;
      for (const [name, prop] of Object.entries<any>(n.properties && typeof n.properties === "object" && !Array.isArray(n.properties) ? n.properties : {})) {
        if (prop && typeof prop === "object" && !prop.description) bare.push(`${p}/${name}`);
      }
    });
    for (const { key, op } of operations()) for (const param of op.parameters ?? []) if (!param.description) bare.push(`${key} ${param.name}`);
    expect(bare).toEqual([]);
  });

  test("initial_balances documents that the DEPOSITs are dated opened_at", () => {
    const item = doc.components.schemas.BrokerCreateItem;
    expect(item.properties.initial_balances.description).toContain("opened_at");
  });
});

/**
 * Response fields that may stay open (any keys, or any value), each with why: everything else a
 * response carries is an exact schema, so generated clients get real types (docs/decisions.md "Exact response schemas").
 */
const OPEN_RESPONSE_FIELDS: Record<string, string> = {
  "ErrorBody.params": "Parameters of the error, different per code (docs/errors.md lists them)",
  "ValidationErrorBody.params": "Parameters of the error, different per code (docs/errors.md lists them)",
  "BatchResponse.issues[].params": "Parameters of the ledger rule that failed, different per validation code",
  "McpDraft.rows.creates[]": "Rows as the assistant drafted them, kept even when the ledger refuses them (its issues say why)",
  "McpDraft.rows.updates[]": "Changes as the assistant drafted them, kept even when the ledger refuses them (its issues say why)",
  "BrimCommitResult.issues[].params": "Parameters of the import rule that failed, different per code",
  "ParseResult.validation_issues[].params": "Parameters of the ledger rule that failed, different per validation code",
  "AssetPatchResponse.results[].updated_fields[].old": "The field's previous value, whatever type that field has",
  "AssetPatchResponse.results[].updated_fields[].new": "The field's new value, whatever type that field has",
  "AssignmentRead.provider_params": "Settings of the provider plugin, described by that plugin's own parameter schema",
  "ParamField.default": "Default of a plugin parameter, of the parameter's own type",
  "RiskCatalogResponse.items[].parameters_schema": "A JSON Schema document (the analytic's parameters)",
  "SignalCatalogResponse.items[].params_schema": "A JSON Schema document (the signal's parameters)",
  "ToolsCatalog.items[].input_schema": "A JSON Schema document (the tool's input)",
  "ToolsCatalog.items[].output_schema": "A JSON Schema document (the tool's output)",
  "ComputeResponse.results[].result": "The tool's output, described by its output_schema in the catalog",
  "SignalResult.error.details": "Context of the error, different per code",
  "RiskItem.output": "The analytic's result, one shape per analytic kind (docs/risk.md)",
  "RiskItem.warnings[].details": "Context of the warning, different per code",
  "RiskItem.error.details": "Context of the error, different per code",
  "SnapshotResponse.selection": "The snapshot request echoed back, one shape per domain (docs/ai-export.md)",
  "SnapshotResponse.data": "The exported data set, one shape per domain (docs/ai-export.md)",
  "GET /backup/asset/{asset_id}/prices": "A backup section document, described by its schema_version (docs/backup.md)",
  "GET /backup/asset/{asset_id}/events": "A backup section document, described by its schema_version (docs/backup.md)",
  "GET /backup/fx/{base}/{quote}/rates": "A backup section document, described by its schema_version (docs/backup.md)",
  "POST /backup/export": "The backup document, described by its schema_version (docs/backup.md)",
  "POST /backup/export.sections.*[]": "Rows of a backup section, one shape per table (docs/backup.md)",
};

/** Paths of the response schema nodes that accept any keys or any value, following `$ref`s once each. */
function openResponseFields(): string[] {
  const open = new Set<string>();
  const seen = new Set<string>();
  const isAny = (n: any) => Object.keys(n).every((k) => k === "description" || k === "title");
  const visit = (n: any, at: string): void => {
    if (!n || typeof n !== "object") return;
    if (typeof n.$ref === "string") {
      const name = n.$ref.split("/").at(-1)!;
      if (!seen.has(name)) { seen.add(name); visit(resolve({ $ref: n.$ref }), name); }
      return;
    }
    if (isAny(n)) { open.add(at); return; }
    const ap = n.additionalProperties;
    const types: string[] = Array.isArray(n.type) ? n.type : [n.type];
    if (types.includes("object") || n.properties || ap !== undefined) {
      if (ap === true || (ap && typeof ap === "object" && isAny(ap))) open.add(at);
      else if (!n.properties && ap === undefined && !n.patternProperties) open.add(at);
      else if (n.properties && ap === undefined) open.add(at);
    }
    for (const [k, v] of Object.entries<any>(n.properties ?? {})) visit(v, `${at}.${k}`);
    if (ap && typeof ap === "object" && !isAny(ap)) visit(ap, `${at}.*`);
    if (n.items) visit(n.items, `${at}[]`);
    for (const key of ["anyOf", "oneOf", "allOf"]) for (const m of n[key] ?? []) visit(m, at);
  };
  for (const { key, op } of operations()) {
    for (const response of Object.values<any>(op.responses)) visit(response.content?.["application/json"]?.schema, key);
  }
  return [...open].sort();
}

describe("OpenAPI response schemas", () => {
  test("every response field is exact (no open object, no untyped value) except the documented allow-list", () => {
    const open = openResponseFields();
    expect(open.filter((p) => !(p in OPEN_RESPONSE_FIELDS))).toEqual([]);
    // An entry that no longer matches anything is stale: the field became exact, so its reason goes.
    expect(Object.keys(OPEN_RESPONSE_FIELDS).filter((p) => !open.includes(p))).toEqual([]);
  });

  test("the portfolio report and the import parse result are exact, named schemas", () => {
    const report = doc.paths["/api/v1/portfolio/report"].post.responses["200"].content["application/json"].schema;
    expect(report).toEqual({ $ref: "#/components/schemas/ReportResponse" });
    for (const name of ["ReportSummary", "ReportHolding", "ReportHistoryPoint", "ReportContribution", "DataQualityReport", "ParseResult"]) {
      expect({ name, additionalProperties: doc.components.schemas[name].additionalProperties }).toEqual({ name, additionalProperties: false });
    }
  });
});
