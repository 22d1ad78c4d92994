/**
 * Price benchmark: starts the real server with the test-only `fakequotes` provider, whose local
 * fake upstream answers every quote after 100 ms, and times
 *   1. POST /assets/prices/current for 200 assets, cold (target < 5 s; 5 calls at a time) and
 *      warm from the 2-minute cache (target < 50 ms, median);
 *   2. storing 10 years of daily prices for 100 assets through POST /assets/prices (target < 3 s);
 *   3. querying one asset's 10 years through POST /assets/prices/query (target < 30 ms, median).
 * Assets and assignments are inserted straight into SQLite (the asset API is not under test here).
 *
 *   bun bench/prices.ts            # BENCH_RUNS=15 by default
 */
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { startServerWithFakeQuotes } from "../test/helpers/fake-quotes-server.ts";

const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const CURRENT_ASSETS = 200;
const STORED_ASSETS = 100;
const YEARS = 10;
const ASSETS_PER_REQUEST = 10;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const today = new Date().toISOString().slice(0, 10);

function seedAssets(dataDir: string, n: number, prefix: string, withProvider: boolean): number[] {
  const db = new Database(join(dataDir, "portfolio.sqlite"));
  db.exec("PRAGMA busy_timeout = 5000");
  const ids = db.transaction(() => Array.from({ length: n }, (_, i) => {
    const { id } = db.query("INSERT INTO assets (name, currency) VALUES (?, 'EUR') RETURNING id").get(`${prefix} ${i}`) as { id: number };
    if (withProvider) {
      db.query(`INSERT INTO asset_provider_assignments (asset_id, provider_code, identifier, identifier_type)
        VALUES (?, 'fakequotes', ?, 'TICKER')`).run(id, `${prefix}${i}`);
    }
    return id;
  }))();
  db.close();
  return ids;
}

function dailyPrices(years: number) {
  const start = Date.UTC(2015, 0, 1);
  return Array.from({ length: years * 365 }, (_, d) => {
    const cents = 10_000 + ((d * 37) % 5_000);
    const close = `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
    return { date: new Date(start + d * 86_400_000).toISOString().slice(0, 10), open: close, high: close, low: close, close, volume: "1000" };
  });
}

async function time<T>(work: () => Promise<T>): Promise<[number, T]> {
  const t0 = performance.now();
  const out = await work();
  return [performance.now() - t0, out];
}

const { server, upstream } = await startServerWithFakeQuotes();
try {
  const json = { "content-type": "application/json" };
  await fetch(`${server.base}/auth/register`, { method: "POST", headers: json, body: JSON.stringify({ username: "bench", email: "bench@example.com", password: "Bench-pass1" }) });
  const login = await fetch(`${server.base}/auth/login`, { method: "POST", headers: json, body: JSON.stringify({ username: "bench", password: "Bench-pass1" }) });
  const headers = { ...json, cookie: login.headers.getSetCookie()[0]!.split(";")[0]! };
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${server.base}${path}`, { method: "POST", headers, body: typeof body === "string" ? body : JSON.stringify(body) });
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<any>;
  };
  console.log(`bun ${Bun.version}, ${navigator.hardwareConcurrency} cores, server, fake upstream and client on the same machine`);

  const quoted = seedAssets(server.dataDir, CURRENT_ASSETS, "Q", true);
  quoted.forEach((_, i) => upstream.quotes.set(`Q${i}`, { price: `${100 + i}.25`, date: today, currency: "EUR" }));
  upstream.delayMs = 100;
  const [coldMs, cold] = await time(() => post("/assets/prices/current", quoted));
  if (cold.success_count !== CURRENT_ASSETS) throw new Error(`cold: only ${cold.success_count} values`);
  console.log(`current prices, ${CURRENT_ASSETS} assets, cold (provider 100 ms, 5 at a time): ${coldMs.toFixed(0)} ms  (target < 5000 ms; max in flight ${upstream.maxInFlight})`);
  const warm: number[] = [];
  for (let i = 0; i < RUNS; i++) warm.push((await time(() => post("/assets/prices/current", quoted)))[0]);
  console.log(`current prices, ${CURRENT_ASSETS} assets, warm from the 2-minute cache:           ${median(warm).toFixed(1)} ms median  (target < 50 ms)`);

  const stored = seedAssets(server.dataDir, STORED_ASSETS, "H", false);
  const series = dailyPrices(YEARS);
  // Bodies are serialised before timing: the figure is the server's (parse, check, store, answer).
  const bodies = Array.from({ length: stored.length / ASSETS_PER_REQUEST }, (_, k) =>
    JSON.stringify(stored.slice(k * ASSETS_PER_REQUEST, (k + 1) * ASSETS_PER_REQUEST).map((asset_id) => ({ asset_id, prices: series }))));
  let storeMs = 0;
  for (const body of bodies) {
    const [ms, out] = await time(() => post("/assets/prices", body));
    if (out.inserted_count !== ASSETS_PER_REQUEST * series.length) throw new Error(`stored ${out.inserted_count}`);
    storeMs += ms;
  }
  console.log(`store ${YEARS} years of daily prices for ${STORED_ASSETS} assets (${(STORED_ASSETS * series.length).toLocaleString("en")} rows, ${STORED_ASSETS / ASSETS_PER_REQUEST} requests): ${storeMs.toFixed(0)} ms  (target < 3000 ms)`);

  const queryBody = [{ asset_id: stored[0], date_range: { start: "2015-01-01", end: "2024-12-31" }, include_events: true }];
  const queries: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const [ms, out] = await time(() => post("/assets/prices/query", queryBody));
    if (out.items[0].prices.length !== series.length) throw new Error(`query returned ${out.items[0].prices.length} rows`);
    queries.push(ms);
  }
  console.log(`query one asset's ${YEARS} years (${series.length} rows, events included):             ${median(queries).toFixed(1)} ms median  (target < 30 ms)`);
} finally {
  upstream.stop();
  await server.stop(true);
}
