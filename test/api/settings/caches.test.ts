import { beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { ApiClient, expectError } from "../../helpers/client.ts";
import { type TestServer, useApi } from "../../helpers/server.ts";

const api = useApi();
let server: TestServer;
let admin: ApiClient;
let user: ApiClient;
let adminId: number;

beforeAll(async () => {
  server = api.server;
  admin = new ApiClient(server.base);
  adminId = (await admin.signUp("root")).id;
  user = new ApiClient(server.base);
  await user.signUp("user");
});

function auditLines(): any[] {
  return readFileSync(`${server.dataDir}/logs/audit.jsonl`, "utf8").trim().split("\n").map((l) => JSON.parse(l));
}

describe("cache administration", () => {
  test("status lists only caches already created, with spec sizes and TTLs", async () => {
    const before = await (await user.get("/settings/cache/status")).json();
    expect(before.items.some((c: any) => c.name === "upload_metadata")).toBe(false);
    // uploads register the upload_metadata cache on first use
    const form = new FormData();
    form.append("file", new File(["hello, world"], "hello.txt", { type: "text/plain" }));
    expect((await user.post("/uploads", form)).status).toBe(201);
    const after = await (await user.get("/settings/cache/status")).json();
    expect(after.items).toContainEqual({ name: "upload_metadata", current_size: expect.any(Number), maxsize: 500, ttl_seconds: 3600 });
  });

  test("clears are admin-only (403 for others)", async () => {
    await expectError(await user.post("/settings/cache/clear-all"), 403, "ADMIN_REQUIRED");
    await expectError(await user.post("/settings/cache/clear/upload_metadata"), 403, "ADMIN_REQUIRED");
  });

  test("clearing an unknown cache name is 404", async () => {
    await expectError(await admin.post("/settings/cache/clear/no_such_cache"), 404, "CACHE_NOT_FOUND");
  });

  test("clear one empties it and is audit-logged with the admin's id and username", async () => {
    const res = await admin.post("/settings/cache/clear/upload_metadata");
    expect(await res.json()).toMatchObject({ cleared_count: 1, name: "upload_metadata" });
    const status = await (await admin.get("/settings/cache/status")).json();
    expect(status.items.find((c: any) => c.name === "upload_metadata").current_size).toBe(0);
    expect(auditLines().at(-1)).toMatchObject({ action: "cache.clear", cache: "upload_metadata", admin_id: adminId, admin_username: "root" });
  });

  test("clear-all returns the count of cleared caches and is audit-logged", async () => {
    const status = await (await admin.get("/settings/cache/status")).json();
    const res = await (await admin.post("/settings/cache/clear-all")).json();
    expect(res.cleared_count).toBe(status.items.length);
    expect(res.cleared_count).toBeGreaterThan(0);
    expect(auditLines().at(-1)).toMatchObject({ action: "cache.clear_all", cleared_count: res.cleared_count, admin_id: adminId, admin_username: "root" });
    const log = server.logs().filter((l) => l.msg === "audit").at(-1);
    expect(log).toMatchObject({ action: "cache.clear_all", admin_username: "root" });
  });
});
