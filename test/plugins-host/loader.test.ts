import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadPlugins, type LoadPluginsOptions } from "../../host/plugins/loader.ts";
import type { PluginDiagnostic } from "../../host/plugins/diagnostics.ts";
import type { PluginRegistry } from "../../host/plugins/registry.ts";
import { createFakeContext } from "../../sdk/testing/index.ts";
import { definePlugin, type PluginContext, SDK_API_VERSION, z } from "../../sdk/index.ts";
import { PLUGIN_FIXTURES, pluginsDirWith } from "./fixture-dir.ts";

const silent = { debug() {}, error() {}, info() {}, warn() {} };

function options(overrides: Partial<LoadPluginsOptions> = {}): LoadPluginsOptions {
  return {
    acceptedApiVersions: [SDK_API_VERSION],
    builtins: [],
    configFor: () => undefined,
    createContext: (_manifest, config) => createFakeContext({ config }) as PluginContext,
    createTimeoutMs: 300,
    logger: silent,
    ...overrides,
  };
}

const byPath = (diagnostics: PluginDiagnostic[], folder: string) =>
  diagnostics.find((d) => d.path?.includes(`/${folder}/`) || d.path?.endsWith(`/${folder}`));

const tool = (id: string, extra: object = {}) =>
  definePlugin({
    create: () => ({
      catalog: { category: "test", contractVersion: "1.0.0" },
      compute: (input: unknown) => input,
      inputSchema: z.unknown(),
      outputSchema: z.unknown(),
    }),
    description: "inline test tool",
    id,
    kind: "calculation-tool",
    name: id,
    version: "1.0.0",
    ...extra,
  });

