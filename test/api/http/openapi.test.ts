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
        const schema = ok?.content?.["application/json"]?.schema;
        if (!schema || Object.keys(schema).length === 0) missing.push(`${method.toUpperCase()} ${path}`);
      }
    }
    expect(missing).toEqual([]);
  });

  test("discriminators are pinned with single-value enums, never const (SPEC Versioning 2)", () => {
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
    expect(JSON.stringify(login.requestBody.content["application/json"].schema)).toContain("password");
    const bulk = doc.paths["/api/v1/settings/global/bulk"].patch;
    expect(JSON.stringify(bulk.requestBody.content["application/json"].schema)).toContain("items");
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
