import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startBenchServer } from "./server.ts";

/**
 * `/auth/me` throughput with revocable sessions (docs/security.md "Sessions"; target above 5,000 req/s).
 * Starts the server, logs in, and prints the session cookie and URL for `wrk`, then waits:
 *   bun bench/auth-me.ts   →   wrk -t2 -c64 -d10s -H "Cookie: <cookie>" <url>
 * With `--logout-one`, one other session of the account is revoked first, so the revocation list is not empty.
 */
const dataDir = mkdtempSync(join(tmpdir(), "pt-bench-me-"));
const { child, base } = await startBenchServer(dataDir);
const post = (path: string, body: unknown, cookie = "") =>
  fetch(base + path, { method: "POST", headers: { "content-type": "application/json", cookie }, body: JSON.stringify(body) });
await post("/auth/register", { username: "bench", email: "bench@example.com", password: "Secret-pass1" });
const login = async () => (await post("/auth/login", { username: "bench", password: "Secret-pass1" })).headers.getSetCookie()[0]!.split(";")[0]!;
if (process.argv.includes("--logout-one")) await post("/auth/logout", {}, await login());
const cookie = await login();
console.log(JSON.stringify({ url: `${base}/auth/me`, cookie }));
const stop = () => { child.kill(); rmSync(dataDir, { recursive: true, force: true }); process.exit(0); };
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
await Bun.sleep(Number(process.env.BENCH_SECONDS ?? 60) * 1000);
stop();
