/**
 * Calculation tools and AI export benchmark, through the real server on a fresh DATA_DIR:
 *   - a batch of 4 `pac_allocator` items over 30 positions each (whole units, random prices,
 *     holdings and weights, a budget of 10,000): median of 10 batches after one warm-up.
 *     Target < 500 ms.
 *   - a `full` snapshot of `portfolio.overview_and_history` of the 20,000-transaction benchmark
 *     portfolio (bench/portfolio-dataset.ts, 10 years in EUR): the first one after the caches were
 *     cleared (cold: report computed) and the median of 5 warm ones. Target < 1.5 s cold.
 *
 *   bun bench/tools.ts
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildLedger, buildMarketData, END, type Post, seedDataset, START } from "./portfolio-dataset.ts";
import { startBenchServer } from "./server.ts";

const N = 20_000;
const TARGETS = { pacBatchMs: 500, snapshotMs: 1_500 };
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pacParameters(seed: number) {
  const r = rng(seed);
  const raw = Array.from({ length: 30 }, () => 1 + Math.floor(r() * 9));
  const sum = raw.reduce((s, x) => s + x, 0);
  let left = 1_000_000;
  const weights = raw.map((x, i) => {
    const w = i === raw.length - 1 ? left : Math.floor((x / sum) * 1_000_000);
    left -= w;
    return (w / 1_000_000).toFixed(6);
  });
  return {
    budget: { code: "EUR", amount: "10000" },
    positions: raw.map((_, i) => ({ key: `P${i}`, price: (5 + r() * 400).toFixed(2), quantity: String(Math.floor(r() * 40)), target_weight: weights[i] })),
    whole_units: true,
  };
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), "pt-bench-tools-"));
  const { child, base } = await startBenchServer(dataDir);
  try {
    const json = { "content-type": "application/json" };
    await fetch(`${base}/auth/register`, { method: "POST", headers: json, body: JSON.stringify({ username: "bench", email: "bench@example.com", password: "Bench-pass1" }) });
    const login = await fetch(`${base}/auth/login`, { method: "POST", headers: json, body: JSON.stringify({ username: "bench", password: "Bench-pass1" }) });
    const headers = { ...json, cookie: login.headers.getSetCookie()[0]!.split(";")[0]! };
    const call = async (method: string, path: string, body?: unknown, expect = 200) => {
      const t0 = performance.now();
      const res = await fetch(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      const text = await res.text();
      if (res.status !== expect) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 500)}`);
      return { ms: performance.now() - t0, body: JSON.parse(text) };
    };
    const post: Post = async (path, body, expect = 200) => (await call("POST", path, body, expect)).body;

    const catalog = (await call("GET", "/tools/catalog")).body;
    const pac = catalog.items.find((i: { tool_code: string }) => i.tool_code === "pac_allocator");
    const batch = (round: number) => ({
      request_id: `bench-${round}`,
      items: [0, 1, 2, 3].map((k) => ({
        correlation_id: `i${k}`, tool_code: "pac_allocator", contract_version: pac.contract_version,
        implementation_version: pac.implementation_version, schema_fingerprint: pac.schema_fingerprint, parameters: pacParameters(round * 10 + k),
      })),
    });
    await call("POST", "/tools/compute", batch(0));
    const pacMs: number[] = [];
    for (let round = 1; round <= 10; round++) {
      const { ms, body } = await call("POST", "/tools/compute", batch(round));
      if (body.success_count !== 4) throw new Error(`pac batch: ${JSON.stringify(body.results.map((r: { error?: unknown }) => r.error))}`);
      pacMs.push(ms);
    }

    const market = buildMarketData();
    const seed = await seedDataset(post, market, buildLedger(market, N));
    const aiCatalog = (await call("GET", "/ai-export/catalog")).body;
    const dataset = aiCatalog.datasets.find((d: { id: string }) => d.id === "portfolio.overview_and_history");
    const snapshot = {
      domain: "portfolio", broker_ids: seed.brokerIds, selection: { kind: "dataset", id: dataset.id, version: dataset.version },
      detail_level: "full", period: { start: START, end: END }, target_currency: "EUR", expected_catalog_version: aiCatalog.catalog_version,
    };
    // The report alone, cold, for comparison: the snapshot's cold time is this plus its own work.
    await post("/settings/cache/clear-all", {});
    const report = await call("POST", "/portfolio/report", {
      broker_ids: seed.brokerIds, date_range: { start: START, end: END }, target_currency: "EUR",
      include_summary: true, include_history: true, include_allocation_history: false,
    });
    await post("/settings/cache/clear-all", {});
    const cold = await call("POST", "/ai-export/snapshot", snapshot);
    const warm: number[] = [];
    for (let i = 0; i < 5; i++) warm.push((await call("POST", "/ai-export/snapshot", snapshot)).ms);

    const pacMedian = median(pacMs);
    const lines = [
      `PAC batch of 4 × 30 positions: median ${pacMedian.toFixed(1)} ms (max ${Math.max(...pacMs).toFixed(1)} ms), target < ${TARGETS.pacBatchMs} ms ${pacMedian < TARGETS.pacBatchMs ? "OK" : "MISSED"}`,
      `AI-export full snapshot, ${N} transactions: cold ${cold.ms.toFixed(0)} ms (the report alone: ${report.ms.toFixed(0)} ms), warm median ${median(warm).toFixed(0)} ms, ${(JSON.stringify(cold.body).length / 1024).toFixed(0)} KiB, markdown ~${Math.ceil(cold.body.markdown.length / 4)} tokens; target cold < ${TARGETS.snapshotMs} ms ${cold.ms < TARGETS.snapshotMs ? "OK" : "MISSED"}`,
    ];
    console.log(lines.join("\n"));
  } finally {
    child.kill("SIGTERM");
    await child.exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
