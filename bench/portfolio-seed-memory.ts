/**
 * What a bulk seed leaves on the server: starts the real server on a fresh DATA_DIR, seeds the
 * dense data set of bench/portfolio.ts through the HTTP API while polling `GET /system/health`
 * every 10 ms (max and p95 during the seed), then prints the server's RSS right after the last
 * commit and 50 ms to 3 s later (no request in between). No report.
 *
 *   bun bench/portfolio-seed-memory.ts [N]      # default 20000
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BUSINESS_DAYS, buildDenseLedger } from "./portfolio-dense.ts";
import { buildMarketData, type Post, seedDataset } from "./portfolio-dataset.ts";
import { memMb, startBenchServer } from "./server.ts";

const n = Number(process.argv[2] ?? 20_000);
const loadAvg = () => Number(readFileSync("/proc/loadavg", "utf8").split(" ")[0]);

async function session(base: string) {
  const json = { "content-type": "application/json" };
  const reg = await fetch(`${base}/auth/register`, { method: "POST", headers: json, body: JSON.stringify({ username: "bench", email: "bench@example.com", password: "Bench-pass1" }) });
  if (reg.status !== 201) throw new Error(`register: ${reg.status}`);
  const login = await fetch(`${base}/auth/login`, { method: "POST", headers: json, body: JSON.stringify({ username: "bench", password: "Bench-pass1" }) });
  const headers = { ...json, cookie: login.headers.getSetCookie()[0]!.split(";")[0]! };
  const post: Post = async (path, body, expect = 200) => {
    const res = await fetch(`${base}${path}`, { method: "POST", headers, body: JSON.stringify(body) });
    if (res.status !== expect) throw new Error(`POST ${path}: ${res.status} ${(await res.text()).slice(0, 500)}`);
    return res.json();
  };
  return post;
}

const market = buildMarketData();
const ledger = buildDenseLedger(market, n);
const dataDir = mkdtempSync(join(tmpdir(), "pt-bench-seed-memory-"));
const { child, base } = await startBenchServer(dataDir);
try {
  const post = await session(base);
  const load0 = loadAvg();
  let polling = true;
  const latencies: number[] = [];
  const poller = (async () => {
    while (polling) {
      const t = performance.now();
      await (await fetch(`${base}/system/health`)).arrayBuffer();
      latencies.push(performance.now() - t);
      await Bun.sleep(10);
    }
  })();
  const seed = await seedDataset(post, market, ledger, BUSINESS_DAYS);
  const end = performance.now();
  const rss: [number, number][] = [[0, memMb(child.pid).rss]];
  polling = false;
  await poller;
  for (const at of [50, 100, 250, 500, 1_000, 2_000, 3_000]) {
    await Bun.sleep(Math.max(0, at - (performance.now() - end)));
    rss.push([at, memMb(child.pid).rss]);
  }
  const sorted = [...latencies].sort((a, b) => a - b);
  console.log(`N=${n}: seeded in ${(seed.ms.total / 1000).toFixed(1)} s (${seed.commitMs.length} commits: ${seed.commitMs.map((m) => Math.round(m)).join(", ")} ms); load ${load0} → ${loadAvg()}`);
  console.log(`health during the seed: ${latencies.length} polls, p95 ${sorted[Math.floor(sorted.length * 0.95)]!.toFixed(1)} ms, max ${sorted.at(-1)!.toFixed(1)} ms`);
  console.log(`RSS after the seed: ${rss.map(([t, mb]) => `${t} ms ${Math.round(mb)} MB`).join(", ")}; peak ${Math.round(memMb(child.pid).hwm)} MB`);
} finally {
  child.kill();
  await child.exited;
  rmSync(dataDir, { recursive: true, force: true });
}
