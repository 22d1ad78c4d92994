import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { ApiClient, expectError } from "../../helpers/client.ts";
import { OFFLINE_PLUGIN_CONFIG } from "../../helpers/offline-plugins.ts";
import { startServer, type TestServer } from "../../helpers/server.ts";
import { builtinPlugins } from "../../../plugins/index.ts";
import { pluginsDirWith } from "../../plugins-host/fixture-dir.ts";

const plugins = pluginsDirWith([
  "example-calc", "broken-no-brand", "broken-api-version", "broken-create-throws", "broken-throws-on-import",
]);
let server: TestServer;
let client: ApiClient;

beforeAll(async () => {
  server = await startServer({ env: { PLUGINS_DIR: plugins.dir } });
  client = new ApiClient(server.base);
  await client.signUp("plugin-admin");
});
afterAll(async () => {
  await server.stop(true);
  plugins.remove();
});

describe("plugins from PLUGINS_DIR", () => {
  test("broken plugins never stop boot; each appears in plugin-diagnostics with its reason", async () => {
    const diag = await (await client.get("/system/plugin-diagnostics")).json();
    const byFolder = Object.fromEntries(diag.map((d: any) => [d.filename?.split("/").at(-2), d]));
    expect(byFolder["example-calc"]).toMatchObject({ id: "compound-interest", kind: "calculation-tool", system: "tools", status: "loaded", error: null, source: "external" });
    expect(byFolder["broken-api-version"]).toMatchObject({ status: "incompatible" });
    expect(byFolder["broken-api-version"].error).toContain("99");
    expect(byFolder["broken-no-brand"]).toMatchObject({ status: "failed" });
    expect(byFolder["broken-no-brand"].error).toMatch(/brand|definePlugin/i);
    expect(byFolder["broken-create-throws"]).toMatchObject({ status: "failed" });
    expect(byFolder["broken-create-throws"].error).toContain("create()");
    expect(byFolder["broken-throws-on-import"]).toMatchObject({ status: "failed" });
    expect((await client.get("/system/health")).status).toBe(200);
  });

  test("plugin-diagnostics needs a session", async () => {
    await expectError(await fetch(`${server.base}/system/plugin-diagnostics`), 401, "NOT_AUTHENTICATED");
  });

  test("system info reports the SDK API version and plugin counts", async () => {
    const info = await (await fetch(`${server.base}/system/info`)).json();
    expect(info.sdk_api_version).toBe(1);
    expect(info.runtime).toBe("bun");
    // the built-in plugins load too; the five fixtures add one loaded, one incompatible and three failed
    expect(info.plugins).toMatchObject({ total: builtinPlugins.length + 5, loaded: builtinPlugins.length + 1, incompatible: 1, failed: 3 });
    const builtinTools = builtinPlugins.filter((p) => p.manifest.kind === "calculation-tool").length;
    expect(info.plugins.by_kind["calculation-tool"]).toBe(builtinTools + 1);
  });
});

describe("plugin configuration", () => {
  test("a plugin set to false in the plugin config file is disabled", async () => {
    const dir = pluginsDirWith(["example-calc"]);
    const configFile = join(dir.dir, "..", `plugins-${Date.now()}.json`);
    writeFileSync(configFile, JSON.stringify({ ...OFFLINE_PLUGIN_CONFIG, "compound-interest": false }));
    const s = await startServer({ env: { PLUGINS_DIR: dir.dir, PLUGINS_CONFIG: configFile } });
    try {
      const c = new ApiClient(s.base);
      await c.signUp("cfg-admin");
      const diag = await (await c.get("/system/plugin-diagnostics")).json();
      const external = diag.filter((d: any) => d.source === "external");
      expect(external).toHaveLength(1);
      expect(external[0]).toMatchObject({ id: "compound-interest", status: "disabled" });
    } finally {
      await s.stop(true);
      dir.remove();
    }
  });
});
