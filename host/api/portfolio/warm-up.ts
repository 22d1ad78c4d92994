import type { Logger } from "../../logger.ts";
import { runCalculation } from "../run-calculation.ts";

/**
 * Warms the report thread once after start-up (host/api/portfolio/report-warm-up.task.ts): a report of a
 * synthetic ledger, so the first user's report runs compiled code. Best effort: a failure is logged
 * and changes nothing else. Never awaited by start-up; a user's report arriving meanwhile queues
 * behind it on the one report thread.
 */
export async function warmReportWorker(dbFile: string, logger: Logger): Promise<void> {
  const t0 = performance.now();
  try {
    const { result } = await runCalculation("reportWarmUp", { dbFile });
    if (result.historyPoints === 0) throw new Error("the synthetic ledger gave an empty history");
    logger.info("report worker warmed", { ms: Math.round(performance.now() - t0), history_points: result.historyPoints });
  } catch (error) {
    logger.warn("report worker warm-up failed", { reason: error instanceof Error ? error.message : String(error) });
  }
}
