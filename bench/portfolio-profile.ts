/**
 * In-process profile of the report calculation on a data set kept by `bun bench/portfolio.ts
 * --keep` (no server, no HTTP): loads the input and builds the report like the worker does,
 * several times, and prints the median of each phase.
 *
 *   bun bench/portfolio-profile.ts <DATA_DIR> [runs] [--incremental] [--allocation]
 *
 * `--allocation` asks for the allocation history too (the API's default request); `--dashboard`
 * asks what the web dashboard asks (all history, the positions' contribution, no allocation history).
 *
 * `--incremental` also times the incremental path (core/portfolio/report-engine.ts): one cold run
 * kept by the engine, then `runs` reports after a write noted 10 days before the end (nothing is
 * written: the engine resumes at the checkpoint before that date all the same), CPU time each.
 *
 * `--cold-only` skips the first part (no `buildReport` runs): for a profile of the engine alone.
 *
 * `--cold` times the worker's cold path as the server runs it after `clear-all` or any undated write
 * (host/api/portfolio/portfolio-report.task.ts): `ReportEngine` with the worker's full collections,
 * each report after a generation with no dated note (nothing resumable), then the gzip in pieces;
 * CPU time of each, the wall time of the collections (median of `runs`).
 *
 * `--pages` times the web's page sequence on one engine (the dashboard's request, Performance's,
 * Income's, then the API's default), then the same sequence after each of `runs` writes noted 10
 * days before the end: CPU time of each report and whether it resumed (one kept replay serves them all).
 */
import { edenGC } from "bun:jsc";
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { loadReportInput, type ReportRequest } from "../core/portfolio/report-input.loader.ts";
import { txTable } from "../core/portfolio/report-input.ts";
import { buildReport } from "../core/portfolio/report.calc.ts";
import { ReportEngine } from "../core/portfolio/report-engine.ts";
import { sqliteSqlReader } from "../host/db/read-snapshot.ts";
import { SegmentedGzip } from "../host/api/portfolio/segmented-gzip.ts";
import { END, START } from "./portfolio-dataset.ts";

