/**
 * Backup benchmark (docs/backup.md "Performance"). Seeds the 20,000-transaction data set of
 * bench/portfolio-dataset.ts
 * (5 brokers, 50 assets with 10 years of daily prices, 10 years of EUR-USD and EUR-GBP manual
 * rates) into the real server through its API, then measures:
 *   - POST /backup/export (json, scope all, include_price_history): time to the last byte, and the
 *     server's RSS growth while streaming (peak RSS during the download minus RSS before it;
 *     VmHWM reset first where Linux allows, else RSS sampled every 10 ms);
 *   - POST /backup/restore of that file into a fresh server (upload not timed), and that the
 *     restored portfolio's report equals the source's.
 * Targets: export < 3 s with RSS growth < 50 MB; restore < 10 s.
 *
 *   bun bench/backup.ts              # N = 20,000
 *   bun bench/backup.ts --n=2000
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildLedger, buildMarketData, END, type Post, seedDataset, START } from "./portfolio-dataset.ts";
import { memMb, resetPeak, startBenchServer } from "./server.ts";

const N = Number(process.argv.find((a) => a.startsWith("--n="))?.slice(4) ?? 20_000);
const TARGETS = { exportMs: 3_000, rssGrowthMb: 50, restoreMs: 10_000 };



async function session(base: string, username: string) {
  const json = { "content-type": "application/json" };
  const reg = await fetch(`${base}/auth/register`, { method: "POST", headers: json, body: JSON.stringify({ username, email: `${username}@example.com`, password: "Bench-pass1" }) });
  if (reg.status !== 201) throw new Error(`register: ${reg.status} ${await reg.text()}`);
  const login = await fetch(`${base}/auth/login`, { method: "POST", headers: json, body: JSON.stringify({ username, password: "Bench-pass1" }) });
  const cookie = login.headers.getSetCookie()[0]!.split(";")[0]!;
  const call = async (method: string, path: string, body: unknown, expect = 200) => {
    const res = await fetch(`${base}${path}`, { method, headers: { ...json, cookie }, body: JSON.stringify(body) });
    if (res.status !== expect) throw new Error(`${method} ${path}: ${res.status} ${(await res.text()).slice(0, 2000)}`);
    return res.json();
  };
  const post: Post = (path, body, expect) => call("POST", path, body, expect);
  return { cookie, post, patch: (path: string, body: unknown) => call("PATCH", path, body) };
}

/** GET /system/health every 10 ms until stopped; the slowest answer tells how long the server was unresponsive. */
function pollHealth(base: string) {
  let stop = false;
  let maxMs = 0;
  let samples = 0;
  const done = (async () => {
    while (!stop) {
      const t = performance.now();
      await (await fetch(`${base}/system/health`)).arrayBuffer();
      maxMs = Math.max(maxMs, performance.now() - t);
      samples++;
      await Bun.sleep(10);
    }
  })();
  return async () => { stop = true; await done; return { maxMs, samples }; };
}

const REPORT = { date_range: { start: START, end: END }, target_currency: "EUR", include_history: false, include_allocation_history: false };

