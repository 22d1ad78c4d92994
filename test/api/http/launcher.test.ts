/**
 * `npm start` runs host/start.ts, which becomes the server in the same process (execve) under the
 * runtime options of host/runtime-env.ts: the memory the report phase is measured with
 * (docs/decisions.md, "Memory, third pass") is the memory users get. Linux: read from /proc.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { RUNTIME_ENV } from "../../../host/runtime-env.ts";
import { startServer, type TestServer } from "../../helpers/server.ts";

let server: TestServer;
let operatorSet: TestServer;

beforeAll(async () => {
  [server, operatorSet] = await Promise.all([startServer(), startServer({ env: { BUN_JSC_heapGrowthMaxIncrease: "1.5" } })]);
});

afterAll(async () => {
  await Promise.all([server?.stop(true), operatorSet?.stop(true)]);
});

function environ(pid: number): Record<string, string> {
  return Object.fromEntries(readFileSync(`/proc/${pid}/environ`, "utf8").split("\0").filter(Boolean).map((kv) => [kv.slice(0, kv.indexOf("=")), kv.slice(kv.indexOf("=") + 1)]));
}

test("the launcher becomes the server: the same process, running host/main.ts, under the runtime options", async () => {
  expect(Object.keys(RUNTIME_ENV)).toContain("BUN_JSC_heapGrowthMaxIncrease");
  const cmdline = readFileSync(`/proc/${server.pid}/cmdline`, "utf8").split("\0");
  expect(cmdline.some((a) => a.endsWith("host/main.ts"))).toBe(true);
  expect(cmdline.some((a) => a.endsWith("host/start.ts"))).toBe(false);
  const env = environ(server.pid);
  for (const [k, v] of Object.entries(RUNTIME_ENV)) expect(env[k]).toBe(v);
  // It answers on the port it announced (the process that logged "listening" is the one with this pid).
  expect((await fetch(`${server.base}/system/health`)).status).toBe(200);
});

test("an option the operator set is left as it is", () => {
  expect(environ(operatorSet.pid).BUN_JSC_heapGrowthMaxIncrease).toBe("1.5");
});
