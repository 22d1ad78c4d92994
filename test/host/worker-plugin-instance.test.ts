import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { workerPluginInstance } from "../../host/plugins/instance.ts";

// The one in-worker plugin loader that every worker task uses (import parse, risk analytics,
// calculation tools): the same checks as the host's loader at start (brand, kind, id) and the
// plugin's configuration parsed by its schema, whatever the kind.

const dir = mkdtempSync(join(tmpdir(), "pt-worker-plugin-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const SDK = resolve(import.meta.dir, "../../sdk/index.ts");

function pluginFile(name: string, source: string): string {
  const path = join(dir, `${name}.ts`);
  writeFileSync(path, source);
  return path;
}

test("an importer from PLUGINS_DIR gets its configuration, parsed by its schema (defaults filled)", async () => {
  const path = pluginFile("configured-importer", `
import { definePlugin, z } from ${JSON.stringify(SDK)};
const Config = z.object({ delimiter: z.string().default(";"), strict: z.boolean().default(false) });
export default definePlugin({
  id: "configured_importer", kind: "import-plugin", name: "Configured", version: "1.0.0", description: "test", configSchema: Config,
  create: (ctx) => ({ parse: async () => ({ transactions: [], assets: [], config: ctx.config }) }) as never,
});`);
  const instance = await workerPluginInstance("import-plugin", { id: "configured_importer", path, config: { strict: true } }, { network: true });
  expect(await (instance as unknown as { parse(): Promise<{ config: unknown }> }).parse()).toMatchObject({ config: { delimiter: ";", strict: true } });
});

test("a risk tool file without the SDK's brand is refused, like at start-up", () => {
  const path = pluginFile("unbranded-risk", `
export default {
  manifest: { id: "unbranded", kind: "risk-tool", name: "Unbranded", version: "1.0.0" },
  create: () => ({ compute: () => ({}) }),
};`);
  expect(() => workerPluginInstance("risk-tool", { id: "unbranded", path })).toThrow("risk-tool 'unbranded' cannot be loaded in the worker pool");
});

test("a plugin of another kind or id under the asked name is refused", () => {
  expect(() => workerPluginInstance("risk-tool", { id: "broker_degiro", path: null })).toThrow("cannot be loaded");
  expect(() => workerPluginInstance("import-plugin", { id: "no_such_importer", path: null })).toThrow("cannot be loaded");
});

test("pure kinds get no network and one instance per thread", async () => {
  const path = pluginFile("network-probe", `
import { definePlugin } from ${JSON.stringify(SDK)};
let made = 0;
export default definePlugin({
  id: "network_probe", kind: "calculation-tool", name: "Probe", version: "1.0.0", description: "test",
  create: (ctx) => { made += 1; return { made, fetchIt: () => ctx.http.getJson("http://127.0.0.1:9/") } as never; },
});`);
  const first = await workerPluginInstance("calculation-tool", { id: "network_probe", path });
  const again = await workerPluginInstance("calculation-tool", { id: "network_probe", path });
  expect(again).toBe(first);
  expect((first as unknown as { made: number }).made).toBe(1);
  await expect((first as unknown as { fetchIt(): Promise<unknown> }).fetchIt()).rejects.toThrow("no network");
});
