/**
 * The app built in this process over a fresh, migrated temporary SQLite file, without a listening
 * server or started schedules: requests go straight to `app.handle`. Assembled by `host/main.ts`'s
 * own `assemble` (offline built-in plugins), so seeding through it applies every rule the real
 * server applies. For tests that then call core
 * code (the portfolio engine) on the same file; HTTP behaviour itself is tested on `startServer`.
 */
import "reflect-metadata";
import { afterAll, afterEach, beforeAll } from "bun:test";
import { copyFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { DependencyContainer } from "tsyringe";
import { loadConfig } from "../../host/config.ts";
import { databaseFile } from "../../host/db/data-source.ts";
import { rememberSocketAddress } from "../../host/http/client-address.ts";
import { issueToken } from "../../host/http/session.ts";
import { createLogger } from "../../host/logger.ts";
import { assemble } from "../../host/main.ts";
import { ApiClient } from "./client.ts";
import { OFFLINE_PLUGIN_CONFIG } from "./offline-plugins.ts";
import { tempDataDir } from "./server.ts";

export interface InProcessApp {
  readonly base: string;
  readonly dataDir: string;
  readonly dbFile: string;
  readonly container: DependencyContainer;
  /** `fetch` for {@link ApiClient}: the request is handled by the app in this process. */
  readonly send: typeof fetch;
  client(): ApiClient;
  /** A client signed in as an existing account, by a session token signed here (no password check). */
  signedIn(userId: number): Promise<ApiClient>;
  /** Closes the database (checkpointing the WAL into the file) and removes the data dir unless kept. */
  close(opts?: { keepDataDir?: boolean }): Promise<void>;
}

/**
 * `template`: a database file (closed, e.g. one this helper built and closed) copied in as the
 * starting data, so the migrations and slow setup (argon2 sign-ups) run once for many tests.
 */
export async function startInProcess(opts: { template?: string } = {}): Promise<InProcessApp> {
  const dataDir = tempDataDir("pt-inproc-");
  if (opts.template) copyFileSync(opts.template, databaseFile(dataDir));
  writeFileSync(join(dataDir, "plugins.json"), JSON.stringify(OFFLINE_PLUGIN_CONFIG));
  const config = loadConfig({ DATA_DIR: dataDir, PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "silent" });
  const { app, db, container, sessionKey: key } = await assemble(config, createLogger(config.logLevel));
  const base = "http://in-process.test/api/v1";
  const send = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    rememberSocketAddress(request, "127.0.0.1");
    return app.handle(request);
  }) as typeof fetch;
  return {
    base, dataDir, dbFile: databaseFile(config.dataDir), container, send,
    client: () => new ApiClient(base, send),
    signedIn: async (userId) => {
      const c = new ApiClient(base, send);
      c.cookie = `session=${await issueToken(key, userId, 3600)}`;
      return c;
    },
    close: async ({ keepDataDir = false } = {}) => {
      await db.close();
      if (!keepDataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * One in-process app for a test file, with `username` signed up: started before the file's tests,
 * closed after them; spies pushed to `spies` are restored after each test. `app` and `c` are
 * readable from the file's own `beforeAll` hooks registered after this call, and in its tests.
 */
export function useInProcess(username: string): { readonly app: InProcessApp; readonly c: ApiClient; readonly spies: { mockRestore(): void }[] } {
  let app: InProcessApp | undefined;
  let c: ApiClient | undefined;
  const spies: { mockRestore(): void }[] = [];
  beforeAll(async () => {
    app = await startInProcess();
    c = app.client();
    await c.signUp(username);
  }, 30_000);
  afterEach(() => {
    for (const s of spies.splice(0)) s.mockRestore();
  });
  afterAll(async () => {
    await app?.close();
  });
  return { get app() { return app!; }, get c() { return c!; }, spies };
}
