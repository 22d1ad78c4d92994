/**
 * A loop monitor preloaded into the server (`bun --preload bench/loop-monitor.ts host/start.ts`, or
 * `bun bench/import.ts --monitor`): a 2 ms interval on the request thread, and for each gap between
 * two of its ticks, the CPU time the main thread itself used meanwhile, read from
 * `/proc/self/task/<pid>/schedstat` (its first field: nanoseconds on a CPU). A gap whose own CPU
 * time passes the threshold is the request thread held by our code; a long gap with little CPU is
 * the machine's load (the thread was waiting for a core), which this leaves out.
 *
 * Each stretch is appended as one JSON line `{at, gapMs, cpuMs}` (`at`: epoch ms at the gap's end)
 * to `LOOP_MONITOR_FILE` (default: stderr). `LOOP_MONITOR_CPU_MS` sets the threshold (default 12).
 * To name the code of a stretch, run the server with `--cpu-prof --cpu-prof-dir=<dir>` too (create
 * the folder first) and look up the profile's samples at the stretch's time.
 * Linux only: elsewhere it says so and does nothing.
 */
import { appendFileSync, readFileSync } from "node:fs";
import { isMainThread } from "node:worker_threads";

const INTERVAL_MS = 2;
const THRESHOLD_MS = Number(process.env.LOOP_MONITOR_CPU_MS ?? 12);
const OUT = process.env.LOOP_MONITOR_FILE;
const STAT = `/proc/self/task/${process.pid}/schedstat`;

/** The main thread's CPU time so far in ms, or null where /proc has no schedstat. */
function cpuMs(): number | null {
  try {
    return Number(readFileSync(STAT, "utf8").split(" ")[0]) / 1e6;
  } catch {
    return null;
  }
}

function report(line: string): void {
  if (OUT) appendFileSync(OUT, `${line}\n`);
  else process.stderr.write(`loop-monitor ${line}\n`);
}

if (!isMainThread) {
  // A preload runs in worker threads too: the monitor watches the request thread only.
} else if (cpuMs() === null) {
  report(JSON.stringify({ error: `no ${STAT}: the loop monitor needs Linux` }));
} else {
  let lastWall = performance.now();
  let lastCpu = cpuMs()!;
  const timer = setInterval(() => {
    const wall = performance.now();
    const cpu = cpuMs()!;
    const used = cpu - lastCpu;
    if (used > THRESHOLD_MS) {
      report(JSON.stringify({ at: Math.round(performance.timeOrigin + wall), gapMs: +(wall - lastWall).toFixed(1), cpuMs: +used.toFixed(1) }));
    }
    lastWall = wall;
    lastCpu = cpu;
  }, INTERVAL_MS);
  // The monitor never keeps the server alive on its own.
  timer.unref();
}
