import { beforeAll, describe, expect, test } from "bun:test";
import { ApiClient, expectError } from "../../helpers/client.ts";
import { startServer, type TestServer, useApi } from "../../helpers/server.ts";

const api = useApi();
let server: TestServer;
let admin: ApiClient;

beforeAll(async () => {
  server = api.server;
  admin = new ApiClient(server.base);
});

describe("registration", () => {
  test("first account becomes superuser even when enable_registration is false", async () => {
    // No account exists yet, so nobody could have disabled registration through the API;
    // the rule is exercised by the second server below. Here: first account is admin.
    const user = await admin.signUp("alice");
    expect(user.is_superuser).toBe(true);
    const me = await (await admin.get("/auth/me")).json();
    expect(me.user).toMatchObject({ username: "alice", is_superuser: true, is_active: true });
    expect(me.user).not.toHaveProperty("password_hash");
  });

  test("later accounts are not superusers", async () => {
    const bob = new ApiClient(server.base);
    const user = await bob.signUp("bob");
    expect(user.is_superuser).toBe(false);
  });

  test("duplicate username or email is refused with 409 and stores nothing", async () => {
    const c = new ApiClient(server.base);
    await expectError(await c.post("/auth/register", { username: "ALICE", email: "x@example.com", password: "Secret-pass1" }), 409, "USER_EXISTS");
    await expectError(await c.post("/auth/register", { username: "alice2", email: "Alice@example.com", password: "Secret-pass1" }), 409, "USER_EXISTS");
    const all = await (await admin.get("/users")).json();
    expect(all.items.map((u: any) => u.username).sort()).toEqual(["alice", "bob"]);
  });

  test("password shorter than 8 characters is a 422 with the field path and is never echoed", async () => {
    const c = new ApiClient(server.base);
    const body = await expectError(await c.post("/auth/register", { username: "carol", email: "c@example.com", password: "Short1!" }), 422, "VALIDATION_ERROR");
    expect(body.detail.some((d: any) => d.loc.join(".") === "body.password")).toBe(true);
    expect(JSON.stringify(body)).not.toContain("Short1!");
  });

  test("invalid email and unknown fields are refused with 422", async () => {
    const c = new ApiClient(server.base);
    const bad = await expectError(await c.post("/auth/register", { username: "dave", email: "not-an-email", password: "Secret-pass1" }), 422);
    expect(bad.detail[0].loc).toEqual(["body", "email"]);
    await expectError(await c.post("/auth/register", { username: "dave", email: "d@example.com", password: "Secret-pass1", is_superuser: true }), 422);
  });

  test("registration is refused with 403 REGISTRATION_DISABLED when enable_registration is false", async () => {
    const set = await admin.patch("/settings/global/bulk", { items: [{ key: "enable_registration", value: "false" }] });
    expect(set.status).toBe(200);
    const c = new ApiClient(server.base);
    await expectError(await c.post("/auth/register", { username: "erin", email: "e@example.com", password: "Secret-pass1" }), 403, "REGISTRATION_DISABLED");
    // bool reads: "on" means true (as do true, 1 and yes).
    await admin.patch("/settings/global/bulk", { items: [{ key: "enable_registration", value: "on" }] });
    expect((await c.post("/auth/register", { username: "erin", email: "e@example.com", password: "Secret-pass1" })).status).toBe(201);
  });
});

describe("first account with registration disabled", () => {
  test("the first account ever is accepted and superuser although enable_registration is false", async () => {
    const dataDir = (await import("../../helpers/server.ts")).tempDataDir();
    // Pre-seed the setting through the CLI-less path: the server creates rows at start,
    // so start, stop, flip the row directly in SQLite, and start again.
    const first = await startServer({ dataDir });
    await first.stop();
    const { runDb } = await import("../../helpers/test-db.ts");
    runDb(dataDir, `UPDATE global_settings SET value = 'false' WHERE key = 'enable_registration'`);
    const again = await startServer({ dataDir });
    try {
      const c = new ApiClient(again.base);
      const res = await c.post("/auth/register", { username: "root", email: "root@example.com", password: "Secret-pass1" });
      expect(res.status).toBe(201);
      expect((await res.json()).user.is_superuser).toBe(true);
      await expectError(await c.post("/auth/register", { username: "second", email: "s@example.com", password: "Secret-pass1" }), 403, "REGISTRATION_DISABLED");
    } finally {
      await again.stop(true);
    }
  });
});
