import { beforeAll, describe, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { ApiClient, expectError } from "../../helpers/client.ts";
import { runCli } from "../../helpers/cli.ts";
import { queryDb } from "../../helpers/seed.ts";
import { type TestServer, useApi } from "../../helpers/server.ts";

const api = useApi();
let server: TestServer;
let admin: ApiClient;

beforeAll(async () => {
  server = api.server;
  admin = new ApiClient(server.base);
  await admin.signUp("admin");
});

describe("preferences", () => {
  test("PATCH /auth/users/me/preferences updates language and base currency of the caller only", async () => {
    const c = new ApiClient(server.base);
    await c.signUp("prefs");
    const res = await c.patch("/auth/users/me/preferences", { language: "it", currency: "usd" });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ language: "it", currency: "USD" });
    expect(await (await c.get("/settings/user")).json()).toMatchObject({ language: "it", base_currency: "USD" });
    expect(await (await admin.get("/settings/user")).json()).toMatchObject({ language: "en", base_currency: "EUR" });
  });

  test("bad preferences are 422 and change nothing", async () => {
    const c = new ApiClient(server.base);
    await c.signUp("prefs-bad");
    await expectError(await c.patch("/auth/users/me/preferences", { currency: "EURO" }), 422, "VALIDATION_ERROR");
    await expectError(await c.patch("/auth/users/me/preferences", {}), 422, "VALIDATION_ERROR");
    await expectError(await c.patch("/auth/users/me/preferences", { language: "english!" }), 422, "VALIDATION_ERROR");
    await expectError(await c.patch("/auth/users/me/preferences", "not json"), 400, "MALFORMED_BODY");
    expect(await (await c.get("/settings/user")).json()).toMatchObject({ base_currency: "EUR" });
  });
});

describe("user settings", () => {
  test("a new settings row is seeded from the global default_currency", async () => {
    await admin.patch("/settings/global/bulk", { items: [{ key: "default_currency", value: "CHF" }] });
    const c = new ApiClient(server.base);
    await c.signUp("swiss");
    expect(await (await c.get("/settings/user")).json()).toMatchObject({ base_currency: "CHF", language: "en", theme: "auto" });
    await admin.patch("/settings/global/bulk", { items: [{ key: "default_currency", value: "EUR" }] });
    // an existing row keeps its own currency
    expect(await (await c.get("/settings/user")).json()).toMatchObject({ base_currency: "CHF" });
  });

  test("PUT /settings/user is a partial update with validated fields", async () => {
    const c = new ApiClient(server.base);
    await c.signUp("themer");
    const res = await c.put("/settings/user", { theme: "dark" });
    expect(await res.json()).toEqual({ language: "en", base_currency: "EUR", theme: "dark", avatar_url: null });
    await expectError(await c.put("/settings/user", { theme: "neon" }), 422);
    await expectError(await c.put("/settings/user", { avatar_url: "x".repeat(501) }), 422);
  });
});

describe("deleting one's own account", () => {
  test("the only superuser cannot delete their account (400)", async () => {
    await expectError(await admin.delete("/auth/users/me"), 400, "LAST_SUPERUSER");
    expect((await admin.get("/auth/me")).status).toBe(200);
  });

  test("a regular user deletes their account: it is gone and its session no longer works", async () => {
    const c = new ApiClient(server.base);
    await c.signUp("leaver");
    const token = c.cookie;
    expect((await c.delete("/auth/users/me")).status).toBe(200);
    await expectError(await fetch(`${server.base}/auth/me`, { headers: { cookie: token } }), 401, "NOT_AUTHENTICATED");
    const all = await (await admin.get("/users")).json();
    expect(all.items.some((u: any) => u.username === "leaver")).toBe(false);
    await expectError(await new ApiClient(server.base).login("leaver"), 401, "INVALID_CREDENTIALS");
  });

  test("deleting an account deletes its uploads: records, cached metadata and bytes", async () => {
    const c = new ApiClient(server.base);
    await c.signUp("uploader-leaving");
    const form = new FormData();
    form.append("file", new File(["some notes"], "notes.txt"));
    const up = await (await c.post("/uploads", form)).json();
    expect((await admin.get(`/uploads/${up.id}`)).status).toBe(200); // now cached
    const stored = readdirSync(`${server.dataDir}/uploads`).length;
    expect((await c.delete("/auth/users/me")).status).toBe(200);
    await expectError(await admin.get(`/uploads/${up.id}`), 404, "UPLOAD_NOT_FOUND");
    await expectError(await admin.get(`/uploads/file/${up.id}`), 404);
    expect(readdirSync(`${server.dataDir}/uploads`).length).toBe(stored - 1);
  });

  test("deleting an account deletes the brokers it was the only OWNER of, and leaves shared ones", async () => {
    const c = new ApiClient(server.base);
    const me = await c.signUp("broker-leaver");
    const solo = (await (await c.post("/brokers", [{ name: "Solo" }])).json()).results[0].broker_id;
    const shared = (await (await admin.post("/brokers", [{ name: "Shared" }])).json()).results[0].broker_id;
    await admin.patch(`/brokers/${shared}/access/${(await (await admin.get("/auth/me")).json()).user.id}`, { share_percentage: "0.5" });
    expect((await admin.post(`/brokers/${shared}/access`, { user_id: me.id, role: "OWNER", share_percentage: "0.5" })).status).toBe(201);
    expect((await c.delete("/auth/users/me")).status).toBe(200);
    expect(queryDb(server.dataDir, "SELECT id FROM brokers WHERE id = ?", solo)).toEqual([]);
    const access = await (await admin.get(`/brokers/${shared}/access`)).json();
    expect(access.items.map((i: any) => i.username)).toEqual(["admin"]);
  });

  test("a superuser may delete their account when another superuser exists", async () => {
    const c = new ApiClient(server.base);
    await c.signUp("second-admin");
    expect((await runCli(server.dataDir, "user", "promote", "second-admin")).code).toBe(0);
    expect((await c.delete("/auth/users/me")).status).toBe(200);
    await expectError(await admin.delete("/auth/users/me"), 400, "LAST_SUPERUSER");
  });
});
