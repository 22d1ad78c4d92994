/**
 * Where a report's memory goes, without the server: on a data set kept by `bun bench/portfolio.ts
 * --keep`, a worker thread runs the report task as the server's report thread does (one engine,
 * its gzip pieces, the worker's collection after each task) while this thread samples the
 * process's RSS every 5 ms. Prints, per step (the cold report, then reports after a write noted
 * 10 days before the end), the RSS before it, its peak, the RSS 200 ms after, and the worker's
 * heap (`bun:jsc` heapStats) when it answered and after its collection.
 *
 *   bun bench/portfolio-memory.ts <DATA_DIR> [--dashboard] [--runs=3]
 */
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import { END, START } from "./portfolio-dataset.ts";
import { memMb } from "./server.ts";

interface Step { name: string; changes: unknown }

if (isMainThread) {
  const dir = process.argv[2];
  if (!dir) throw new Error("usage: bun bench/portfolio-memory.ts <DATA_DIR> [--dashboard] [--runs=3]");
  const runs = Number(process.argv.find((a) => a.startsWith("--runs="))?.slice(7) ?? 3);
  const dashboard = process.argv.includes("--dashboard");
  const from = new Date(Date.parse(`${END}T00:00:00Z`) - 10 * 86_400_000).toISOString().slice(0, 10);
  const steps: Step[] = [{ name: "cold", changes: { epoch: "m", generation: 0, notes: [] } }];
  for (let g = 1; g <= runs; g++) steps.push({ name: `after write ${g}`, changes: { epoch: "m", generation: g, notes: [{ generation: g, from }] } });
  steps.push({ name: "cold again", changes: { epoch: "m2", generation: 0, notes: [] } });
  const worker = new Worker(new URL(import.meta.url), { workerData: { dir, dashboard } });
  const answers: ((v: any) => void)[] = [];
  worker.on("message", (m) => answers.shift()!(m));
  const ask = (msg: unknown) => new Promise<any>((resolve) => { answers.push(resolve); worker.postMessage(msg); });
  await ask({ warm: true });
  await Bun.sleep(300);
  console.log(`idle with the worker started: RSS ${memMb(process.pid).rss.toFixed(0)} MB`);
  for (const step of steps) {
    const before = memMb(process.pid).rss;
    let peak = before;
    const timer = setInterval(() => { peak = Math.max(peak, memMb(process.pid).rss); }, 5);
    const t = performance.now();
    const out = await ask({ changes: step.changes });
    const ms = performance.now() - t;
    await Bun.sleep(200);
    clearInterval(timer);
    const after = memMb(process.pid).rss;
    console.log(`${step.name.padEnd(14)} ${ms.toFixed(0).padStart(6)} ms  RSS before ${before.toFixed(0)}, peak ${peak.toFixed(0)}, 200 ms after ${after.toFixed(0)} MB; ` +
      `worker heap at answer ${out.heapMb.toFixed(0)} MB (capacity ${out.capacityMb.toFixed(0)}), after collection ${out.collectedMb.toFixed(0)} MB; gzip ${(out.gzBytes / 1e6).toFixed(2)} MB, json ${(out.chars / 1e6).toFixed(2)} M chars`);
  }
  await worker.terminate();
} else {
  const { heapStats } = await import("bun:jsc");
  const { join } = await import("node:path");
  const { portfolioReport } = await import("../host/api/portfolio/portfolio-report.task.ts");
  const { dir, dashboard } = workerData as { dir: string; dashboard: boolean };
  const db = { kind: "sqlite" as const, file: join(dir, "portfolio.sqlite") };
  const { Database } = await import("bun:sqlite");
  const raw = new Database(db.file, { readonly: true });
  const brokers = raw.query("SELECT id FROM brokers ORDER BY id").all() as { id: number }[];
  raw.close();
  const request = {
    scales: Object.fromEntries(brokers.map((b) => [b.id, "1"])), fxUserId: null, target: "EUR",
    start: dashboard ? null : START, end: END,
    flags: { summary: true, history: true, allocationHistory: !dashboard, breakdown: false, positionsContribution: dashboard },
    requested: { start: dashboard ? null : START, end: END, brokerIds: null }, generatedAt: "2026-01-01T00:00:00.000Z",
  };
  const mb = (b: number) => b / 1024 / 1024;
  parentPort!.on("message", async (m: { warm?: true; changes?: unknown }) => {
    if (m.warm) { parentPort!.postMessage({}); return; }
    const out = await portfolioReport({ db, request, changes: m.changes } as never);
    const s = heapStats();
    // The worker's collection after a task (host/workers/calc.worker.ts).
    Bun.gc(true);
    const c = heapStats();
    parentPort!.postMessage({ heapMb: mb(s.heapSize), capacityMb: mb(s.heapCapacity), collectedMb: mb(c.heapSize), gzBytes: out.gzip.byteLength, chars: out.chars });
  });
}
