/**
 * In-process profile of the report calculation on a data set kept by `bun bench/portfolio.ts
 * --keep` (no server, no HTTP): loads the input and builds the report like the worker does,
 * several times, and prints the median of each phase.
 *
 *   bun bench/portfolio-profile.ts <DATA_DIR> [runs]
 */
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { loadReportInput, type ReportRequest } from "../core/portfolio/report-input.loader.ts";
import { buildReport } from "../core/portfolio/report.calc.ts";
import { sqliteSqlReader } from "../host/db/read-snapshot.ts";
import { END, START } from "./portfolio-dataset.ts";

const dir = process.argv[2];
if (!dir) throw new Error("usage: bun bench/portfolio-profile.ts <DATA_DIR> [runs]");
const runs = Number(process.argv[3] ?? 5);
const db = new Database(join(dir, "portfolio.sqlite"), { readonly: true });
const brokers = db.query("SELECT id FROM brokers ORDER BY id").all() as { id: number }[];
const request: ReportRequest = {
  scales: Object.fromEntries(brokers.map((b) => [b.id, "1"])), target: "EUR", start: START, end: END,
  flags: { summary: true, history: true, allocationHistory: false, breakdown: false, positionsContribution: false },
  requested: { start: START, end: END, brokerIds: null }, generatedAt: new Date().toISOString(),
};
const phases: Record<string, number[]> = { load: [], compute: [], stringify: [], gzip: [] };
const cpu: number[] = [];
for (let i = 0; i < runs; i++) {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  db.exec("BEGIN");
  const input = await loadReportInput(sqliteSqlReader(db), request);
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
  if (i === 0) console.log(`${input.transactions.length} transactions, ${json.length} bytes`);
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(`CPU time per report ${median(cpu).toFixed(0)} ms (median; the machine is shared, so wall times below are noisy);`);
console.log(Object.entries(phases).map(([k, v]) => `${k} ${median(v).toFixed(0)} ms`).join(", "), `(median of ${runs}; first run ${Object.values(phases).reduce((s, v) => s + v[0]!, 0).toFixed(0)} ms)`);
