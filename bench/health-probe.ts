/**
 * Times `GET /system/health` every 25 ms from a process of its own, so nothing the benchmark does
 * counts as the server's latency (Bun's fetch sends bodies and decompresses answers on one HTTP
 * thread per process: a 4.5 MB upload or a 26 MB answer there would delay the probe's requests
 * too). Run as `bun bench/health-probe.ts <base>`; it stops when its stdin closes and prints its
 * samples as JSON, each `{at, ms}` with `at` an epoch time in ms.
 *
 * A benchmark imports `startHealthProbe(base)` instead: it starts this script as that process,
 * times the idle server for 3 s as the first window (on a loaded machine its slowest answer is the
 * scheduler's share, not the server's work), collects the windows the benchmark marks, and
 * summarises the health answers of each.
 */
import { join } from "node:path";

export interface HealthSample { at: number; ms: number }
export interface HealthWindow { from: number; label: string; to: number }

/** Epoch time in ms, the clock of the samples and the windows. */
export const now = () => performance.timeOrigin + performance.now();

/** The label of the idle baseline window; a label containing "no target" is reported without the 20 ms target. */
export const IDLE_WINDOW = "an idle server (baseline, no target)";

/**
 * Starts the probe process against `base`, lets it settle (500 ms), then times the idle server for
 * `idleMs` as the first of `windows` (the benchmark pushes its own after it); `stop()` ends the probe
 * and answers its samples, for `reportHealth`.
 */
export async function startHealthProbe(base: string, idleMs = 3000) {
  const probe = Bun.spawn([process.execPath, join(import.meta.dir, "health-probe.ts"), base], { stdin: "pipe", stdout: "pipe" });
  await Bun.sleep(500);
  const windows: HealthWindow[] = [];
  const idle = now();
  await Bun.sleep(idleMs);
  windows.push({ label: IDLE_WINDOW, from: idle, to: now() });
  return {
    windows,
    async stop(): Promise<HealthSample[]> {
      probe.stdin.end();
      return JSON.parse(await new Response(probe.stdout).text()) as HealthSample[];
    },
  };
}

/** One line per window: the health answers that overlapped it (count, median, p99, max and when, answers at 20 ms or more). */
export function reportHealth(samples: readonly HealthSample[], windows: readonly HealthWindow[]): void {
  for (const w of windows) {
    const during = samples.filter((s) => s.at + s.ms >= w.from && s.at <= w.to);
    const sorted = during.map((s) => s.ms).sort((a, b) => a - b);
    const slowest = during.reduce((a, b) => (b.ms > a.ms ? b : a), { at: w.from, ms: 0 });
    console.log(`/system/health during ${w.label}: n=${sorted.length} median ${sorted[Math.floor(sorted.length / 2)]?.toFixed(1)} ms, `
      + `p99 ${sorted[Math.floor(sorted.length * 0.99)]?.toFixed(1)} ms, max ${slowest.ms.toFixed(1)} ms at +${(slowest.at - w.from).toFixed(0)} ms, `
      + `${sorted.filter((ms) => ms >= 20).length} at 20 ms or more${w.label.includes("no target") ? "" : " (target < 20)"}`);
  }
}

if (import.meta.main) {
  const base = process.argv[2];
  if (!base) throw new Error("usage: bun bench/health-probe.ts <api base url>");
  const samples: HealthSample[] = [];
  let stopped = false;
  void (async () => {
    for await (const _ of Bun.stdin.stream());
    stopped = true;
  })();
  while (!stopped) {
    const at = now();
    await (await fetch(`${base}/system/health`)).arrayBuffer();
    samples.push({ at, ms: now() - at });
    await Bun.sleep(25);
  }
  console.log(JSON.stringify(samples));
}
