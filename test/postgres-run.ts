/**
 * `npm run test:postgres [-- paths and bun test options]`: the API suite against a real, throwaway
 * PostgreSQL (test/helpers/postgres.ts). Each test server gets its own database (the server helper
 * makes one per data dir when TEST_PG_ADMIN_URL is set). Without paths it runs test/api, test/multiprocess (several servers on one database)
 * and the schema upgrade test (test/host/db-upgrade.test.ts).
 * The database server is stopped and its files removed at the end, also on Ctrl-C.
 */
import { PG_ADMIN_ENV, startPostgres } from "./helpers/postgres.ts";

const args = process.argv.slice(2);
const paths = args.filter((a) => !a.startsWith("-") && !/^--/.test(a));
const options = args.filter((a) => a.startsWith("-"));
const server = await startPostgres();
const stop = async () => { await server.stop().catch((e) => console.error("stopping PostgreSQL:", e)); };
let child: ReturnType<typeof Bun.spawn> | undefined;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    child?.kill(signal);
    void stop().then(() => process.exit(130));
  });
}

let code = 1;
try {
  child = Bun.spawn([process.execPath, "test", "--timeout", "30000", ...options, ...(paths.length ? paths : ["test/api", "test/multiprocess", "test/host/db-upgrade.test.ts"])], {
    env: { ...process.env, [PG_ADMIN_ENV]: server.adminUrl },
    stdio: ["inherit", "inherit", "inherit"],
  });
  code = await child.exited;
} finally {
  await stop();
}
process.exit(code);
