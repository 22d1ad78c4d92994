import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll } from "bun:test";
import { ApiClient } from "./client.ts";
import { OFFLINE_PLUGIN_CONFIG } from "./offline-plugins.ts";
import { createTestDatabase, dropTestDatabase, PG_ADMIN_ENV } from "./postgres.ts";
import { execDb } from "./test-db.ts";

export const ROOT = resolve(import.meta.dir, "../..");
const BUN = process.execPath;

export function tempDataDir(prefix = "pt-test-"): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export interface TestServer {
  /** The server's process id (`npm start`'s launcher becomes the server: the same process). */
  readonly pid: number;
  readonly url: string;
  readonly base: string;
  readonly dataDir: string;
  /** Every log line the server printed so far, parsed. */
  logs(): Record<string, any>[];
  /** Stops the process; keeps the data dir unless `cleanup` is true. */
  stop(cleanup?: boolean): Promise<void>;
  /** Kills the process at once (SIGKILL: no shutdown), as a crash or power cut would; keeps the data dir. */
  kill(): Promise<void>;
  /** Resolves with the first log line whose `msg` is `msg`, already printed or still to come. */
  waitForLog(msg: string): Promise<Record<string, any>>;
}

/**
 * Sets the admin's outbound allow-list (`outbound_allowed_hosts`) of a running test server, the
 * way an administrator would store it: tests list exactly their local fakes (`127.0.0.1:<port>`),
 * so the SDK's destination check stays on for every other address.
 */
export function allowOutbound(dataDir: string, hosts: readonly string[]): void {
  execDb(dataDir, [{ sql: `UPDATE global_settings SET value = ? WHERE key = 'outbound_allowed_hosts'`, params: [hosts.join(",")] }]);
}

const DATABASE_URL_FILE = ".test-database-url";

/**
 * The PostgreSQL database of a test data dir under `npm run test:postgres` (TEST_PG_ADMIN_URL set),
 * else undefined (SQLite in the data dir). Each data dir gets its own database, made on first use
 * and named in the data dir, so a server restarted on the same data dir finds its data again.
 */
export function testDatabaseUrl(dataDir: string): string | undefined {
  const file = join(dataDir, DATABASE_URL_FILE);
  return existsSync(file) ? readFileSync(file, "utf8").trim() : undefined;
}

/** Databases being made, by data dir: servers started together on one data dir share one (test/multiprocess). */
const making = new Map<string, Promise<string>>();

async function ensureTestDatabase(dataDir: string): Promise<string | undefined> {
  const admin = process.env[PG_ADMIN_ENV];
  if (!admin) return undefined;
  const known = testDatabaseUrl(dataDir);
  if (known) return known;
  let pending = making.get(dataDir);
  if (!pending) {
    pending = createTestDatabase(admin).then((url) => {
      writeFileSync(join(dataDir, DATABASE_URL_FILE), url);
      return url;
    }).finally(() => making.delete(dataDir));
    making.set(dataDir, pending);
  }
  return pending;
}

/**
 * Starts the real server as `npm start` does (`bun host/start.ts`) as a child process on a free port with its own
 * DATA_DIR, and waits for its "listening" log line. `allowOutbound` lists the local fakes its
 * plugins may reach (see {@link allowOutbound}).
 */
