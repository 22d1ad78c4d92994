import { join } from "node:path";
import { ROOT } from "./server.ts";

export interface HealthSamples {
  /** Latencies (ms) of the `GET /system/health` calls that started while `work` ran, in order. */
  during: number[];
  /** How long `work` took (ms). */
  workMs: number;
}

/**
 * Times `GET /system/health` every 25 ms from a process of its own (bench/health-probe.ts) while
 * `work` runs, so the test's own client (decompressing a 30 MB answer, say) never delays the probe.
 */
export async function healthWhile(base: string, work: () => Promise<unknown>): Promise<HealthSamples> {
  const probe = Bun.spawn([process.execPath, join(ROOT, "bench/health-probe.ts"), base], { stdin: "pipe", stdout: "pipe", stderr: "ignore" });
  await Bun.sleep(300);
  const started = performance.timeOrigin + performance.now();
  try {
    await work();
  } finally {
    probe.stdin.end();
  }
  const ended = performance.timeOrigin + performance.now();
  const samples: { at: number; ms: number }[] = JSON.parse(await new Response(probe.stdout).text());
  return { during: samples.filter((s) => s.at >= started && s.at <= ended).map((s) => s.ms), workMs: ended - started };
}

/** The value below which `share` (0..1) of `values` lie. */
export function quantile(values: readonly number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? NaN;
}
