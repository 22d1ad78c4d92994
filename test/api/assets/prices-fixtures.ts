import type { QuotesUpstream } from "../../fakes/quotes-upstream.ts";
import { ApiClient } from "../../helpers/client.ts";
import { startServerWithFakeQuotes } from "../../helpers/fake-quotes-server.ts";
import type { TestServer } from "../../helpers/server.ts";
import { execDb, queryRows } from "../../helpers/test-db.ts";

/**
 * Assets and provider assignments are seeded with SQL (the asset API is written in parallel and
 * these tests must not depend on it); everything under test goes through the real HTTP API.
 */
export interface PricesEnv {
  /** Logged in as the first account, a superuser (cache clears need it). */
  c: ApiClient;
  server: TestServer;
  upstream: QuotesUpstream;
  stop(): Promise<void>;
}

export async function startPricesEnv(timeoutMs = 300): Promise<PricesEnv> {
  const { server, upstream } = await startServerWithFakeQuotes({ timeoutMs });
  const c = new ApiClient(server.base);
  await c.signUp("prices-admin");
  return { c, server, upstream, stop: async () => { upstream.stop(); await server.stop(true); } };
}

let seq = 0;

/** An asset, with an assignment to `provider` (default the fake) when `symbol` is given. */
export function seedPricedAsset(dataDir: string, opts: { currency?: string; provider?: string; symbol?: string } = {}) {
  const [{ id }] = queryRows<{ id: number }>(dataDir, `INSERT INTO assets (name, currency) VALUES (?, ?) RETURNING id`,
    [`Priced asset ${++seq}`, opts.currency ?? "EUR"]) as [{ id: number }];
  if (opts.symbol === undefined) return { assetId: id, assignmentId: null };
  const [row] = queryRows<{ id: number }>(dataDir, `INSERT INTO asset_provider_assignments (asset_id, provider_code, identifier, identifier_type)
      VALUES (?, ?, ?, 'TICKER') RETURNING id`, [id, opts.provider ?? "fakequotes", opts.symbol]);
  return { assetId: id, assignmentId: row!.id };
}

export interface SeedPrice {
  close: string;
  date: string;
  high?: string | null;
  low?: string | null;
  open?: string | null;
  source?: string;
}

export function seedPrices(dataDir: string, assetId: number, rows: SeedPrice[], currency = "EUR"): void {
  const sql = `INSERT INTO price_history (asset_id, date, open, high, low, close, currency, source_plugin_key)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?)`;
  execDb(dataDir, rows.map((r) => ({ sql, params: [assetId, r.date, r.open ?? null, r.high ?? null, r.low ?? null, r.close, currency, r.source ?? "manual"] })));
}

export const todayUtc = () => new Date().toISOString().slice(0, 10);
export const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);

/** POST /assets/prices/current, 200 expected; returns the body. */
export async function currentPrices(c: ApiClient, ids: unknown): Promise<{ results: any[]; success_count: number; errors: string[] }> {
  const res = await c.post("/assets/prices/current", ids);
  if (res.status !== 200) throw new Error(`current prices: ${res.status} ${await res.text()}`);
  return res.json();
}

export async function postJson(c: ApiClient, path: string, body: unknown, status = 200): Promise<any> {
  const res = await c.post(path, body);
  const text = await res.text();
  if (res.status !== status) throw new Error(`${path}: expected ${status}, got ${res.status} ${text}`);
  return JSON.parse(text);
}

/** Clears one named cache (the test account is a superuser). */
export async function clearCache(c: ApiClient, name: string): Promise<void> {
  await postJson(c, `/settings/cache/clear/${name}`, undefined);
}