describe("loading every fixture from PLUGINS_DIR", () => {
  // The loader fixtures only: the test-only providers (fake-*) have suites of their own.
  const fixtures = pluginsDirWith(readdirSync(PLUGIN_FIXTURES).filter((name) => !name.startsWith("fake-")));
  let registry: PluginRegistry;
  let diagnostics: PluginDiagnostic[];

  beforeAll(async () => {
    mkdirSync(join(fixtures.dir, "no-entry"));
    mkdirSync(join(fixtures.dir, "packaged", "lib"), { recursive: true });
    writeFileSync(join(fixtures.dir, "packaged", "package.json"), JSON.stringify({ main: "lib/entry.js" }));
    writeFileSync(
      join(fixtures.dir, "packaged", "lib", "entry.js"),
      `import { definePlugin, z } from "@portfolio-tracker/sdk";
export default definePlugin({ id: "packaged", kind: "calculation-tool", name: "Packaged", version: "0.1.0",
  description: "entry from package.json main", create: () => ({ catalog: { category: "t", contractVersion: "1.0.0" },
  compute: (x) => x, inputSchema: z.unknown(), outputSchema: z.unknown() }) });`,
    );
    registry = await loadPlugins(options({ pluginsDir: fixtures.dir }));
    diagnostics = registry.diagnostics();
  });
  afterAll(() => fixtures.remove());

  test("boot continues: the example plugin loads and runs despite the broken ones", () => {
    const example = registry.get("calculation-tool", "compound-interest");
    expect(example?.source).toBe("external");
    expect(example?.instance.compute({ principal: "1000", rate: "0.05", years: "10" })).toEqual({ amount: "1628.89" });
  });

  test("a default export without the plugin brand fails", () => {
    expect(byPath(diagnostics, "broken-no-brand")).toMatchObject({ reason: expect.stringContaining("no plugin brand"), status: "failed" });
  });

  test("a manifest id that breaks the id pattern fails with the zod message", () => {
    const d = byPath(diagnostics, "broken-bad-id");
    expect(d).toMatchObject({ id: "Bad ID!", status: "failed" });
    expect(d?.reason).toStartWith("invalid manifest: id: must be lower-case words");
  });

  test("a plugin built for another SDK major is incompatible", () => {
    expect(byPath(diagnostics, "broken-api-version")).toMatchObject({
      id: "future-api",
      reason: "built for SDK API version 99; this host accepts 1",
      status: "incompatible",
    });
  });

  test("a module that throws on import fails with the thrown message", () => {
    expect(byPath(diagnostics, "broken-throws-on-import")).toMatchObject({
      id: null,
      reason: "import failed: fixture exploded on import",
      status: "failed",
    });
  });

  test("a create() that throws fails with the thrown message", () => {
    const d = byPath(diagnostics, "broken-create-throws");
    expect(d).toMatchObject({ id: "create-throws", reason: "create() failed: fixture create() exploded", status: "failed" });
  });

  test("a create() that never settles fails after the timeout", () => {
    const d = byPath(diagnostics, "broken-create-hangs");
    expect(d).toMatchObject({ reason: "create() failed: did not finish within 300 ms", status: "failed" });
  });

  test("a second plugin with an id already claimed within the kind is rejected as a duplicate", () => {
    const d = byPath(diagnostics, "broken-duplicate-id");
    expect(d?.status).toBe("failed");
    expect(d?.reason).toContain('duplicate id: calculation-tool "create-throws" is already provided by');
    expect(d?.reason).toContain("broken-create-throws");
  });

  test("an entry point may come from package.json main", () => {
    expect(registry.get("calculation-tool", "packaged")?.path).toEndWith(join("packaged", "lib", "entry.js"));
  });

  test("a folder without an entry point fails and names the folder", () => {
    const d = byPath(diagnostics, "no-entry");
    expect(d).toMatchObject({ source: "external", status: "failed" });
    expect(d?.reason).toStartWith("no entry point");
  });

  test("every folder yields exactly one diagnostic with its path, and counts add up", () => {
    expect(diagnostics).toHaveLength(11);
    expect(diagnostics.every((d) => d.source === "external" && d.path !== null)).toBe(true);
    expect(registry.counts()).toMatchObject({ disabled: 0, failed: 7, incompatible: 1, loaded: 3, total: 11 });
    expect(registry.counts().byKind["calculation-tool"]).toBe(2);
    expect(registry.counts().byKind["import-plugin"]).toBe(1);
  });

  test("assetsDir maps the manifest assetsUrl to the plugin's local assets folder", () => {
    const dir = registry.assetsDir("calculation-tool", "compound-interest");
    expect(dir).toBe(join(fixtures.dir, "example-calc", "assets") + "/");
    expect(existsSync(join(dir!, "icon.svg"))).toBe(true);
    expect(registry.assetsDir("calculation-tool", "packaged")).toBeUndefined();
  });
});

