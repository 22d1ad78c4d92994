import { join } from "node:path";
import { ROOT, testDatabaseUrl } from "./server.ts";

/** Runs `bun host/cli/main.ts ...args` on a DATA_DIR; returns exit code and output. */
export async function runCli(dataDir: string, ...args: string[]) {
  const proc = Bun.spawn([process.execPath, join(ROOT, "host/cli/main.ts"), ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", DATA_DIR: dataDir, ...databaseEnv(dataDir) },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited,
  ]);
  return { code, stdout, stderr };
}

/** DATABASE_URL of the data dir's PostgreSQL database under `npm run test:postgres`, else nothing (SQLite). */
function databaseEnv(dataDir: string): Record<string, string> {
  const url = testDatabaseUrl(dataDir);
  return url ? { DATABASE_URL: url } : {};
}
