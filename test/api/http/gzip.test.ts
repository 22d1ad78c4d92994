import { beforeAll, describe, expect, test } from "bun:test";
import { gunzipSync } from "node:zlib";
import { ApiClient } from "../../helpers/client.ts";
import { type TestServer, useApi } from "../../helpers/server.ts";

const api = useApi();
let server: TestServer;

beforeAll(async () => {
  server = api.server;
});

/** fetch() would transparently decompress; read the raw bytes instead. */
async function raw(path: string, headers: Record<string, string> = {}) {
  const res = await fetch(server.base + path, { headers, decompress: false } as RequestInit);
  return { res, bytes: new Uint8Array(await res.arrayBuffer()) };
}

describe("gzip", () => {
  test("a JSON body of 1024 bytes or more is gzipped when the client accepts gzip, with Vary", async () => {
    const { res, bytes } = await raw("/openapi.json", { "accept-encoding": "gzip, deflate" });
    expect(res.headers.get("content-encoding")).toBe("gzip");
    expect(res.headers.get("vary")).toContain("Accept-Encoding");
    const json = JSON.parse(gunzipSync(bytes).toString("utf8"));
    expect(json.openapi).toMatch(/^3\./);
  });

  test("the same body without Accept-Encoding gzip is sent plain but still carries Vary", async () => {
    const { res, bytes } = await raw("/openapi.json", { "accept-encoding": "identity" });
    expect(res.headers.get("content-encoding")).toBeNull();
    expect(res.headers.get("vary")).toContain("Accept-Encoding");
    expect(bytes.byteLength).toBeGreaterThanOrEqual(1024);
    const q0 = await raw("/openapi.json", { "accept-encoding": "gzip;q=0" });
    expect(q0.res.headers.get("content-encoding")).toBeNull();
  });

  test("a body under 1024 bytes is neither compressed nor given Vary", async () => {
    const { res, bytes } = await raw("/system/health", { "accept-encoding": "gzip" });
    expect(bytes.byteLength).toBeLessThan(1024);
    expect(res.headers.get("content-encoding")).toBeNull();
    expect(res.headers.get("vary")).toBeNull();
  });

  test("JavaScript assets and error bodies over the threshold are compressed too", async () => {
    const { res } = await raw("/docs-assets/swagger-ui-bundle.js", { "accept-encoding": "gzip" });
    expect(res.headers.get("content-encoding")).toBe("gzip");
  });

  test("PNG images are never compressed but get Vary when 1024 bytes or more", async () => {
    const c = new ApiClient(server.base);
    await c.signUp("gzip-user");
    const png = new Uint8Array(4096);
    png.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
    const form = new FormData();
    form.append("file", new File([png], "img.png"));
    const up = await c.post("/uploads", form);
    expect(up.status).toBe(201);
    const id = (await up.json()).id;
    const res = await fetch(`${server.base}/uploads/file/${id}`, { headers: { cookie: c.cookie, "accept-encoding": "gzip" }, decompress: false } as RequestInit);
    expect(res.headers.get("content-type")).toContain("image/png");
    expect(res.headers.get("content-encoding")).toBeNull();
    expect(res.headers.get("vary")).toContain("Accept-Encoding");
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(png);
  });
});
