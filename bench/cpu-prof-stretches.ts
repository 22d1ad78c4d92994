/**
 * Names the code of the request thread's long stretches in a Bun `--cpu-prof` profile (the
 * companion of bench/loop-monitor.ts), and prints each with the functions (and their callers) that
 * took most of its samples. With `--monitor=<file>` (the monitor's JSON lines, e.g. from
 * `LOOP_MONITOR_FILE=/tmp/m.jsonl bun bench/import.ts --monitor`) the stretches are the monitor's,
 * measured in the thread's own CPU time (the profile's `startTime` is epoch microseconds, as the
 * monitor's `at` is epoch ms). Without it, each run of samples not idle that lasts more than `--ms`
 * (default 12) without a 2 ms break: wall time, so on a loaded machine it also counts the time the
 * thread waited for a core.
 *
 *   bun bench/cpu-prof-stretches.ts <file.cpuprofile> [--monitor=<file>] [--ms=12] [--top=6]
 */
import { readFileSync } from "node:fs";

interface Node { callFrame: { functionName: string; lineNumber: number; url: string }; children?: number[]; id: number }
const file = process.argv[2];
if (!file) throw new Error("usage: bun bench/cpu-prof-stretches.ts <file.cpuprofile> [--ms=12] [--top=6]");
const arg = (name: string, fallback: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1] ?? fallback);
const MIN_MS = arg("ms", 12);
const TOP = arg("top", 6);
const profile = JSON.parse(readFileSync(file, "utf8")) as { nodes: Node[]; samples: number[]; startTime: number; timeDeltas: number[] };

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const IDLE = new Set(["(idle)", "(root)", "(program)", "(garbage collector)"]);
const name = (n: Node) => `${n.callFrame.functionName || "(anonymous)"} ${n.callFrame.url.replace(/^.*\/(core|host|sdk|plugins|node_modules)\//, "$1/")}:${n.callFrame.lineNumber + 1}`;
/** The sample's leaf and two callers of ours, as one label. */
function label(id: number): string {
  const frames: string[] = [];
  for (let at: number | undefined = id; at !== undefined && frames.length < 3; at = parent.get(at)) {
    const n = byId.get(at)!;
    if (n.callFrame.functionName !== "(root)") frames.push(name(n));
  }
  return frames.join(" < ");
}

const monitor = process.argv.find((a) => a.startsWith("--monitor="))?.slice("--monitor=".length);
const times: number[] = [];
let t = profile.startTime;
for (const d of profile.timeDeltas) times.push((t += d));
const runs: { cpuMs?: number; from: number; ids: number[]; to: number }[] = [];
if (monitor) {
  for (const line of readFileSync(monitor, "utf8").trim().split("\n").filter(Boolean)) {
    const s = JSON.parse(line) as { at: number; cpuMs: number; gapMs: number };
    const from = (s.at - s.gapMs) * 1000;
    const to = s.at * 1000;
    const ids = profile.samples.filter((_, k) => times[k]! >= from && times[k]! <= to && !IDLE.has(byId.get(profile.samples[k]!)!.callFrame.functionName));
    runs.push({ cpuMs: s.cpuMs, from, ids, to });
  }
} else {
  sampleRuns();
}

/** Runs of samples not idle with no break over 2 ms, longer than MIN_MS (wall time). */
function sampleRuns(): void {
  let run: { from: number; ids: number[]; to: number } | null = null;
  profile.samples.forEach((id, k) => {
    const at = times[k]!;
    const busy = !IDLE.has(byId.get(id)!.callFrame.functionName) || byId.get(id)!.callFrame.functionName === "(garbage collector)";
    if (busy && run && at - run.to <= 2000) {
      run.to = at;
      run.ids.push(id);
      return;
    }
    if (run && run.to - run.from > MIN_MS * 1000) runs.push(run);
    run = busy ? { from: at, ids: [id], to: at } : null;
  });
}

for (const r of runs) {
  const counts = new Map<string, number>();
  for (const id of r.ids) counts.set(label(id), (counts.get(label(id)) ?? 0) + 1);
  console.log(`+${((r.from - profile.startTime) / 1000).toFixed(0)} ms: ${((r.to - r.from) / 1000).toFixed(1)} ms`
    + `${r.cpuMs === undefined ? "" : ` (${r.cpuMs} ms CPU)`}, ${r.ids.length} samples`);
  for (const [l, n] of [...counts].sort((a, b) => b[1] - a[1]).slice(0, TOP)) console.log(`   ${n}  ${l}`);
}
