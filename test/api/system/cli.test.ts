import { beforeAll, describe, expect, test } from "bun:test";
import { ApiClient, expectError } from "../../helpers/client.ts";
import { runCli } from "../../helpers/cli.ts";
import { type TestServer, useApi } from "../../helpers/server.ts";

const api = useApi();
let server: TestServer;

beforeAll(async () => {
  server = api.server;
});

describe("command-line tool", () => {
  test("user create makes a superuser that can log in to the running server", async () => {
    const run = await runCli(server.dataDir, "user", "create", "ops", "ops@example.com", "Str0ng-Pass!");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Created superuser 'ops'");
    const c = new ApiClient(server.base);
    const login = await c.login("ops", "Str0ng-Pass!");
    expect((await login.json()).user).toMatchObject({ username: "ops", is_superuser: true });
  });

  test("the strict password rule: 8+ characters with upper, lower, digit and symbol", async () => {
    for (const weak of ["Sh0rt!", "alllower1!", "ALLUPPER1!", "NoDigits!!", "NoSymbol12"]) {
      const run = await runCli(server.dataDir, "user", "create", `weak${weak.length}`, "w@example.com", weak);
      expect(run.code).not.toBe(0);
      expect(run.stderr).toContain("Password is too weak");
    }
    const reset = await runCli(server.dataDir, "user", "reset-password", "ops", "weakpass");
    expect(reset.code).not.toBe(0);
    expect((await new ApiClient(server.base).login("ops", "Str0ng-Pass!")).status).toBe(200);
  });

  test("refusals exit non-zero with a clear message", async () => {
    const dup = await runCli(server.dataDir, "user", "create", "ops", "other@example.com", "Str0ng-Pass!");
    expect(dup.code).not.toBe(0);
    expect(dup.stderr).toContain("already exists");
    const missing = await runCli(server.dataDir, "user", "promote", "ghost");
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain("'ghost' not found");
    const again = await runCli(server.dataDir, "user", "promote", "ops");
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain("already a superuser");
    const unknown = await runCli(server.dataDir, "user", "explode");
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain("Unknown command");
    const usage = await runCli(server.dataDir);
    expect(usage.code).not.toBe(0);
    expect(usage.stderr).toContain("Usage:");
  });

  test("demote needs no other superuser to remain", async () => {
    expect((await runCli(server.dataDir, "user", "demote", "ops")).code).toBe(0);
    const list = await runCli(server.dataDir, "user", "list");
    expect(list.stdout).toMatch(/ops\tops@example.com\tyes\tno/);
    const c = new ApiClient(server.base);
    await c.login("ops", "Str0ng-Pass!");
    await expectError(await c.get("/users"), 403);
  });
});