export async function startServer(
  opts: { allowOutbound?: readonly string[]; dataDir?: string; env?: Record<string, string> } = {},
): Promise<TestServer> {
  const dataDir = opts.dataDir ?? tempDataDir();
  // Built-in network plugins read DATA_DIR/plugins.json unless PLUGINS_CONFIG names another file.
  if (!opts.env?.PLUGINS_CONFIG && !existsSync(join(dataDir, "plugins.json"))) {
    writeFileSync(join(dataDir, "plugins.json"), JSON.stringify(OFFLINE_PLUGIN_CONFIG));
  }
  const pgUrl = opts.env?.DATABASE_URL === undefined ? await ensureTestDatabase(dataDir) : undefined;
  const env: Record<string, string> = {
    ...(pgUrl ? { DATABASE_URL: pgUrl } : {}),
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? "/tmp",
    PORT: "0",
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    LOG_LEVEL: "info",
    // The background risk warm-up (docs/risk.md "Performance") would take the pool's threads for a
    // while after every start; test/api/risk/risk-warm-up.test.ts turns it back on.
    RISK_WARM_UP: "0",
    ...opts.env,
  };
  const child = Bun.spawn([BUN, join(ROOT, "host/start.ts")], { cwd: ROOT, env, stdout: "pipe", stderr: "pipe" });
  const lines: Record<string, any>[] = [];
  const waiting: { msg: string; resolve: (entry: Record<string, any>) => void }[] = [];
  let stderr = "";
  void (async () => {
    for await (const chunk of child.stderr) stderr += new TextDecoder().decode(chunk);
  })();
  const port = await new Promise<number>((resolvePort, reject) => {
    // Generous: on a loaded two-core machine (the suite's own PostgreSQL, parallel work) start-up took over 15 s.
    const timer = setTimeout(() => reject(new Error(`server did not start in 60 s\n${stderr}`)), 60_000);
    void (async () => {
      let buffer = "";
      for await (const chunk of child.stdout) {
        buffer += new TextDecoder().decode(chunk);
        let nl: number;
        while ((nl = buffer.indexOf("\n")) >= 0) {
          const line = buffer.slice(0, nl);
          buffer = buffer.slice(nl + 1);
          try {
            const entry = JSON.parse(line);
            lines.push(entry);
            for (const w of waiting.filter((w) => w.msg === entry.msg)) { waiting.splice(waiting.indexOf(w), 1); w.resolve(entry); }
            if (entry.msg === "listening") { clearTimeout(timer); resolvePort(entry.port); }
          } catch {
            lines.push({ raw: line });
          }
        }
      }
      clearTimeout(timer);
      reject(new Error(`server exited before listening (code ${await child.exited})\n${stderr}`));
    })().catch(reject);
  });
  const url = `http://127.0.0.1:${port}`;
  if (opts.allowOutbound) allowOutbound(dataDir, opts.allowOutbound);
  return {
    pid: child.pid,
    url,
    base: `${url}/api/v1`,
    dataDir,
    logs: () => lines,
    async stop(cleanup = false) {
      child.kill("SIGTERM");
      await child.exited;
      if (cleanup) {
        const admin = process.env[PG_ADMIN_ENV];
        if (admin && pgUrl) await dropTestDatabase(admin, pgUrl).catch(() => undefined);
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
    async kill() {
      child.kill("SIGKILL");
      await child.exited;
    },
    waitForLog(msg) {
      const seen = lines.find((entry) => entry.msg === msg);
      return seen ? Promise.resolve(seen) : new Promise((resolve) => waiting.push({ msg, resolve }));
    },
  };
}

/** What {@link useApi} hands a test file: the running server and a logged-in client per user name. */
export interface UsedApi {
  /** The server of this file (set in `beforeAll`). */
  readonly server: TestServer;
  readonly base: string;
  readonly dataDir: string;
  /** A fresh client without a session. */
  client(): ApiClient;
  /** The client of each name in `users` (registered and logged in, in order: the first is the superuser). */
  readonly as: Record<string, ApiClient>;
  /** The user row of each name in `users`. */
  readonly users: Record<string, { id: number; username: string; is_superuser: boolean }>;
}

/**
 * The one start-up block of an HTTP test file: starts the real server before the file's tests
 * (with `env` and, optionally, registered users), stops it and removes its data after them.
 * Example: `const api = useApi({ users: ["alice", "bob"] }); ... api.as.alice.get("/brokers")`.
 */
export function useApi(opts: { env?: Record<string, string>; users?: string[]; dataDir?: string } = {}): UsedApi {
  let server: TestServer | undefined;
  const as: Record<string, ApiClient> = {};
  const users: Record<string, { id: number; username: string; is_superuser: boolean }> = {};
  const need = () => {
    if (!server) throw new Error("useApi: the server starts in beforeAll; use it inside tests or hooks");
    return server;
  };
  beforeAll(async () => {
    server = await startServer({ env: opts.env, dataDir: opts.dataDir });
    for (const name of opts.users ?? []) {
      const c = new ApiClient(server.base);
      users[name] = await c.signUp(name);
      as[name] = c;
    }
  }, 90_000);
  afterAll(async () => { await server?.stop(true); });
  return {
    get server() { return need(); },
    get base() { return need().base; },
    get dataDir() { return need().dataDir; },
    client: () => new ApiClient(need().base),
    as,
    users,
  };
}
