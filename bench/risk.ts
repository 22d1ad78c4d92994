/**
 * Risk benchmark on the portfolio benchmark's data set (bench/portfolio-dataset.ts: 5 brokers,
 * 50 assets with 10 years of daily prices in EUR/USD/GBP, daily FX, N = 20,000 transactions),
 * seeded through the API of a real server (as `npm start` runs it). Measures:
 *   - a portfolio query (current composition, EUR, 10 years) with historical_kpi + historical_var +
 *     drawdown_summary + correlation (50 × 50) + risk_contribution: the first after start (once the
 *     server's background risk warm-up, docs/risk.md "Performance", has finished), then cold
 *     (caches cleared) median of 3, and once more after the pool's threads ended idle (32 s);
 *   - a 10,000-path × 252-day simulation, bootstrap and GBM (risk_simulation cleared before each);
 *   - a 50-asset max-Sharpe optimisation on the asset set of all 50 assets (risk_optimization cleared);
 *   - GET /system/health every 25 ms from another process (bench/health-probe.ts) while the risk
 *     queries run (max, p95, polls over the target), and for 3 s of an idle server first (baseline:
 *     on a loaded machine its slowest answer is the scheduler's share, not the server's work).
 * Targets (docs/risk.md "Performance"): query < 1 s cold, simulation < 2 s, optimisation < 1 s, health max < 20 ms.
 *
 *   bun bench/risk.ts
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildLedger, buildMarketData, END, type Post, seedDataset, START } from "./portfolio-dataset.ts";
import { startBenchServer } from "./server.ts";
import { now, startHealthProbe } from "./health-probe.ts";

const N = 20_000;
const IDLE_MS = 32_000;
const TARGETS = { queryMs: 1_000, simulationMs: 2_000, optimizationMs: 1_000, healthMs: 20 };

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? 0;
};

async function session(base: string) {
  const json = { "content-type": "application/json" };
  await fetch(`${base}/auth/register`, { method: "POST", headers: json, body: JSON.stringify({ username: "bench", email: "bench@example.com", password: "Bench-pass1" }) });
  const login = await fetch(`${base}/auth/login`, { method: "POST", headers: json, body: JSON.stringify({ username: "bench", password: "Bench-pass1" }) });
  const headers = { ...json, cookie: login.headers.getSetCookie()[0]!.split(";")[0]! };
  const post: Post = async (path, body, expect = 200) => {
    const res = await fetch(`${base}${path}`, { method: "POST", headers, body: JSON.stringify(body) });
    if (res.status !== expect) throw new Error(`POST ${path}: ${res.status} ${(await res.text()).slice(0, 2000)}`);
    return res.json();
  };
  return { post };
}

async function main() {
  const market = buildMarketData();
  const ledger = buildLedger(market, N);
  const dataDir = mkdtempSync(join(tmpdir(), "pt-bench-risk-"));
  let warmed: ((fields: Record<string, unknown>) => void) | undefined;
  const warmUp = new Promise<Record<string, unknown>>((resolve) => { warmed = resolve; });
  const { child, base } = await startBenchServer(dataDir, (line) => {
    if (line.includes('"risk workers warmed"') || line.includes('"risk worker warm-up failed"')) warmed!(JSON.parse(line));
  });
  try {
    const { post } = await session(base);
    const seed = await seedDataset(post, market, ledger);
    console.log(`risk bench: N = ${N.toLocaleString("en")} transactions, 50 assets × 10 years seeded in ${(seed.ms.total / 1000).toFixed(1)} s`);
    // The server warms its pool threads for risk in the background after start (docs/risk.md
    // "Performance"); a first query arriving meanwhile would wait behind it.
    const warm = await Promise.race([warmUp, Bun.sleep(30_000).then(() => null)]);
    console.log(`risk warm-up: ${warm ? `${warm.msg}, ${warm.ms ?? "?"} ms after listening (threads ${warm.threads ?? "?"})` : "no log line within 30 s (RISK_WARM_UP=0?)"}`);
    // GET /system/health timed from a process of its own (bench/health-probe.ts), the idle server first.
    const health = await startHealthProbe(base);
    const idle = health.windows[0]!;
    const busy: { from: number; to: number }[] = [{ from: now(), to: 0 }];
    const phases: { at: number; label: string }[] = [];
    const timed = async (body: Record<string, unknown>) => {
      phases.push({ at: now(), label: (body.analytics as { analytic_code: string; parameters?: { method?: string } }[]).map((a) => a.parameters?.method ?? a.analytic_code).join("+") });
      const t = performance.now();
      const out = await post("/risk/query", { date_range: { start: START, end: END }, target_currency: "EUR", ...body });
      const ms = performance.now() - t;
      const bad = out.items.filter((i: any) => i.status !== "ok" && i.status !== "partial");
      if (bad.length) throw new Error(`risk query: ${JSON.stringify(bad.map((i: any) => [i.instance_id, i.error]))}`);
      return { ms, out };
    };
    const current = { scope: { kind: "portfolio" }, mode: "current_composition", composition_policy: "current_buy_and_hold" };
    const five = {
      ...current,
      analytics: [
        { instance_id: "kpi", analytic_code: "historical_kpi" }, { instance_id: "var", analytic_code: "historical_var" },
        { instance_id: "dd", analytic_code: "drawdown_summary" }, { instance_id: "corr", analytic_code: "correlation" },
        { instance_id: "contrib", analytic_code: "risk_contribution" },
      ],
    };
    const first = await timed(five);
    const corr = first.out.items.find((i: any) => i.instance_id === "corr").output;
    const cold: number[] = [];
    for (let i = 0; i < 3; i++) {
      await post("/settings/cache/clear-all", {});
      cold.push((await timed(five)).ms);
    }
    const sims: Record<string, number> = {};
    for (const method of ["bootstrap", "gbm"]) {
      await post("/settings/cache/clear-all", {});
      sims[method] = (await timed({ ...current, analytics: [{ instance_id: "sim", analytic_code: "simulation", parameters: { method, paths: 10_000, horizon_days: 252, seed: 1 } }] })).ms;
    }
    const opt: number[] = [];
    for (let i = 0; i < 3; i++) {
      await post("/settings/cache/clear-all", {});
      opt.push((await timed({
        scope: { kind: "asset_set", asset_ids: seed.assetIds }, mode: "historical",
        analytics: [{ instance_id: "opt", analytic_code: "portfolio_optimization", parameters: { objective: "max_sharpe", max_weight: 0.2 } }],
      })).ms);
    }
    // A query after a pause: the pool keeps its threads 5 minutes after their last task (host/workers/pool.ts).
    busy[0]!.to = now();
    await Bun.sleep(IDLE_MS);
    busy.push({ from: now(), to: 0 });
    await post("/settings/cache/clear-all", {});
    const afterIdle = (await timed(five)).ms;
    busy[1]!.to = now();
    const samples = await health.stop();
    const during = samples.filter((x) => busy.some((w) => x.at >= w.from && x.at <= w.to)).map((x) => x.ms);
    const baseline = samples.filter((x) => x.at >= idle.from && x.at <= idle.to).map((x) => x.ms);
    const rows: [string, number, number][] = [
      [`query kpi+var+drawdown+correlation ${corr.labels.length}×${corr.labels.length}+contribution, first after start`, first.ms, TARGETS.queryMs],
      ["same query, cold (median of 3)", median(cold), TARGETS.queryMs],
      [`same query, cold, after ${IDLE_MS / 1000} s idle (threads kept 5 min)`, afterIdle, TARGETS.queryMs],
      ["simulation 10,000 × 252, bootstrap", sims.bootstrap!, TARGETS.simulationMs],
      ["simulation 10,000 × 252, GBM", sims.gbm!, TARGETS.simulationMs],
      ["max-Sharpe optimisation, 50 assets (median of 3)", median(opt), TARGETS.optimizationMs],
      [`/system/health max over ${during.length} polls during the queries (p95 ${percentile(during, 95).toFixed(1)} ms, ${during.filter((l) => l >= TARGETS.healthMs).length} ≥ ${TARGETS.healthMs} ms)`, Math.max(...during), TARGETS.healthMs],
      [`/system/health max over ${baseline.length} polls of the idle server first (baseline, no target)`, Math.max(...baseline), TARGETS.healthMs],
    ];
    const slowest = samples.filter((x) => busy.some((w) => x.at >= w.from && x.at <= w.to)).sort((a, b) => b.ms - a.ms).slice(0, 5);
    console.log(`  slowest health polls: ${slowest.map((x) => {
      const phase = phases.filter((p) => p.at <= x.at).at(-1);
      return `${x.ms.toFixed(0)} ms (${phase ? `${phase.label} +${(x.at - phase.at).toFixed(0)} ms` : "?"})`;
    }).join(", ")}`);
    for (const [name, ms, target] of rows) {
      console.log(`  ${name.padEnd(86)} ${ms.toFixed(1).padStart(9)} ms   target < ${String(target).padStart(5)} ms   ${ms < target ? "ok" : "MISSED"}`);
    }
  } finally {
    child.kill();
    await child.exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
