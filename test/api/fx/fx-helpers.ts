import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { OFFLINE_PLUGIN_CONFIG } from "../../helpers/offline-plugins.ts";
import { startServer, type TestServer } from "../../helpers/server.ts";

/** A test-only FX provider that never fetches (route tests need only its currencies). */
const fxPlugin = (id: string, base: string[], targets: string[], hidden = false) => `import { definePlugin, failure, PluginError } from "@portfolio-tracker/sdk";
export default definePlugin({
  description: "Test FX provider ${id}", id: "${id}", kind: "fx-provider", name: "Test ${id}", version: "1.0.0",${hidden ? " hidden: true," : ""}
  create: () => ({
    baseCurrencies: ${JSON.stringify(base)},
    targetCurrencies: ${JSON.stringify(targets)},
    async getRates({ pairs }) { return pairs.map(() => failure(new PluginError("unavailable", "offline test provider"))); },
  }),
});
`;

/** `fxa` (EUR → USD, GBP), `fxb` (USD → JPY) and the hidden `fxtest` (CHF → EUR). */
const PLUGINS: [string, string][] = [
  ["fxa", fxPlugin("fxa", ["EUR"], ["USD", "GBP"])],
  ["fxb", fxPlugin("fxb", ["USD"], ["JPY"])],
  ["fxtest", fxPlugin("fxtest", ["CHF"], ["EUR"], true)],
];

/** The real server with the three test FX providers in a temporary PLUGINS_DIR. */
export async function startFxServer(): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), "pt-fx-"));
  const plugins = join(dir, "plugins");
  for (const [name, source] of PLUGINS) {
    mkdirSync(join(plugins, name), { recursive: true });
    writeFileSync(join(plugins, name, "index.ts"), source);
  }
  const configFile = join(dir, "plugins.json");
  // The built-in FX providers are switched off so route searches see the test providers alone.
  writeFileSync(configFile, JSON.stringify({ ...OFFLINE_PLUGIN_CONFIG, boe: false, ecb: false, fed: false, snb: false }));
  const started = await startServer({ env: { PLUGINS_DIR: plugins, PLUGINS_CONFIG: configFile } });
  return {
    ...started,
    async stop(cleanup = false) {
      await started.stop(cleanup);
      if (cleanup) rmSync(dir, { recursive: true, force: true });
    },
  };
}

export const step = (from: string, to: string, provider: string) => ({ from, to, provider });
export const manualRoute = (base: string, quote: string) => ({ base, quote, priority: 999, chain_steps: [step(base, quote, "MANUAL")] });
