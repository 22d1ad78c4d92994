/**
 * The server's launcher (`npm start`): replaces this process with `bun host/main.ts` under the
 * runtime options of host/runtime-env.ts (JavaScriptCore reads them only when a process starts).
 * `execve` keeps the process id, so a supervisor's signals reach the server itself and no second
 * process holds memory. Where `execve` is missing (Windows), the server starts here without them.
 */
import { join } from "node:path";
import { withRuntimeEnv } from "./runtime-env.ts";

const main = join(import.meta.dir, "main.ts");
if (typeof process.execve === "function") {
  // The runtime's own flags (`bun --smol host/start.ts`) carry over.
  process.execve(process.execPath, [process.execPath, ...process.execArgv, main, ...process.argv.slice(2)], withRuntimeEnv(process.env));
} else {
  await (await import("./main.ts")).run();
}