describe("built-ins, configuration and instances", () => {
  test("built-ins load first and keep their id when an external plugin claims it too", async () => {
    const fixtures = pluginsDirWith(["example-calc"]);
    try {
      const registry = await loadPlugins(options({ builtins: [tool("compound-interest")], pluginsDir: fixtures.dir }));
      const [builtin, external] = registry.diagnostics();
      expect(builtin).toMatchObject({ path: null, source: "builtin", status: "loaded" });
      expect(external?.status).toBe("failed");
      expect(external?.reason).toBe('duplicate id: calculation-tool "compound-interest" is already provided by a built-in plugin');
    } finally {
      fixtures.remove();
    }
  });

  test("the same id may be used once per kind", async () => {
    const fx = definePlugin({
      create: () => ({ baseCurrencies: [], getRates: async () => [], targetCurrencies: [] }),
      description: "fx",
      id: "shared",
      kind: "fx-provider",
      name: "fx",
      version: "1.0.0",
    });
    const registry = await loadPlugins(options({ builtins: [tool("shared"), fx] }));
    expect(registry.counts()).toMatchObject({ byKind: { "calculation-tool": 1, "fx-provider": 1 }, loaded: 2 });
  });

  test("a config the plugin's configSchema rejects fails with the zod message", async () => {
    const plugin = tool("needs-url", { configSchema: z.object({ baseUrl: z.url() }) });
    const registry = await loadPlugins(options({ builtins: [plugin], configFor: () => ({ baseUrl: "not a url" }) }));
    expect(registry.diagnostics()[0]).toMatchObject({ reason: "invalid config: baseUrl: Invalid URL", status: "failed" });
  });

  test("create(ctx) receives the config parsed by configSchema, defaults applied", async () => {
    const seen: unknown[] = [];
    const plugin = definePlugin({
      configSchema: z.object({ retries: z.number().default(3) }),
      create: (ctx) => {
        seen.push(ctx.config);
        return tool("x").create(createFakeContext());
      },
      description: "configured",
      id: "configured",
      kind: "calculation-tool",
      name: "configured",
      version: "1.0.0",
    });
    await loadPlugins(options({ builtins: [plugin] }));
    expect(seen).toEqual([{ retries: 3 }]);
  });

  test("a plugin without configSchema gets {} whatever its config holds", async () => {
    const contexts: unknown[] = [];
    await loadPlugins(
      options({
        builtins: [tool("plain")],
        configFor: () => ({ secret: "x" }),
        createContext: (_m, config) => (contexts.push(config), createFakeContext({ config }) as PluginContext),
      }),
    );
    expect(contexts).toEqual([{}]);
  });

  test("configFor returning false disables the plugin without creating it", async () => {
    let created = false;
    const plugin = tool("off", { create: () => ((created = true), {}) });
    const registry = await loadPlugins(options({ builtins: [plugin], configFor: () => false }));
    expect(registry.diagnostics()[0]).toMatchObject({ reason: "disabled in the plugin configuration", status: "disabled" });
    expect(created).toBe(false);
    expect(registry.counts().disabled).toBe(1);
  });

  test("an instance missing members of its kind fails and names them", async () => {
    const registry = await loadPlugins(options({ builtins: [tool("hollow", { create: () => ({ compute: () => 1 }) })] }));
    expect(registry.diagnostics()[0]?.reason).toBe("create() failed: returned an instance without catalog, inputSchema, outputSchema");
    expect(registry.get("calculation-tool", "hollow")).toBeUndefined();
  });

  test("a context that cannot be built fails only that plugin", async () => {
    const registry = await loadPlugins(
      options({
        builtins: [tool("a"), tool("b")],
        createContext: (manifest, config) => {
          if (manifest.id === "a") throw new Error("no context for a");
          return createFakeContext({ config }) as PluginContext;
        },
      }),
    );
    expect(registry.diagnostics().map((d) => [d.id, d.status, d.reason])).toEqual([
      ["a", "failed", "create() failed: no context for a"],
      ["b", "loaded", null],
    ]);
  });

  test("built-in values that are not plugins, even hostile ones, fail without stopping the others", async () => {
    const hostile = Object.defineProperty({}, "$$type", { get: () => { throw new Error("gotcha"); } });
    const registry = await loadPlugins(options({ builtins: [null, hostile, tool("fine")] }));
    expect(registry.diagnostics().map((d) => d.status)).toEqual(["failed", "failed", "loaded"]);
  });

  test("a missing PLUGINS_DIR is logged and boot continues with the built-ins", async () => {
    const warnings: string[] = [];
    const logger = { ...silent, warn: (message: string) => void warnings.push(message) };
    const registry = await loadPlugins(options({ builtins: [tool("fine")], logger, pluginsDir: "/nonexistent/pt-plugins" }));
    expect(registry.counts()).toMatchObject({ loaded: 1, total: 1 });
    expect(warnings).toContain("plugins folder cannot be read; no external plugins loaded");
  });

  test("failed and incompatible plugins are logged as warnings, loaded ones as info", async () => {
    const lines: string[] = [];
    const logger = { ...silent, info: (m: string) => void lines.push(`info ${m}`), warn: (m: string) => void lines.push(`warn ${m}`) };
    await loadPlugins(options({ builtins: [tool("fine"), {}], logger }));
    expect(lines).toEqual(["info plugin loaded", "warn plugin failed"]);
  });
});
