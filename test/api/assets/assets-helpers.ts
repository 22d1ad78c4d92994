import { expect } from "bun:test";
import { runDb } from "../../helpers/test-db.ts";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startQuotesUpstream, type QuotesUpstream } from "../../fakes/quotes-upstream.ts";
import type { ApiClient } from "../../helpers/client.ts";
import { startServer, type TestServer } from "../../helpers/server.ts";
import { OFFLINE_PLUGIN_CONFIG } from "../../helpers/offline-plugins.ts";

/**
 * A visible test parametric provider (`fakeschedule`): parameters only, no generation, so tests
 * can move assets between provider kinds and change parametric parameters.
 */
const FAKE_SCHEDULE = `import { definePlugin, z } from "@portfolio-tracker/sdk";
const Params = z.object({
  initial_value: z.string().regex(/^\\d+(\\.\\d+)?$/).describe("Value on the first day"),
  day_count: z.enum(["ACT/365", "ACT/360"]).default("ACT/365"),
  note: z.string().optional(),
}).strict();
export default definePlugin({
  description: "Test parametric provider", id: "fakeschedule", kind: "scheduled-investment-provider",
  name: "Fake schedule", version: "1.0.0",
  create: () => ({ paramsSchema: Params, generateEvents: () => [], generatePrices: () => [] }),
});
`;

/** A visible test quote provider (`slowquotes`) whose search waits `delayMs` and fails for "boom". */
const SLOW_QUOTES = `import { definePlugin, failure, PluginError, z } from "@portfolio-tracker/sdk";
export default definePlugin({
  configSchema: z.object({ delayMs: z.number().int().default(0) }),
  description: "Test quote provider with a slow search", id: "slowquotes", kind: "quote-provider",
  name: "Slow quotes", version: "1.0.0",
  create: (ctx) => ({
    identifierType: "ISIN",
    async search({ query }) {
      await new Promise((r) => setTimeout(r, ctx.config.delayMs));
      if (query === "boom") throw new PluginError("unavailable", "slow upstream is down");
      return [{ identifier: "IE00B4L5Y983", name: "Slow " + query, currency: "EUR" }];
    },
    async getQuotes({ identifiers }) { return identifiers.map(() => failure(new PluginError("not-found", "no quotes"))); },
    async getHistory() { return []; },
  }),
});
`;

/**
 * The real server with three test providers: the hidden `fakequotes` (local fake upstream),
 * the visible parametric `fakeschedule`, and the visible `slowquotes`.
 */
export async function startAssetsServer(opts: { slowSearchMs?: number } = {}): Promise<{ server: TestServer; upstream: QuotesUpstream }> {
  const upstream = startQuotesUpstream();
  const dir = mkdtempSync(join(tmpdir(), "pt-assets-"));
  const plugins = join(dir, "plugins");
  cpSync(join(import.meta.dir, "../../fixtures/plugins/fake-quotes"), join(plugins, "fake-quotes"), { recursive: true });
  for (const [name, source] of [["fake-schedule", FAKE_SCHEDULE], ["slow-quotes", SLOW_QUOTES]] as const) {
    mkdirSync(join(plugins, name), { recursive: true });
    writeFileSync(join(plugins, name, "index.ts"), source);
  }
  const configFile = join(dir, "plugins.json");
  writeFileSync(configFile, JSON.stringify({
    ...OFFLINE_PLUGIN_CONFIG, fakequotes: { baseUrl: upstream.url }, slowquotes: { delayMs: opts.slowSearchMs ?? 0 },
  }));
  const started = await startServer({ allowOutbound: [new URL(upstream.url).host], env: { PLUGINS_DIR: plugins, PLUGINS_CONFIG: configFile } });
  const server: TestServer = {
    ...started,
    async stop(cleanup = false) {
      await started.stop(cleanup);
      if (cleanup) rmSync(dir, { recursive: true, force: true });
    },
  };
  return { server, upstream };
}

/** Creates assets (201 expected, every item created) and returns their ids. */
export async function createAssets(c: ApiClient, items: Record<string, unknown>[]): Promise<number[]> {
  const res = await c.post("/assets", items);
  expect(res.status).toBe(201);
  const body = await res.json();
  expect(body.results.map((r: any) => r.success)).toEqual(items.map(() => true));
  return body.results.map((r: any) => r.asset_id);
}

let counter = 0;
/** A name no other test of the file uses. */
export const uniqueName = (prefix = "Asset") => `${prefix} ${++counter}-${Math.random().toString(36).slice(2, 8)}`;

/** Creates one asset and returns its id. */
export async function createAsset(c: ApiClient, fields: Record<string, unknown> = {}): Promise<number> {
  const [id] = await createAssets(c, [{ name: uniqueName(), currency: "EUR", ...fields }]);
  return id!;
}

/** Runs one write statement against the server's database (for rows no route of this area writes). */
export function execDb(dataDir: string, sql: string, ...params: (string | number | null)[]): number {
  return runDb(dataDir, sql, params);
}

/** Seeds one price row; `assignmentId` marks it as written by that provider assignment. */
export function seedPrice(dataDir: string, p: { assetId: number; date: string; close: string; currency?: string; assignmentId?: number | null }): void {
  execDb(dataDir, `INSERT INTO price_history (asset_id, date, close, currency, source_plugin_key, provider_assignment_id) VALUES (?, ?, ?, ?, ?, ?)`,
    p.assetId, p.date, p.close, p.currency ?? "EUR", p.assignmentId ? "provider" : "manual", p.assignmentId ?? null);
}