const dir = process.argv[2];
if (!dir) throw new Error("usage: bun bench/portfolio-profile.ts <DATA_DIR> [runs]");
const runs = Number(process.argv.slice(3).find((a) => !a.startsWith("--")) ?? 5);
const db = new Database(join(dir, "portfolio.sqlite"), { readonly: true });
const reader = sqliteSqlReader(db);
const brokers = db.query("SELECT id FROM brokers ORDER BY id").all() as { id: number }[];
// `--dashboard`: the web dashboard's request (all history, positions' contribution, no allocation history).
const dashboard = process.argv.includes("--dashboard");
const request: ReportRequest = {
  scales: Object.fromEntries(brokers.map((b) => [b.id, "1"])), fxUserId: null, target: "EUR", start: dashboard ? null : START, end: END,
  flags: {
    summary: true, history: true, allocationHistory: process.argv.includes("--allocation"), breakdown: false, positionsContribution: dashboard,
    periodReturns: false, incomePayments: false,
  },
  requested: { start: dashboard ? null : START, end: END, brokerIds: null }, generatedAt: new Date().toISOString(),
};
const phases: Record<string, number[]> = { load: [], compute: [], stringify: [], gzip: [] };
const cpu: number[] = [];
// `--cold-only`: the engine's cold path alone (a profile of the worker's run without buildReport's).
for (let i = 0; i < (process.argv.includes("--cold-only") ? 0 : runs); i++) {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  db.exec("BEGIN");
  const input = await loadReportInput(reader, request);
  db.exec("COMMIT");
  const t1 = performance.now();
  const report = buildReport(input);
  const t2 = performance.now();
  const json = JSON.stringify(report);
  const t3 = performance.now();
  Bun.gzipSync(Buffer.from(json), { level: 6 });
  const t4 = performance.now();
  const c1 = process.cpuUsage(c0);
  cpu.push((c1.user + c1.system) / 1000);
  phases.load!.push(t1 - t0); phases.compute!.push(t2 - t1); phases.stringify!.push(t3 - t2); phases.gzip!.push(t4 - t3);
  if (i === 0) console.log(`${txTable(input).length} transactions, ${json.length} bytes`);
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
if (cpu.length) console.log(`CPU time per report ${median(cpu).toFixed(0)} ms (median; the machine is shared, so wall times below are noisy);`);
if (cpu.length) console.log(Object.entries(phases).map(([k, v]) => `${k} ${median(v).toFixed(0)} ms`).join(", "), `(median of ${runs}; first run ${Object.values(phases).reduce((s, v) => s + v[0]!, 0).toFixed(0)} ms)`);

if (process.argv.includes("--incremental")) {
  const engine = new ReportEngine({ collect: () => Bun.gc(true) });
  const gz = new SegmentedGzip();
  const c0 = process.cpuUsage();
  const cold = await engine.report(reader, request, { epoch: "profile", generation: 0, notes: [] });
  const c1 = process.cpuUsage(c0);
  gz.gzipPieces(cold.pieces);
  const c2 = process.cpuUsage(c0);
  console.log(`engine cold: CPU ${((c1.user + c1.system) / 1000).toFixed(0)} ms + gzip in pieces ${((c2.user + c2.system - c1.user - c1.system) / 1000).toFixed(0)} ms`);
  const from = new Date(Date.parse(`${END}T00:00:00Z`) - 10 * 86_400_000).toISOString().slice(0, 10);
  const cpuIncr: number[] = [];
  const cpuGzip: number[] = [];
  let resumedAt = "";
  for (let g = 1; g <= runs; g++) {
    const c0 = process.cpuUsage();
    const out = await engine.report(reader, request, { epoch: "profile", generation: g, notes: [{ generation: g, from }] });
    const c1 = process.cpuUsage(c0);
    gz.gzipPieces(out.pieces);
    const c2 = process.cpuUsage(c0);
    cpuIncr.push((c1.user + c1.system) / 1000);
    cpuGzip.push((c2.user + c2.system - c1.user - c1.system) / 1000);
    if (typeof out.mode === "object") resumedAt = out.mode.resumedAt;
  }
  console.log(`incremental after a write dated ${from} (resumed at ${resumedAt || "—"}): CPU ${median(cpuIncr).toFixed(0)} ms + gzip in pieces ${median(cpuGzip).toFixed(0)} ms (median of ${runs})`);
}

if (process.argv.includes("--cold")) {
  const collections: number[] = [];
  const engine = new ReportEngine({
    collect: () => {
      const t = performance.now();
      Bun.gc(true);
      collections.push(performance.now() - t);
    },
    collectYoung: () => {
      const t = performance.now();
      edenGC();
      collections.push(performance.now() - t);
    },
  });
  const gz = new SegmentedGzip();
  const cpuEngine: number[] = [];
  const cpuGzip: number[] = [];
  const collected: number[] = [];
  for (let g = 1; g <= runs; g++) {
    collections.length = 0;
    const c0 = process.cpuUsage();
    db.exec("BEGIN");
    const out = await engine.report(reader, request, { epoch: "cold", generation: g, notes: [] });
    db.exec("COMMIT");
    const c1 = process.cpuUsage(c0);
    gz.gzipPieces(out.pieces);
    const c2 = process.cpuUsage(c0);
    cpuEngine.push((c1.user + c1.system) / 1000);
    cpuGzip.push((c2.user + c2.system - c1.user - c1.system) / 1000);
    collected.push(collections.reduce((s, v) => s + v, 0));
  }
  console.log(`engine cold (the worker's path): CPU ${median(cpuEngine).toFixed(0)} ms + gzip in pieces ${median(cpuGzip).toFixed(0)} ms, of which collections ${median(collected).toFixed(0)} ms wall (median of ${runs}; CPU of each ${cpuEngine.map((c) => c.toFixed(0)).join(", ")} ms)`);
}

if (process.argv.includes("--pages")) {
  const engine = new ReportEngine({ collect: () => Bun.gc(true) });
  const base = { ...request.flags, summary: true, history: true, allocationHistory: false };
  const pages: [string, ReportRequest][] = [
    ["dashboard", { ...request, flags: base }],
    ["performance", { ...request, flags: { ...base, periodReturns: true } }],
    ["income", { ...request, flags: { ...base, history: false, positionsContribution: true, incomePayments: true } }],
    ["api defaults", { ...request, flags: { ...base, allocationHistory: true } }],
  ];
  const from = new Date(Date.parse(`${END}T00:00:00Z`) - 10 * 86_400_000).toISOString().slice(0, 10);
  const notes: { generation: number; from: string }[] = [];
  const sequence = async (generation: number) => {
    const out: string[] = [];
    for (const [name, r] of pages) {
      const c0 = process.cpuUsage();
      db.exec("BEGIN");
      const rep = await engine.report(reader, r, { epoch: "pages", generation, notes: [...notes] });
      db.exec("COMMIT");
      const c = process.cpuUsage(c0);
      out.push(`${name} ${rep.mode === "cold" ? `cold (${rep.coldReason})` : "resumed"} ${((c.user + c.system) / 1000).toFixed(0)} ms`);
    }
    return out.join(", ");
  };
  console.log(`pages, first: ${await sequence(0)}`);
  for (let g = 1; g <= runs; g++) {
    notes.push({ generation: g, from });
    console.log(`pages after a write dated ${from}: ${await sequence(g)} (CPU)`);
  }
}
