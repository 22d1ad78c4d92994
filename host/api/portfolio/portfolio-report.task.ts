import { type EngineReport, type ReportChanges, ReportEngine, type ScopeIds } from "../../../core/portfolio/report-engine.ts";
import { loadReportInput, type ReportRequest } from "../../../core/portfolio/report-input.loader.ts";
import type { DatabaseTarget } from "../../db/dialect.ts";
import { withReadSnapshot } from "../../db/read-snapshot.ts";
import { edenGC } from "bun:jsc";
import { SegmentedGzip } from "./segmented-gzip.ts";

export interface PortfolioReportTask {
  db: DatabaseTarget;
  request: ReportRequest;
  /** The write log at the time of the request (incremental path); null: compute cold, keep nothing. */
  changes: ReportChanges | null;
}

export interface PortfolioReportResult {
  /** The report's JSON, gzipped (the request thread sends these bytes; the JSON stays here). */
  gzip: Uint8Array;
  /** Length of the JSON text (characters). */
  chars: number;
  /** Milliseconds spent loading, computing and serialising, then compressing, for benchmarks. */
  computeMs: number;
  /** This thread's CPU time for the same: `computeMs` less the waits (for the database, for a core). */
  computeCpuMs: number;
  gzipMs: number;
  /** `cold`, or the date the replay resumed at. */
  mode: "cold" | { resumedAt: string };
  /** Why it was cold (`EngineReport.coldReason`). */
  coldReason?: EngineReport["coldReason"];
  /** The scope's brokers and assets: a kept report stays kept through writes that touch neither. */
  scope: ScopeIds;
}

/** One engine per database and worker thread: the incremental path's kept scopes, and their compressed pieces. */
const engines = new Map<string, { engine: ReportEngine; gzip: SegmentedGzip }>();

/**
 * Worker side of `POST /portfolio/report`: reads the inputs through this thread's own read-only
 * connection (SQLite WAL or a PostgreSQL snapshot: committed data only, never blocking a writer), replays (from a
 * checkpoint when the writes since the scope's last report are dated: core/portfolio/report-engine.ts),
 * and hands back the serialised and gzipped body so the request thread only copies bytes.
 */
export async function portfolioReport(task: PortfolioReportTask): Promise<PortfolioReportResult> {
  const t0 = performance.now();
  const cpu0 = process.threadCpuUsage();
  const key = task.db.kind === "postgres" ? task.db.url : task.db.file;
  let kept = engines.get(key);
  // A full collection after a cold report's load: ~100 MB lower peak on a dense 20,000-row ledger;
  // young-generation ones through the replay (docs/decisions.md).
  if (!kept) engines.set(key, kept = { engine: new ReportEngine({ collect: () => Bun.gc(true), collectYoung: edenGC }), gzip: new SegmentedGzip() });
  const { engine } = kept;
  const { pieces, mode, coldReason, scope } = await withReadSnapshot(task.db, (db) => engine.report(db, task.request, task.changes));
  const t1 = performance.now();
  const cpu = process.threadCpuUsage(cpu0);
  // Only the pieces not compressed for an earlier report are compressed (segmented-gzip.ts).
  const gzip = kept.gzip.gzipPieces(pieces);
  let chars = 0;
  for (const p of pieces) chars += p.length;
  return { gzip, chars, computeMs: t1 - t0, computeCpuMs: (cpu.user + cpu.system) / 1000, gzipMs: performance.now() - t1, mode, scope, ...(coldReason ? { coldReason } : {}) };
}
