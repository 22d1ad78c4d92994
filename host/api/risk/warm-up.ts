import type { Logger } from "../../logger.ts";
import { poolSize } from "../../workers/pool.ts";
import { runCalculation } from "../run-calculation.ts";

/**
 * Warms every pool thread for risk queries (host/api/risk/risk-warm-up.task.ts): one warm-up task per
 * thread, started together; each holds its thread until all have started, so no thread takes two.
 * Best effort: a failure is logged and changes nothing else. Never awaited by start-up.
 */
export async function warmRiskWorkers(dbFile: string, logger: Logger): Promise<void> {
  const t0 = performance.now();
  const threads = poolSize();
  const started = new Int32Array(new SharedArrayBuffer(4));
  try {
    const results = await Promise.all(Array.from({ length: threads }, () => runCalculation("riskWarmUp", { dbFile, started, threads, waitMs: 10_000 })));
    logger.info("risk workers warmed", { threads: new Set(results.map((r) => r.threadId)).size, ms: Math.round(performance.now() - t0) });
  } catch (error) {
    logger.warn("risk worker warm-up failed", { reason: error instanceof Error ? error.message : String(error) });
  }
}
