import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { ApiClient } from "../helpers/client.ts";
import { runCli } from "../helpers/cli.ts";
import { createTestDatabase, startPostgres, type TestPostgres } from "../helpers/postgres.ts";
import { startServer, tempDataDir, type TestServer } from "../helpers/server.ts";
import { buy, commitOk, deposit, looseBroker, transferPair } from "../api/transactions/fixtures.ts";

/**
 * `npm run cli -- db copy-to-postgres <url>` (docs/deploy.md "Moving to PostgreSQL"): an
 * installation seeded through the API on SQLite, copied into an empty PostgreSQL database, answers
 * the same portfolio report and ledger from PostgreSQL. Brings its own throwaway PostgreSQL.
 */
let pgServer: TestPostgres;
let dataDir = "";
let server: TestServer | undefined;
// SQLite even under `npm run test:postgres`: the source of the copy.
const sqliteEnv = { DATABASE_URL: "", JWT_SECRET: "copy-test-secret" };

beforeAll(async () => {
  pgServer = await startPostgres();
  dataDir = tempDataDir("pt-copy-");
});

afterAll(async () => {
  await server?.stop();
  await pgServer?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const REPORT = { include_allocation_history: true, date_range: { start: "2024-01-01", end: "2024-06-30" } };

async function snapshot(c: ApiClient) {
  const report = await (await c.post("/portfolio/report", REPORT)).json() as any;
  delete report.metadata?.generated_at;
  const transactions = await (await c.get("/transactions?limit=1000")).json();
  const brokers = await (await c.get("/brokers")).json();
  return { report, transactions, brokers };
}

describe("db copy-to-postgres", () => {
  test("copies every row; the PostgreSQL installation answers the same report and ledger", async () => {
    server = await startServer({ dataDir, env: sqliteEnv });
    const c = new ApiClient(server.base);
    await c.signUp("mover");
    const [one, two] = [await looseBroker(c, "One"), await looseBroker(c, "Two")];
    const asset = (await (await c.post("/assets", [{ name: "Moved", currency: "EUR" }])).json() as any).results[0].asset_id;
    await commitOk(c, { creates: [deposit(one, "1000", "2024-01-01"), buy(one, asset, "10", "-100", "2024-01-02"), buy(one, asset, "5", "-60", "2024-01-10")] });
    // A linked pair: a transaction that references another row of its own table.
    await commitOk(c, { creates: transferPair(one, two, asset, "4", crypto.randomUUID()) });
    expect((await c.post("/assets/prices", [{ asset_id: asset, prices: [{ date: "2024-03-01", close: "13.5" }] }])).status).toBe(200);
    expect((await c.post("/fx/currencies/rate", [{ date: "2024-01-02", base: "EUR", quote: "USD", rate: "1.0987654321" }])).status).toBe(200);
    const before = await snapshot(c);
    expect(before.report.summary.net_worth.code).toBe("EUR");
    expect((before.transactions as any[]).some((t) => t.related_transaction_id !== null)).toBe(true);
    await server.stop();
    server = undefined;

    const url = await createTestDatabase(pgServer.adminUrl);
    const copy = await runCli(dataDir, "db", "copy-to-postgres", url);
    expect(copy.stderr).toBe("");
    expect(copy.code).toBe(0);
    expect(copy.stdout).toContain("transactions: 5 rows");
    expect(copy.stdout).toContain("row counts verified");

    server = await startServer({ dataDir, env: { DATABASE_URL: url, JWT_SECRET: sqliteEnv.JWT_SECRET } });
    const after = new ApiClient(server.base);
    expect((await after.login("mover")).status).toBe(200);
    expect(await snapshot(after)).toEqual(before);
    // New rows continue after the copied ids.
    await commitOk(after, { creates: [deposit(two, "1", "2024-02-01")] });
    const ids = ((await (await after.get("/transactions?limit=1000")).json()) as any[]).map((t) => t.id);
    expect(ids).toHaveLength((before.transactions as any[]).length + 1);
    expect(Math.max(...ids)).toBeGreaterThan(Math.max(...(before.transactions as any[]).map((t) => t.id)));

    // A second copy into the now used database is refused, and changes nothing.
    const again = await runCli(dataDir, "db", "copy-to-postgres", url);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain("not empty");
  }, 120_000);
});
