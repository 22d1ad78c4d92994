import { afterEach, expect, test } from "bun:test";
import { lstatSync, mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { provideSdk } from "../../host/plugins/discovery.ts";
import { loadPlugins } from "../../host/plugins/loader.ts";
import { createFakeContext } from "../../sdk/testing/index.ts";
import { PluginError, type PluginContext, SDK_API_VERSION } from "../../sdk/index.ts";
import { pluginsDirWith } from "./fixture-dir.ts";

const silent = { debug() {}, error() {}, info() {}, warn() {} };
const SDK_DIR = realpathSync(join(import.meta.dir, "..", "..", "sdk"));
let cleanup: () => void = () => {};
afterEach(() => cleanup());

test("the host links its own SDK into PLUGINS_DIR so external plugins share one copy", async () => {
  const fixtures = pluginsDirWith([]);
  cleanup = fixtures.remove;
  mkdirSync(join(fixtures.dir, "sdk-user"));
  writeFileSync(
    join(fixtures.dir, "sdk-user", "index.ts"),
    `import { definePlugin, PluginError } from "@portfolio-tracker/sdk";
export const ErrorClass = PluginError;
export default definePlugin({ id: "sdk-user", kind: "import-plugin", name: "u", version: "1.0.0", description: "d",
  create: () => ({ accepts: () => 0, parse: async () => ({ transactions: [], warnings: [] }) }) });`,
  );
  const registry = await loadPlugins({
    acceptedApiVersions: [SDK_API_VERSION],
    builtins: [],
    configFor: () => undefined,
    createContext: (_m, config) => createFakeContext({ config }) as PluginContext,
    logger: silent,
    pluginsDir: fixtures.dir,
  });
  expect(registry.counts().loaded).toBe(1);
  expect(realpathSync(join(fixtures.dir, "node_modules", "@portfolio-tracker", "sdk"))).toBe(SDK_DIR);
  const module = await import(join(fixtures.dir, "sdk-user", "index.ts"));
  expect(module.ErrorClass).toBe(PluginError);
});

test("an SDK copy the self-hoster installed in PLUGINS_DIR is left alone", async () => {
  const fixtures = pluginsDirWith([]);
  cleanup = fixtures.remove;
  const own = join(fixtures.dir, "node_modules", "@portfolio-tracker", "sdk");
  mkdirSync(own, { recursive: true });
  await provideSdk(fixtures.dir, silent);
  expect(lstatSync(own).isSymbolicLink()).toBe(false);
});

test("a stale SDK link is replaced by one to the running host's SDK", async () => {
  const fixtures = pluginsDirWith([]);
  cleanup = fixtures.remove;
  await provideSdk(fixtures.dir, silent);
  await provideSdk(fixtures.dir, silent);
  expect(realpathSync(join(fixtures.dir, "node_modules", "@portfolio-tracker", "sdk"))).toBe(SDK_DIR);
});
