import { beforeAll, describe, expect, test } from "bun:test";
import { ApiClient, expectError } from "../../helpers/client.ts";
import { runCli } from "../../helpers/cli.ts";
import { type TestServer, useApi } from "../../helpers/server.ts";

const api = useApi();
let server: TestServer;
let admin: ApiClient;
let user: ApiClient;

beforeAll(async () => {
  server = api.server;
  admin = new ApiClient(server.base);
  await admin.signUp("admin");
  user = new ApiClient(server.base);
  await user.signUp("maria");
  await new ApiClient(server.base).signUp("mario");
  await new ApiClient(server.base).signUp("zed");
});

describe("users", () => {
  test("listing all accounts is admin-only and includes inactive ones", async () => {
    await expectError(await user.get("/users"), 403, "ADMIN_REQUIRED");
    expect((await runCli(server.dataDir, "user", "deactivate", "zed")).code).toBe(0);
    const all = await (await admin.get("/users")).json();
    expect(all.items.map((u: any) => [u.username, u.is_active])).toEqual([
      ["admin", true], ["maria", true], ["mario", true], ["zed", false],
    ]);
  });

  test("search finds active users by part of the username, without emails for non-admins", async () => {
    const res = await (await user.get("/users/search?q=MAR")).json();
    expect(res.items.map((u: any) => u.username)).toEqual(["maria", "mario"]);
    expect(res.items[0]).not.toHaveProperty("email");
    const everyone = await (await user.get("/users/search")).json();
    expect(everyone.items.map((u: any) => u.username)).not.toContain("zed");
  });

  test("search treats % and _ literally", async () => {
    expect((await (await user.get("/users/search?q=%25")).json()).items).toEqual([]);
    expect((await (await user.get("/users/search?q=_")).json()).items).toEqual([]);
  });

  test("admins=true lists superusers with email and is refused to non-admins", async () => {
    await expectError(await user.get("/users/search?admins=true"), 403);
    const res = await (await admin.get("/users/search?admins=true")).json();
    expect(res.items).toEqual([{ id: expect.any(Number), username: "admin", is_admin: true, email: "admin@example.com" }]);
  });

  test("bad query values are 422", async () => {
    await expectError(await user.get("/users/search?limit=0"), 422, "VALIDATION_ERROR");
    await expectError(await user.get("/users/search?admins=maybe"), 422, "VALIDATION_ERROR");
  });
});
