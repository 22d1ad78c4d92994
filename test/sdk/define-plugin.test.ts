import { describe, expect, test } from "bun:test";
import {
  definePlugin,
  type FxProvider,
  isPlugin,
  missingMembers,
  PLUGIN_BRAND,
  type PluginSpec,
  SDK_API_VERSION,
  z,
} from "../../sdk/index.ts";

const fx = (): FxProvider => ({ baseCurrencies: [], getRates: async () => [], targetCurrencies: [] });
const spec = (overrides: Record<string, unknown> = {}) =>
  ({
    create: fx,
    description: "Rates from a test bank",
    id: "test-bank",
    kind: "fx-provider",
    name: "Test bank",
    version: "1.0.0",
    ...overrides,
  }) as PluginSpec<"fx-provider", Readonly<Record<string, never>>>;

describe("definePlugin validates eagerly", () => {
  test("an id outside the id pattern is rejected with the field named", () => {
    for (const id of ["Test", "-x", "a--b", "a.b", "1abc", "a".repeat(65)]) {
      expect(() => definePlugin(spec({ id }))).toThrow(/invalid manifest: id:/);
    }
  });

  test("ids made of lower-case words joined by - or _ are accepted", () => {
    for (const id of ["ecb", "yahoo-finance", "calc_xirr", "a1-b2_c3"]) expect(definePlugin(spec({ id })).manifest.id).toBe(id);
  });

  test("an unknown kind is rejected", () => {
    expect(() => definePlugin(spec({ kind: "price-oracle" }))).toThrow(/kind:/);
  });

  test("a version that is not semver is rejected", () => {
    expect(() => definePlugin(spec({ version: "1.0" }))).toThrow(/version: must be a semantic version/);
    expect(definePlugin(spec({ version: "2.0.0-beta.1+build.5" })).manifest.version).toBe("2.0.0-beta.1+build.5");
  });

  test("empty name and description are rejected", () => {
    expect(() => definePlugin(spec({ description: " ", name: "" }))).toThrow(/description:.*name:/);
  });

  test("assetsUrl must be a file: URL", () => {
    expect(() => definePlugin(spec({ assetsUrl: "https://cdn.example.com/icons/" }))).toThrow(/assetsUrl: must be a file: URL/);
    expect(definePlugin(spec({ assetsUrl: "file:///opt/plugin/assets/" })).manifest.assetsUrl).toBe("file:///opt/plugin/assets/");
  });

  test("configSchema must be a zod schema", () => {
    expect(() => definePlugin(spec({ configSchema: { baseUrl: "string" } }))).toThrow(/configSchema: must be a zod schema/);
  });

  test("a missing create function is rejected", () => {
    expect(() => definePlugin(spec({ create: undefined }))).toThrow('definePlugin "test-bank": create must be a function');
  });
});

describe("definePlugin output", () => {
  test("the plugin is frozen, branded and stamped with the SDK API version", () => {
    const plugin = definePlugin(spec());
    expect(plugin.$$type).toBe(PLUGIN_BRAND);
    expect(PLUGIN_BRAND).toBe("@portfolio-tracker/plugin");
    expect(plugin.apiVersion).toBe(SDK_API_VERSION);
    expect(plugin.manifest.apiVersion).toBe(SDK_API_VERSION);
    expect(Object.isFrozen(plugin) && Object.isFrozen(plugin.manifest)).toBe(true);
  });

  test("the manifest keeps only manifest fields", () => {
    const plugin = definePlugin(spec({ extra: "dropped" }));
    expect(Object.keys(plugin.manifest).sort()).toEqual(["apiVersion", "description", "id", "kind", "name", "version"]);
  });

  test("create passes the context through and returns the kind's instance", async () => {
    const configSchema = z.object({ baseUrl: z.string() });
    const plugin = definePlugin({ ...spec(), configSchema, create: (ctx) => ({ ...fx(), baseCurrencies: [ctx.config.baseUrl as never] }) });
    const instance = await plugin.create({ config: { baseUrl: "EUR" } } as never);
    expect(instance.baseCurrencies).toEqual(["EUR"] as never);
  });
});

describe("brand and members", () => {
  test("isPlugin accepts only values with the brand and a create function, and never throws", () => {
    expect(isPlugin(definePlugin(spec()))).toBe(true);
    expect(isPlugin({ $$type: PLUGIN_BRAND, create: () => ({}) })).toBe(true);
    expect(isPlugin({ $$type: PLUGIN_BRAND })).toBe(false);
    expect(isPlugin({ create: () => ({}), manifest: {} })).toBe(false);
    for (const value of [null, undefined, 1, "plugin", []]) expect(isPlugin(value)).toBe(false);
    const hostile = Object.defineProperty({}, "$$type", { get: () => { throw new Error("boom"); } });
    expect(isPlugin(hostile)).toBe(false);
  });

  test("missingMembers names the required members an instance lacks, methods must be functions", () => {
    expect(missingMembers("fx-provider", {})).toEqual(["baseCurrencies", "getRates", "targetCurrencies"]);
    expect(missingMembers("fx-provider", { ...fx(), getRates: "nope" })).toEqual(["getRates"]);
    expect(missingMembers("fx-provider", fx())).toEqual([]);
    expect(missingMembers("quote-provider", { getHistory() {}, getQuotes() {}, search() {} })).toEqual([]);
    expect(missingMembers("import-plugin", null)).toEqual(["accepts", "parse"]);
  });
});

test("the kind decides the instance type at compile time (checked by tsc)", () => {
  const wrongInstance = definePlugin({
    ...spec(),
    // @ts-expect-error an fx-provider instance must have getRates and the currency lists
    create: () => ({ search: async () => [] }),
  });
  const wrongConfigUse = definePlugin({
    ...spec(),
    configSchema: z.object({ retries: z.number() }),
    // @ts-expect-error config is typed by configSchema: retries is a number
    create: (ctx) => ({ ...fx(), baseCurrencies: ctx.config.retries.toUpperCase() }),
  });
  // Validation is eager but create() runs only in the host, so both still define fine at runtime.
  expect([isPlugin(wrongInstance), isPlugin(wrongConfigUse)]).toEqual([true, true]);
});
