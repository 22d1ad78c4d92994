/**
 * Ledger benchmark: starts the real server (as `npm start` would, default log level) and
 *   1. commits ONE batch of 5,000 BUY/SELL creates into a broker without overdraft or shorting,
 *      so the balance walk over every row is part of the timing;
 *   2. seeds the ledger to 50,000 transactions through the API (POST /transactions/commit in
 *      batches of 5,000, 10 brokers × 10 assets), each batch timed too;
 *   3. times filtered `GET /transactions` pages of 1,000 rows (median of several runs).
 * Assets are inserted straight into SQLite (there is no asset API yet).
 *
 *   bun bench/transactions.ts            # BENCH_RUNS=15 by default
 */
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startBenchServer } from "./server.ts";

const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const BATCH = 5_000;
const TOTAL = 50_000;
const BROKERS = 10;
const ASSETS = 10;


function seedAssets(dataDir: string): number[] {
  const db = new Database(join(dataDir, "portfolio.sqlite"));
  db.exec("PRAGMA busy_timeout = 5000");
  const ids = Array.from({ length: ASSETS }, (_, i) =>
    (db.query("INSERT INTO assets (name, currency) VALUES (?, 'EUR') RETURNING id").get(`Bench asset ${i}`) as { id: number }).id);
  db.close();
  return ids;
}

const day = (i: number) => new Date(Date.UTC(2015, 0, 1) + Math.floor(i / 4) * 86_400_000).toISOString().slice(0, 10);

/** BUY then SELL of the same asset, alternating, so holdings never go negative; cash never runs out. */
function trades(broker: number, assets: number[], n: number, offset: number) {
  return Array.from({ length: n }, (_, i) => {
    const asset = assets[(offset + i) % assets.length]!;
    const k = offset + i;
    const price = `${100 + (k % 50)}.${String(k % 100).padStart(2, "0")}`;
    return k % 2 === 0
      ? { broker_id: broker, asset_id: asset, type: "BUY", date: day(k), quantity: "2", cash: { code: "EUR", amount: `-${price}` }, tags: ["bench"] }
      : { broker_id: broker, asset_id: assets[(offset + i - 1) % assets.length]!, type: "SELL", date: day(k), quantity: "-1", cash: { code: "EUR", amount: price } };
  });
}

type Post = (path: string, body: unknown) => Promise<any>;

async function session(base: string) {
  const json = { "content-type": "application/json" };
  await fetch(`${base}/auth/register`, { method: "POST", headers: json, body: JSON.stringify({ username: "bench", email: "bench@example.com", password: "Bench-pass1" }) });
  const login = await fetch(`${base}/auth/login`, { method: "POST", headers: json, body: JSON.stringify({ username: "bench", password: "Bench-pass1" }) });
  const headers = { ...json, cookie: login.headers.getSetCookie()[0]!.split(";")[0]! };
  const post: Post = async (path, body) => {
    const res = await fetch(`${base}${path}`, { method: "POST", headers, body: JSON.stringify(body) });
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  return { headers, post };
}

async function commitOrThrow(post: Post, creates: unknown[]): Promise<number> {
  const t0 = performance.now();
  const out = await post("/transactions/commit", { creates });
  if (!out.committed) throw new Error(JSON.stringify(out.issues.slice(0, 3)));
  return performance.now() - t0;
}

/** Step 1 and 2: the timed 5,000-row batch, then seeding to 50,000 rows. */
async function writes(post: Post, brokers: number[], assets: number[]): Promise<void> {
  await commitOrThrow(post, trades(brokers[0]!, assets, 10, 0));
  const commitMs = await commitOrThrow(post, trades(brokers[0]!, assets, BATCH, 10));
  console.log(`commit 1 batch of ${BATCH} BUY/SELL creates (balance validation included): ${commitMs.toFixed(0)} ms  (target < 2000 ms)`);
  const validateMs = await time(() => post("/transactions/validate", { creates: trades(brokers[1]!, assets, BATCH, 0) }));
  console.log(`validate the same size of batch (dry run, rolled back):           ${validateMs.toFixed(0)} ms`);
  let count = BATCH + 10 + BROKERS;
  const seedTimes: number[] = [];
  for (let i = 1; count < TOTAL; i++) {
    const n = Math.min(BATCH, TOTAL - count);
    seedTimes.push(await commitOrThrow(post, trades(brokers[i % BROKERS]!, assets, n, 100_000 + i * BATCH)));
    count += n;
  }
  console.log(`seeded to ${count} transactions through the API in ${seedTimes.length} more batches: ${seedTimes.map((t) => t.toFixed(0)).join(", ")} ms`);
}

/** Step 3: filtered pages of 1,000, median and worst of RUNS after one warm-up each. */
async function reads(base: string, headers: Record<string, string>, brokers: number[], assets: number[]): Promise<void> {
  const get = async (query: string) => {
    const res = await fetch(`${base}/transactions?${query}`, { headers });
    if (res.status !== 200) throw new Error(`${query}: ${res.status}`);
    return ((await res.json()) as unknown[]).length;
  };
  const queries = [
    "limit=1000",
    "types=BUY&types=SELL&date_start=2016-01-01&date_end=2030-12-31&limit=1000",
    `broker_id=${brokers[3]}&asset_id=${assets[2]}&limit=1000`,
    "tags=bench&currency=EUR&limit=1000&offset=10000",
    "amount_abs_min=110&amount_abs_max=140.5&limit=1000",
    "only_unlinked=true&types=SELL&limit=1000&offset=20000",
  ];
  for (const q of queries) {
    const rows = await get(q);
    const times: number[] = [];
    for (let r = 0; r < RUNS; r++) times.push(await time(() => get(q)));
    times.sort((a, b) => a - b);
    console.log(`GET /transactions?${q.padEnd(72)} ${String(rows).padStart(5)} rows  median ${times[times.length >> 1]!.toFixed(1).padStart(6)} ms  max ${times.at(-1)!.toFixed(1).padStart(6)} ms  (target < 100 ms)`);
  }
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), "pt-bench-tx-"));
  const { child, base } = await startBenchServer(dataDir);
  try {
    const { headers, post } = await session(base);
    const brokers = (await post("/brokers", Array.from({ length: BROKERS }, (_, i) => ({
      name: `Bench ${i}`, opened_at: "2014-12-31", initial_balances: [{ code: "EUR", amount: "100000000" }],
    })))).results.map((r: { broker_id: number }) => r.broker_id) as number[];
    const assets = seedAssets(dataDir);
    console.log(`bun ${Bun.version}, ${navigator.hardwareConcurrency} cores; server and client on the same machine`);
    await writes(post, brokers, assets);
    await reads(base, headers, brokers, assets);
  } finally {
    child.kill();
    await child.exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function time(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

await main();
