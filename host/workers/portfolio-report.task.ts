import { Database } from "bun:sqlite";
import { loadReportInput, type ReportRequest } from "../../core/portfolio/report-input.loader.ts";
import { buildReport } from "../../core/portfolio/report.calc.ts";

/** One read-only connection per database file and worker thread, kept open between tasks. */
const connections = new Map<string, Database>();

export function readOnly(file: string): Database {
  let db = connections.get(file);
  if (!db) {
    db = new Database(file, { readonly: true });
    connections.set(file, db);
  }
  return db;
}

/** One read transaction: every table is read at the same committed state. */
export function readReportInput(db: Database, request: ReportRequest): ReturnType<typeof loadReportInput> {
  return db.transaction(() => loadReportInput(db, request))();
}

export interface PortfolioReportTask {
  dbFile: string;
  request: ReportRequest;
}

export interface PortfolioReportResult {
  json: string;
  gzip: Uint8Array;
  /** Milliseconds spent loading the input and computing, for the access log and benchmarks. */
  loadMs: number;
  computeMs: number;
}

/**
 * Worker side of `POST /portfolio/report`: reads the inputs through this thread's own read-only
 * SQLite connection (WAL: committed data only, never blocking the writer), replays, and hands
 * back the serialised and gzipped body so the request thread only copies bytes.
 */
export function portfolioReport(task: PortfolioReportTask): PortfolioReportResult {
  const t0 = performance.now();
  const db = readOnly(task.dbFile);
  const input = readReportInput(db, task.request);
  const t1 = performance.now();
  const json = JSON.stringify(buildReport(input));
  const gzip = Bun.gzipSync(Buffer.from(json), { level: 6 });
  return { json, gzip, loadMs: t1 - t0, computeMs: performance.now() - t1 };
}
