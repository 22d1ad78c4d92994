import { addDays } from "../../../core/dates/calendar.ts";
import { loadReportInput } from "../../../core/portfolio/report-input.loader.ts";
import { buildReport } from "../../../core/portfolio/report.calc.ts";
import { sqliteSqlReader } from "../../db/read-snapshot.ts";
import { DAYS, START, syntheticLedger } from "../risk/risk-warm-up.task.ts";

export interface ReportWarmUpTask {
  dbFile: string;
}

/**
 * Warms the report thread (host/workers/pool.ts) once after start-up: the risk warm-up's synthetic
 * ledger (the real file's schema, none of the users' data) through the report loader and a full
 * report, every section, so the first user's report runs JIT-compiled code (a fresh thread ran it
 * 2–3× slower). Nothing is kept: the engine's incremental state is untouched.
 */
export async function reportWarmUp(task: ReportWarmUpTask): Promise<{ ms: number; historyPoints: number }> {
  const t0 = performance.now();
  const mem = await syntheticLedger(task.dbFile);
  let historyPoints = 0;
  try {
    const end = addDays(START, DAYS - 1);
    for (const start of [START, addDays(START, 400)]) {
      const report = buildReport(await loadReportInput(sqliteSqlReader(mem), {
        scales: { 1: "1", 2: "0.5" }, fxUserId: null, target: "EUR", start, end,
        flags: { summary: true, history: true, allocationHistory: true, breakdown: true, positionsContribution: true, periodReturns: true, incomePayments: true },
        requested: { start, end, brokerIds: null }, generatedAt: new Date().toISOString(),
      }));
      JSON.stringify(report);
      historyPoints = Math.max(historyPoints, (report as { history?: unknown[] }).history?.length ?? 0);
    }
  } finally {
    mem.close();
  }
  Bun.gc(true);
  return { ms: performance.now() - t0, historyPoints };
}
