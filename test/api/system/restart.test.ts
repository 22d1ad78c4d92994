import { describe, expect, test } from "bun:test";
import { ApiClient, expectError } from "../../helpers/client.ts";
import { startServer, tempDataDir } from "../../helpers/server.ts";

describe("restart", () => {
  test("a shared JWT_SECRET keeps sessions valid across a restart, and data survives", async () => {
    const dataDir = tempDataDir();
    const env = { JWT_SECRET: "a-long-shared-secret-for-tests-only" };
    const first = await startServer({ dataDir, env });
    const c = new ApiClient(first.base);
    await c.signUp("persist");
    await c.put("/settings/user", { theme: "dark" });
    const cookie = c.cookie;
    await first.stop();

    const second = await startServer({ dataDir, env });
    try {
      const again = new ApiClient(second.base);
      again.cookie = cookie;
      const me = await again.get("/auth/me");
      expect(me.status).toBe(200);
      expect((await me.json()).user.username).toBe("persist");
      expect((await (await again.get("/settings/user")).json()).theme).toBe("dark");
    } finally {
      await second.stop(true);
    }
  });

  test("without JWT_SECRET each process signs with its own key, so sessions do not survive a restart", async () => {
    const dataDir = tempDataDir();
    const first = await startServer({ dataDir });
    const c = new ApiClient(first.base);
    await c.signUp("ephemeral");
    const cookie = c.cookie;
    await first.stop();

    const second = await startServer({ dataDir, env: { JWT_SECRET: "" } });
    try {
      const again = new ApiClient(second.base);
      again.cookie = cookie;
      await expectError(await again.get("/auth/me"), 401, "NOT_AUTHENTICATED");
      // the account itself survived
      expect((await again.login("ephemeral")).status).toBe(200);
    } finally {
      await second.stop(true);
    }
  });
});
