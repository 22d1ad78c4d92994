import { beforeAll, describe, expect, test } from "bun:test";
import { ApiClient } from "../../helpers/client.ts";
import { type TestServer, useApi } from "../../helpers/server.ts";
import { PNG_1X1, uploadForm } from "../../fixtures/uploads/files.ts";

const api = useApi();
let server: TestServer;
let client: ApiClient;
let id: number;

beforeAll(async () => {
  server = api.server;
  client = new ApiClient(server.base);
  await client.signUp("server-user");
  id = (await (await client.post("/uploads", uploadForm(PNG_1X1, "Kontoauszug März.png"))).json()).id;
});

describe("files are served with safe headers", () => {
  test("inline by default, with nosniff, a sandboxing CSP, private caching and the length", async () => {
    const res = await client.get(`/uploads/file/${id}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("content-security-policy")).toBe("default-src 'none'; style-src 'unsafe-inline'; sandbox");
    expect(res.headers.get("cache-control")).toBe("private, max-age=3600");
    expect(res.headers.get("content-length")).toBe(String(PNG_1X1.length));
    expect(res.headers.get("content-disposition")).toBe(`inline; filename="Kontoauszug M_rz.png"; filename*=UTF-8''Kontoauszug%20M%C3%A4rz.png`);
  });

  test("download=true sends an attachment disposition", async () => {
    const res = await client.get(`/uploads/file/${id}?download=true`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toStartWith("attachment; ");
    expect(res.headers.get("content-disposition")).toContain("filename*=UTF-8''Kontoauszug%20M%C3%A4rz.png");
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(PNG_1X1);
  });

  test("a record reads back with the upload fields", async () => {
    const me = await (await client.get("/auth/me")).json();
    const record = await (await client.get(`/uploads/${id}`)).json();
    expect(record).toEqual({
      id, filename: "Kontoauszug März.png", content_type: "image/png", size_bytes: PNG_1X1.length,
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/), description: null, uploaded_by: me.user.id,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), url: `/api/v1/uploads/file/${id}`,
    });
  });
});
