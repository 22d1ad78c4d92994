import { join, resolve } from "node:path";

export const ROOT = resolve(import.meta.dir, "..");

/**
 * Starts the real server as `npm start` would, on a free port with the given DATA_DIR, and waits
 * for its "listening" line (`env` adds to its environment: DATABASE_URL, JWT_SECRET). Its stdout keeps being drained so the server never blocks on a full pipe.
 */
export async function startBenchServer(dataDir: string, env: Record<string, string> = {}) {
  const child = Bun.spawn([process.execPath, join(ROOT, "host/main.ts")], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", PORT: "0", HOST: "127.0.0.1", DATA_DIR: dataDir, LOG_LEVEL: process.env.LOG_LEVEL ?? "info", ...env },
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
      void (async () => { while (!(await reader.read()).done); })();
      return { child, base: `http://127.0.0.1:${JSON.parse(line).port}/api/v1` };
    }
  }
}
