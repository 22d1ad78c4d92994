import { beforeAll, describe, expect, test } from "bun:test";
import { expectError } from "../../helpers/client.ts";
import { type TestServer, useApi } from "../../helpers/server.ts";

const api = useApi();
let server: TestServer;
let paths: Record<string, Record<string, unknown>>;

beforeAll(async () => {
  server = api.server;
  paths = (await (await fetch(`${server.base}/openapi.json`)).json()).paths;
});

/** The public endpoints: exactly these need no cookie. */
function isPublic(method: string, path: string): boolean {
  const p = path.replace(/^\/api\/v1/, "");
  if (method === "post" && ["/auth/login", "/auth/logout", "/auth/register"].includes(p)) return true;
  if (method === "get" && ["/system/health", "/system/info", "/ai-export/catalog"].includes(p)) return true;
  return method === "get" && p.startsWith("/utilities/");
}

function concrete(path: string): string {
  return path.replace(/\{[^}]+\}/g, "1").replace(/\*$/, "x");
}

describe("public endpoints", () => {
  test("every route outside the public list answers 401 NOT_AUTHENTICATED without a session", async () => {
    let checked = 0;
    for (const [path, ops] of Object.entries(paths)) {
      for (const method of Object.keys(ops)) {
        if (isPublic(method, path)) continue;
        const res = await fetch(server.url + concrete(path), { method: method.toUpperCase() });
        const body = await expectError(res, 401, "NOT_AUTHENTICATED");
        expect(body.detail).toBe("Not authenticated");
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(15);
  });

  test("the session is checked before the input: bad bodies and queries without a session get 401", async () => {
    const bulk = await fetch(`${server.base}/settings/global/bulk`, { method: "PATCH", headers: { "content-type": "application/json" }, body: '{"items": 5}' });
    await expectError(bulk, 401, "NOT_AUTHENTICATED");
    const wrongTypes = await fetch(`${server.base}/settings/user`, { method: "PUT", headers: { "content-type": "application/json" }, body: '{"theme": 5}' });
    await expectError(wrongTypes, 401, "NOT_AUTHENTICATED");
    await expectError(await fetch(`${server.base}/users/search?limit=abc`), 401, "NOT_AUTHENTICATED");
  });

  test("the public endpoints answer without a session", async () => {
    for (const p of ["/system/health", "/system/info", "/ai-export/catalog", "/utilities/currencies"]) {
      expect((await fetch(server.base + p)).status).toBe(200);
    }
    expect((await fetch(server.base + "/auth/logout", { method: "POST" })).status).toBe(200);
  });

  test("health answers {status: ok}", async () => {
    expect(await (await fetch(`${server.base}/system/health`)).json()).toEqual({ status: "ok" });
  });
});