const work = mkdtempSync(join(tmpdir(), "pt-bench-backup-"));
const servers: { child: { kill(): void; exited: Promise<number> } }[] = [];
try {
  const source = await startBenchServer(join(work, "source"));
  servers.push(source);
  const a = await session(source.base, "bench");
  const market = buildMarketData();
  const seed = await seedDataset(a.post, market, buildLedger(market, N));
  console.log(`seeded ${N} transactions, ${seed.priceRows} prices, ${seed.fxRows} rates in ${(seed.ms.total / 1000).toFixed(1)} s`);
  const sourceReport = await a.post("/portfolio/report", REPORT);

  // Export, streamed to a file; the server's memory is watched while it streams.
  const pid = source.child.pid as number;
  Bun.gc(true);
  await Bun.sleep(200);
  const baseline = memMb(pid).rss;
  const hwmReset = resetPeak(pid);
  let sampledPeak = baseline;
  const sampler = setInterval(() => { sampledPeak = Math.max(sampledPeak, memMb(pid).rss); }, 10);
  const file = join(work, "export.json");
  const exportHealth = pollHealth(source.base);
  const t0 = performance.now();
  const res = await fetch(`${source.base}/backup/export`, {
    method: "POST", headers: { "content-type": "application/json", cookie: a.cookie },
    body: JSON.stringify({ format: "json", scope: ["all"], include_price_history: true }),
  });
  if (res.status !== 200) throw new Error(`export: ${res.status} ${await res.text()}`);
  const bytes = await Bun.write(file, res);
  const exportMs = performance.now() - t0;
  clearInterval(sampler);
  const exportPoll = await exportHealth();
  const peak = hwmReset ? Math.max(memMb(pid).hwm, sampledPeak) : sampledPeak;
  const growth = peak - baseline;

  // Restore into a fresh server.
  const target = await startBenchServer(join(work, "target"));
  servers.push(target);
  const b = await session(target.base, "bench");
  await b.patch("/settings/global/bulk", { items: [{ key: "max_file_upload_mb", value: String(Math.ceil(bytes / 1024 / 1024) + 10) }] });
  const form = new FormData();
  form.append("file", new File([await Bun.file(file).bytes()], "export.json", { type: "application/json" }));
  const upload = await fetch(`${target.base}/uploads`, { method: "POST", headers: { cookie: b.cookie }, body: form });
  if (upload.status !== 201) throw new Error(`upload: ${upload.status} ${await upload.text()}`);
  const fileId = (await upload.json()).id;
  const restoreHealth = pollHealth(target.base);
  const t1 = performance.now();
  const restored = await b.post("/backup/restore", { file_id: fileId });
  const restoreMs = performance.now() - t1;
  const restorePoll = await restoreHealth();
  const targetReport = await b.post("/portfolio/report", REPORT);
  const same = JSON.stringify(sourceReport.summary) === JSON.stringify(targetReport.summary);

  const row = (name: string, value: string, target: string, ok: boolean) => console.log(`${name.padEnd(34)} ${value.padStart(12)}   target ${target.padEnd(10)} ${ok ? "ok" : "MISSED"}`);
  console.log(`\nexport: ${(bytes / 1024 / 1024).toFixed(1)} MB of JSON (${restored.restored.transactions} transactions, ${restored.restored.prices} prices, ${restored.restored.fx_rates} rates)`);
  row("export, time to last byte", `${exportMs.toFixed(0)} ms`, `< ${TARGETS.exportMs} ms`, exportMs < TARGETS.exportMs);
  row(`export, server RSS growth${hwmReset ? "" : " (sampled)"}`, `${growth.toFixed(1)} MB`, `< ${TARGETS.rssGrowthMb} MB`, growth < TARGETS.rssGrowthMb);
  row("restore into a fresh server", `${restoreMs.toFixed(0)} ms`, `< ${TARGETS.restoreMs} ms`, restoreMs < TARGETS.restoreMs);
  row("restored report summary equal", same ? "yes" : "no", "yes", same);
  console.log(`GET /system/health during the export: max ${exportPoll.maxMs.toFixed(0)} ms over ${exportPoll.samples} polls; during the restore: max ${restorePoll.maxMs.toFixed(0)} ms over ${restorePoll.samples} polls (no target)`);
  console.log(`(server RSS before the export ${baseline.toFixed(0)} MB, peak while streaming ${peak.toFixed(0)} MB; load ${readFileSync("/proc/loadavg", "utf8").split(" ")[0]})`);
  if (!same) process.exitCode = 1;
} finally {
  for (const s of servers) {
    s.child.kill();
    await s.child.exited;
  }
  rmSync(work, { recursive: true, force: true });
}
