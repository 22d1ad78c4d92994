import { loadReportInput, type ReportRequest } from "../../core/portfolio/report-input.loader.ts";
import { buildReport } from "../../core/portfolio/report.calc.ts";
import type { DatabaseTarget } from "../db/dialect.ts";
import { withReadSnapshot } from "../db/read-snapshot.ts";

/** One read transaction on this thread's own connection: every table is read at the same committed state. */
export function readReportInput(db: DatabaseTarget, request: ReportRequest): ReturnType<typeof loadReportInput> {
  return withReadSnapshot(db, (reader) => loadReportInput(reader, request));
}

export interface PortfolioReportTask {
  db: DatabaseTarget;
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
 * connection (SQLite WAL or a PostgreSQL snapshot: committed data only, never blocking a writer),
 * replays, and hands back the serialised and gzipped body so the request thread only copies bytes.
 */
export async function portfolioReport(task: PortfolioReportTask): Promise<PortfolioReportResult> {
  const t0 = performance.now();
  const input = await readReportInput(task.db, task.request);
  const t1 = performance.now();
  const json = JSON.stringify(buildReport(input));
  const gzip = Bun.gzipSync(Buffer.from(json), { level: 6 });
  return { json, gzip, loadMs: t1 - t0, computeMs: performance.now() - t1 };
}
