import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Post } from "./portfolio-dataset.ts";

export const ROOT = resolve(import.meta.dir, "..");

/**
 * Starts the real server as `npm start` would, on a free port with the given DATA_DIR, and waits
 * for its "listening" line. Its stdout keeps being drained so the server never blocks on a full pipe.
 * `BUN_JSC_*` variables (JavaScriptCore options, e.g. `BUN_JSC_forceRAMSize`) and `RISK_WARM_UP` are
 * passed on, to measure the server under them; `BENCH_BUN_FLAGS` (space-separated, e.g. `--smol`)
 * goes on the server's `bun` command line, and so do `flags` (bench/import.ts `--monitor` preloads
 * bench/loop-monitor.ts). `env` adds to its environment (DATABASE_URL, JWT_SECRET).
 * `onLine` receives every later line of its stdout.
 */
export async function startBenchServer(dataDir: string, onLine?: (line: string) => void, env: Record<string, string> = {}, flags: string[] = []) {
  const child = Bun.spawn([process.execPath, ...(process.env.BENCH_BUN_FLAGS ? process.env.BENCH_BUN_FLAGS.split(" ") : []), ...flags, join(ROOT, "host/start.ts")], {
    cwd: ROOT,
    env: {
      ...Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith("BUN_JSC_"))),
      PATH: process.env.PATH ?? "", PORT: "0", HOST: "127.0.0.1", DATA_DIR: dataDir, LOG_LEVEL: process.env.LOG_LEVEL ?? "info",
      ...(process.env.RISK_WARM_UP ? { RISK_WARM_UP: process.env.RISK_WARM_UP } : {}), ...env,
    },
    stdout: "pipe",
    stderr: "inherit",
  });
  const reader = child.stdout.getReader();
  let buffer = "";
  while (true) {
    const { value, done } = await reader.read();
    if (done) throw new Error("server exited before listening");
    buffer += new TextDecoder().decode(value);
    const line = buffer.split("\n").find((l) => l.includes('"msg":"listening"'));
    if (line) {
      void (async () => {
        let rest = buffer.slice(buffer.indexOf(line) + line.length);
        for (;;) {
          if (onLine) {
            const lines = rest.split("\n");
            rest = lines.pop()!;
            for (const l of lines) if (l) onLine(l);
          }
          const { value, done } = await reader.read();
          if (done) break;
          if (onLine) rest += new TextDecoder().decode(value);
        }
      })();
      return { child, base: `http://127.0.0.1:${JSON.parse(line).port}/api/v1` };
    }
  }
}

/**
 * Registers and signs in the bench user (the first account: the superuser, needed for clear-all)
 * and returns its session headers and a `post` that throws on any status but `expect`.
 */
export async function benchSession(base: string): Promise<{ headers: Record<string, string>; cookie: string; post: Post }> {
  const json = { "content-type": "application/json" };
  const reg = await fetch(`${base}/auth/register`, { method: "POST", headers: json, body: JSON.stringify({ username: "bench", email: "bench@example.com", password: "Bench-pass1" }) });
  if (reg.status !== 201) throw new Error(`register: ${reg.status} ${await reg.text()}`);
  const login = await fetch(`${base}/auth/login`, { method: "POST", headers: json, body: JSON.stringify({ username: "bench", password: "Bench-pass1" }) });
  if (login.status !== 200) throw new Error(`login: ${login.status} ${await login.text()}`);
  const cookie = login.headers.getSetCookie()[0]!.split(";")[0]!;
  const headers = { ...json, cookie };
  const post: Post = async (path, body, expect = 200) => {
    const res = await fetch(`${base}${path}`, { method: "POST", headers, body: JSON.stringify(body) });
    if (res.status !== expect) throw new Error(`POST ${path}: ${res.status} ${(await res.text()).slice(0, 2000)}`);
    return res.json();
  };
  return { headers, cookie, post };
}

/** VmHWM / VmRSS of a process in MB (threads included), from /proc/<pid>/status. */
export function memMb(pid: number): { hwm: number; rss: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN);
  return { hwm: kb("VmHWM") / 1024, rss: kb("VmRSS") / 1024 };
}

/** Resets the peak RSS to the current RSS (Linux: `5` into clear_refs). False when not allowed. */
export function resetPeak(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, "5");
    return true;
  } catch {
    return false;
  }
}
