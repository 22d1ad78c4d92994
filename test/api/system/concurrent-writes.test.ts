import { beforeAll, describe, expect, test } from "bun:test";
import { ApiClient } from "../../helpers/client.ts";
import { type TestServer, useApi } from "../../helpers/server.ts";

const api = useApi();
let server: TestServer;
let admin: ApiClient;

beforeAll(async () => {
  server = api.server;
  admin = new ApiClient(server.base);
  await admin.signUp("admin");
});

describe("serialised writes", () => {
  test("50 concurrent registrations all succeed and none is lost", async () => {
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => fetch(`${server.base}/auth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: `user${i}`, email: `user${i}@example.com`, password: "Secret-pass1" }),
    })));
    expect(results.map((r) => r.status)).toEqual(Array(50).fill(201));
    const all = await (await admin.get("/users")).json();
    expect(all.items).toHaveLength(51);
    expect(all.items.filter((u: any) => u.is_superuser)).toHaveLength(1);
  }, 120_000);

  test("50 concurrent settings writes by different users all land", async () => {
    const clients = await Promise.all(Array.from({ length: 50 }, async (_, i) => {
      const c = new ApiClient(server.base);
      expect((await c.login(`user${i}`)).status).toBe(200);
      return c;
    }));
    const themes = ["light", "dark", "auto"];
    const res = await Promise.all(clients.map((c, i) => c.put("/settings/user", { theme: themes[i % 3], avatar_url: `/avatars/${i}.png` })));
    expect(res.every((r) => r.status === 200)).toBe(true);
    const read = await Promise.all(clients.map(async (c) => (await c.get("/settings/user")).json()));
    read.forEach((s, i) => expect(s).toMatchObject({ theme: themes[i % 3], avatar_url: `/avatars/${i}.png` }));
  }, 120_000);
});
