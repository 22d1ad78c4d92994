import { execDb } from "./test-db.ts";
import { cpSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FxUpstream, startFxUpstream } from "../fakes/fx-upstream.ts";
import { OFFLINE_PLUGIN_CONFIG } from "./offline-plugins.ts";
import { startServer, type TestServer } from "./server.ts";

/**
 * The real server with the test-only `fakefx` (EUR → USD, GBP, CHF) and `fakefx2` (USD → JPY)
 * providers loaded from a temporary PLUGINS_DIR and pointed (PLUGINS_CONFIG) at one local fake upstream.
 */
export async function startServerWithFakeFx(): Promise<{ server: TestServer; upstream: FxUpstream }> {
  const upstream = startFxUpstream();
  const dir = mkdtempSync(join(tmpdir(), "pt-fakefx-"));
  for (const name of ["fake-fx", "fake-fx2"]) {
    cpSync(join(import.meta.dir, "../fixtures/plugins", name), join(dir, "plugins", name), { recursive: true });
  }
  const configFile = join(dir, "plugins.json");
  writeFileSync(configFile, JSON.stringify({ ...OFFLINE_PLUGIN_CONFIG, fakefx: { baseUrl: upstream.url }, fakefx2: { baseUrl: upstream.url } }));
  const server = await startServer({ allowOutbound: [new URL(upstream.url).host], env: { PLUGINS_DIR: join(dir, "plugins"), PLUGINS_CONFIG: configFile } });
  return { server, upstream };
}

/** Inserts a route row directly (the routes API is another area): steps run base→quote, base < quote. */
export function seedFxRoute(dataDir: string, route: { base: string; quote: string; priority: number; steps: { from: string; to: string; provider: string }[] }): void {
  execDb(dataDir, [{ sql: `INSERT INTO fx_routes (base, quote, priority, chain_steps) VALUES (?, ?, ?, ?)`,
    params: [route.base, route.quote, route.priority, JSON.stringify(route.steps)] }]);
}

/** Inserts rate rows directly (alphabetical pair). */
export function seedFxRates(dataDir: string, rows: { base: string; quote: string; provider: string; date: string; rate: string }[]): void {
  const sql = `INSERT INTO fx_rates (base, quote, provider, date, rate, source) VALUES (?, ?, ?, ?, ?, 'seed')`;
  execDb(dataDir, rows.map((r) => ({ sql, params: [r.base, r.quote, r.provider, r.date, r.rate] })));
}
