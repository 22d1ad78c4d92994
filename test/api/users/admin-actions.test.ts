import { beforeAll, describe, expect, test } from "bun:test";
import { ApiClient, expectError } from "../../helpers/client.ts";
import { type TestServer, useApi } from "../../helpers/server.ts";

const api = useApi();
let server: TestServer;
let admin: ApiClient;
let user: ApiClient;
const ids: Record<string, number> = {};

beforeAll(async () => {
  server = api.server;
  admin = new ApiClient(server.base);
  await admin.signUp("root");
  user = new ApiClient(server.base);
  await user.signUp("ana");
  await new ApiClient(server.base).signUp("bob");
  for (const u of (await (await admin.get("/users")).json()).items) ids[u.username] = u.id;
});

describe("admin user actions", () => {
  test("only a superuser may change or reset an account (403 otherwise)", async () => {
    await expectError(await user.patch(`/users/${ids.bob}`, { is_active: false }), 403, "ADMIN_REQUIRED");
    await expectError(await user.post(`/users/${ids.bob}/password`, { password: "Another-pass9" }), 403, "ADMIN_REQUIRED");
  });

  test("deactivating an account refuses its next request and its login; activating restores both", async () => {
    const bob = new ApiClient(server.base);
    expect((await bob.post("/auth/login", { username: "bob", password: "Secret-pass1" })).status).toBe(200);
    const res = await admin.patch(`/users/${ids.bob}`, { is_active: false });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ username: "bob", is_active: false, is_superuser: false });
    expect((await bob.get("/auth/me")).status).toBe(401);
    expect((await new ApiClient(server.base).post("/auth/login", { username: "bob", password: "Secret-pass1" })).status).toBe(401);
    expect(await (await admin.patch(`/users/${ids.bob}`, { is_active: true })).json()).toMatchObject({ is_active: true });
    expect((await bob.post("/auth/login", { username: "bob", password: "Secret-pass1" })).status).toBe(200);
  });

  test("a promoted account can use admin routes at its next request; demoting removes that", async () => {
    expect(await (await admin.patch(`/users/${ids.ana}`, { is_superuser: true })).json()).toMatchObject({ is_superuser: true });
    expect((await user.get("/users")).status).toBe(200);
    expect(await (await admin.patch(`/users/${ids.ana}`, { is_superuser: false })).json()).toMatchObject({ is_superuser: false });
    await expectError(await user.get("/users"), 403, "ADMIN_REQUIRED");
  });

  test("a superuser cannot deactivate or demote their own account", async () => {
    await expectError(await admin.patch(`/users/${ids.root}`, { is_active: false }), 400, "CANNOT_CHANGE_SELF");
    await expectError(await admin.patch(`/users/${ids.root}`, { is_superuser: false }), 400, "CANNOT_CHANGE_SELF");
    expect((await (await admin.get("/auth/me")).json()).user).toMatchObject({ is_superuser: true, is_active: true });
  });

  test("another superuser can deactivate a superuser, whose admin requests are then refused", async () => {
    await admin.patch(`/users/${ids.ana}`, { is_superuser: true });
    expect((await user.patch(`/users/${ids.root}`, { is_active: false })).status).toBe(200);
    expect((await admin.get("/users")).status).toBe(401);
    // ana is now the only active superuser and cannot remove herself
    await expectError(await user.patch(`/users/${ids.ana}`, { is_superuser: false }), 400, "CANNOT_CHANGE_SELF");
    await user.patch(`/users/${ids.root}`, { is_active: true });
    expect((await admin.post("/auth/login", { username: "root", password: "Secret-pass1" })).status).toBe(200);
    expect(await (await admin.patch(`/users/${ids.ana}`, { is_superuser: false })).json()).toMatchObject({ is_superuser: false });
  });

  test("a reset password must meet the policy (422 WEAK_PASSWORD) and ends the account's sessions", async () => {
    await expectError(await admin.post(`/users/${ids.bob}/password`, { password: "short" }), 422, "WEAK_PASSWORD");
    const bob = new ApiClient(server.base);
    expect((await bob.post("/auth/login", { username: "bob", password: "Secret-pass1" })).status).toBe(200);
    expect((await admin.post(`/users/${ids.bob}/password`, { password: "Brand-new-pass7" })).status).toBe(200);
    expect((await bob.get("/auth/me")).status).toBe(401);
    expect((await new ApiClient(server.base).post("/auth/login", { username: "bob", password: "Secret-pass1" })).status).toBe(401);
    expect((await new ApiClient(server.base).post("/auth/login", { username: "bob", password: "Brand-new-pass7" })).status).toBe(200);
  });

  test("unknown accounts are 404 and bad bodies 422", async () => {
    await expectError(await admin.patch("/users/999999", { is_active: true }), 404, "USER_NOT_FOUND");
    await expectError(await admin.patch(`/users/${ids.bob}`, {}), 422, "VALIDATION_ERROR");
    await expectError(await admin.patch(`/users/${ids.bob}`, { is_active: "yes" }), 422, "VALIDATION_ERROR");
  });
});
