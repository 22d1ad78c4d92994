import { beforeAll, describe, expect, test } from "bun:test";
import { Elysia } from "elysia";
import { errorHandler } from "../../../host/http/errors.ts";
import { createLogger } from "../../../host/logger.ts";
import { ApiClient, expectError } from "../../helpers/client.ts";
import { type TestServer, useApi } from "../../helpers/server.ts";

// The test client is the reverse proxy (loopback), and 10.0.0.1 an inner proxy hop.
const api = useApi({ env: { TRUSTED_PROXIES: "127.0.0.1,10.0.0.0/8" } });
let server: TestServer;

beforeAll(async () => {
  server = api.server;
});

describe("one error body everywhere", () => {
  test("unknown routes are 404 with the error body", async () => {
    await expectError(await fetch(`${server.base}/no/such/route`), 404, "NOT_FOUND");
  });

  test("a known path asked with a method it does not take is 405 METHOD_NOT_ALLOWED with an Allow header", async () => {
    const login = await fetch(`${server.base}/auth/login`, { method: "GET" });
    const body = await expectError(login, 405, "METHOD_NOT_ALLOWED");
    expect(login.headers.get("allow")).toBe("POST");
    expect(body.params).toEqual({ allowed: ["POST"] });
    // A path with a parameter, and its trailing-slash spelling.
    const broker = await fetch(`${server.base}/brokers/12/`, { method: "POST" });
    await expectError(broker, 405, "METHOD_NOT_ALLOWED");
    expect(broker.headers.get("allow")!.split(", ")).toEqual(expect.arrayContaining(["DELETE", "GET"]));
    // An unknown path stays 404 whatever the method.
    await expectError(await fetch(`${server.base}/no/such/route`, { method: "DELETE" }), 404, "NOT_FOUND");
  });

  test("malformed JSON is a 400 MALFORMED_BODY", async () => {
    const res = await fetch(`${server.base}/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: "{oops" });
    await expectError(res, 400, "MALFORMED_BODY");
  });

  test("validation errors are 422 with field paths and never echo the input", async () => {
    const res = await fetch(`${server.base}/auth/login`, {
      method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: "", password: "top-secret-value" }),
    });
    const body = await expectError(res, 422, "VALIDATION_ERROR");
    expect(body.detail).toContainEqual({ loc: ["body", "username"], msg: expect.any(String), type: expect.any(String) });
    expect(JSON.stringify(body)).not.toContain("top-secret-value");
  });

  test("X-Forwarded-For from a trusted proxy gives the client IP in the access log", async () => {
    await fetch(`${server.base}/system/health`, { headers: { "x-forwarded-for": "203.0.113.7, 10.0.0.1" } });
    await Bun.sleep(50);
    const line = server.logs().find((l) => l.msg === "request" && l.ip === "203.0.113.7");
    expect(line).toMatchObject({ method: "GET", path: "/api/v1/system/health", status: 200 });
  });

  test("logs never contain passwords or session tokens", async () => {
    const c = new ApiClient(server.base);
    await c.signUp("logcheck", "Very-Secret-9");
    await c.get("/auth/me");
    const all = JSON.stringify(server.logs());
    expect(all).not.toContain("Very-Secret-9");
    expect(all).not.toContain(c.cookie.replace("session=", ""));
  });
});

describe("unknown errors", () => {
  test("become a 500 with a generic body and no stack; the stack is logged", async () => {
    const lines: string[] = [];
    const write = process.stdout.write.bind(process.stdout);
    (process.stdout as any).write = (s: string) => (lines.push(String(s)), true);
    try {
      const app = new Elysia().use(errorHandler(createLogger("error"))).get("/boom", () => {
        throw new Error("database password is hunter2");
      });
      const res = await app.handle(new Request("http://localhost/boom"));
      const body = await expectError(res, 500, "INTERNAL_ERROR");
      expect(JSON.stringify(body)).not.toContain("hunter2");
      expect(body.detail).toBe("Internal server error");
    } finally {
      (process.stdout as any).write = write;
    }
    expect(lines.join("")).toContain("unhandled error");
  });
});
