import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ApiClient, expectError } from "../../helpers/client.ts";
import { startServer, tempDataDir, type TestServer } from "../../helpers/server.ts";
import { pluginsDirWith } from "../../plugins-host/fixture-dir.ts";

const ASSET = "/uploads/plugin/calculation-tool/compound-interest";
const plugins = pluginsDirWith(["example-calc"]);
let server: TestServer;
let client: ApiClient;

beforeAll(async () => {
  const outside = tempDataDir("pt-outside-");
  writeFileSync(join(outside, "secret.txt"), "top secret");
  symlinkSync(join(outside, "secret.txt"), join(plugins.dir, "example-calc", "assets", "escape.txt"));
  writeFileSync(join(plugins.dir, "example-calc", "secret.txt"), "beside the assets folder");
  writeFileSync(join(plugins.dir, "example-calc", "assets", "chart legend.txt"), "green: growth");
  server = await startServer({ env: { PLUGINS_DIR: plugins.dir } });
  client = new ApiClient(server.base);
  await client.signUp("asset-user");
});
afterAll(async () => {
  await server.stop(true);
  plugins.remove();
});

describe("plugin assets are served from the plugin's own folder only", () => {
  test("plugin assets stay readable by any session, not only the first (admin) account", async () => {
    const plain = new ApiClient(server.base);
    const account = await plain.signUp("plain-asset-user");
    expect(account.is_superuser).toBe(false);
    expect((await plain.get(`${ASSET}/icon.svg`)).status).toBe(200);
  });

  test("a plugin's icon is served as image/svg+xml with the safe headers", async () => {
    const res = await client.get(`${ASSET}/icon.svg`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/svg+xml");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("content-security-policy")).toContain("sandbox");
    expect(await res.text()).toContain("<svg");
  });

  test("the asset path is percent-decoded once: an encoded space finds the file", async () => {
    const res = await client.get(`${ASSET}/chart%20legend.txt`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(await res.text()).toBe("green: growth");
  });

  test("encoded ../ traversal is refused with 404", async () => {
    for (const path of ["..%2Fsecret.txt", "..%2Findex.ts", "..%2F..%2F..%2F..%2Fetc%2Fpasswd", "%2e%2e%2Fsecret.txt", "..%5Csecret.txt", "%2Fetc%2Fpasswd", "icon.svg%00.png"]) {
      await expectError(await client.get(`${ASSET}/${path}`), 404, "ASSET_NOT_FOUND");
    }
  });

  test("a symlink pointing out of the assets folder is refused with 404", async () => {
    await expectError(await client.get(`${ASSET}/escape.txt`), 404, "ASSET_NOT_FOUND");
  });

  test("an unknown kind, plugin or file is 404", async () => {
    await expectError(await client.get("/uploads/plugin/no-such-kind/compound-interest/icon.svg"), 404);
    await expectError(await client.get("/uploads/plugin/calculation-tool/no-such-plugin/icon.svg"), 404);
    await expectError(await client.get(`${ASSET}/missing.svg`), 404);
    await expectError(await client.get("/uploads/plugin/fx/compound-interest/icon.svg"), 404);
  });
});
