/**
 * Request-throughput benchmark: starts the real server as `npm start` would (default log level,
 * so the access log is included) and drives GET /system/health and GET /auth/me with keep-alive
 * connections from this process. Prints requests per second for each. The load generator shares
 * the machine's cores with the server, so the figures are a lower bound.
 *
 *   npm run bench                  # defaults: 5 s per endpoint, 64 in flight
 *   BENCH_SECONDS=10 BENCH_CONCURRENCY=128 npm run bench
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startBenchServer } from "./server.ts";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 64);


async function measure(name: string, url: string, headers: Record<string, string>) {
  const deadline = performance.now() + SECONDS * 1000;
  let ok = 0;
  let failed = 0;
  const worker = async () => {
    while (performance.now() < deadline) {
      const res = await fetch(url, { headers });
      await res.arrayBuffer();
      if (res.status === 200) ok++;
      else failed++;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const secs = (performance.now() - started) / 1000;
  console.log(`${name.padEnd(20)} ${(ok / secs).toFixed(0).padStart(7)} req/s  (${ok} ok, ${failed} failed, ${secs.toFixed(1)} s, ${CONCURRENCY} in flight)`);
}

const dataDir = mkdtempSync(join(tmpdir(), "pt-bench-"));
const { child, base } = await startBenchServer(dataDir);
try {
  const reg = await fetch(`${base}/auth/register`, {
    method: "POST", headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: "bench", email: "bench@example.com", password: "Bench-pass1" }),
  });
  if (reg.status !== 201) throw new Error(`register failed: ${reg.status}`);
  const login = await fetch(`${base}/auth/login`, {
    method: "POST", headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: "bench", password: "Bench-pass1" }),
  });
  const cookie = login.headers.getSetCookie()[0]!.split(";")[0]!;
  console.log(`bun ${Bun.version}, ${navigator.hardwareConcurrency} cores, server and load generator on the same machine`);
  await measure("warm-up", `${base}/system/health`, {});
  await measure("GET /system/health", `${base}/system/health`, {});
  await measure("GET /auth/me", `${base}/auth/me`, { cookie });
} finally {
  child.kill();
  await child.exited;
  rmSync(dataDir, { recursive: true, force: true });
}
