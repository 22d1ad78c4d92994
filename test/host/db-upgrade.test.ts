import "reflect-metadata";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database as Sqlite } from "bun:sqlite";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { DataSource } from "typeorm";
import { sqliteDataSource } from "../../host/db/data-source.ts";
import { postgresDataSource } from "../../host/db/postgres-data-source.ts";
import { migrations } from "../../migrations/index.ts";
import type { ApiClient } from "../helpers/client.ts";
import { type InProcessApp, startInProcess } from "../helpers/in-process.ts";
import { createTestDatabase, dropTestDatabase, PG_ADMIN_ENV } from "../helpers/postgres.ts";

// A self-hoster upgrades a database full of their own rows: every migration must apply to a
// populated database and keep what is there, not only to the empty one the other tests start
// from. A database built by today's app is brought down to each older schema (the migrations'
// own `down`) and migrated up again: the rows the older schema held come back unchanged, and
// the server answers the same report, ledger and tokens as before. On SQLite, and on PostgreSQL
// under `npm run test:postgres` (its tier runs this file too).

/** The first migration whose `down` drops nothing the report reads (the ledger, assets, prices, FX tables stay). */
const FIRST_UNDONE = migrations.findIndex((m) => m.name.startsWith("Hardening"));

let dir = "";
let before: Answers;
let ownerId = 0;

interface Answers { report: unknown; transactions: unknown; tokens: unknown; brokers: unknown }

async function answers(c: ApiClient): Promise<Answers> {
  const json = async (res: Response) => {
    expect(res.status).toBe(200);
    return res.json();
  };
  const report = await json(await c.post("/portfolio/report", { date_range: { start: "2024-01-01", end: "2024-12-31" }, target_currency: "EUR" }));
  delete (report as { generated_at?: unknown }).generated_at;
  return {
    report,
    transactions: await json(await c.get("/transactions?limit=1000")),
    tokens: ((await json(await c.get("/auth/tokens"))) as { items: { name: string; scope: string }[] }).items.map((t) => [t.name, t.scope]),
    brokers: await json(await c.get("/brokers")),
  };
}

/** A database of the test: SQLite (a file) or, in the PostgreSQL tier, a database of its own. */
interface Store {
  /** A data source over it with every migration, not initialised. */
  source(): DataSource;
  /** Every row of every table but the migration log, by table, in a stable order. */
  tables(): Promise<Map<string, Record<string, unknown>[]>>;
  /** An independent copy (the store must have no open connection). */
  copy(name: string): Promise<Store>;
  /** The app built in this process over it. */
  app(): Promise<InProcessApp>;
}

const PG_ADMIN = process.env[PG_ADMIN_ENV];

function sqliteStore(file: string): Store {
  return {
    source: () => sqliteDataSource(file),
    tables: async () => {
      const db = new Sqlite(file, { readonly: true });
      try {
        const names = db.query<{ name: string }, []>(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'migrations' ORDER BY name`).all();
        return new Map(names.map(({ name }) => [name, db.query<Record<string, unknown>, []>(`SELECT * FROM "${name}" ORDER BY rowid`).all()]));
      } finally {
        db.close();
      }
    },
    copy: async (name) => {
      const to = join(dir, `${name}.sqlite`);
      copyFileSync(file, to);
      return sqliteStore(to);
    },
    app: () => startInProcess({ template: file }),
  };
}

const pgDatabases: string[] = [];

function postgresStore(url: string): Store {
  return {
    source: () => postgresDataSource(url, 1),
    tables: async () => {
      const source = postgresDataSource(url, 1);
      await source.initialize();
      try {
        const names: { name: string }[] = await source.query(`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name <> 'migrations' ORDER BY 1`);
        const out = new Map<string, Record<string, unknown>[]>();
        for (const { name } of names) {
          out.set(name, await source.query(`SELECT * FROM "${name}"`));
        }
        return out;
      } finally {
        await source.destroy();
      }
    },
    copy: async (name) => {
      const from = decodeURIComponent(new URL(url).pathname.slice(1));
      const to = await createTestDatabase(PG_ADMIN!, `${from}_${name.replaceAll("-", "_")}`.slice(0, 63), from);
      pgDatabases.push(to);
      return postgresStore(to);
    },
    app: async () => {
      // The app opens the database `DATABASE_URL` names (host/db/data-source.ts).
      const saved = process.env.DATABASE_URL;
      process.env.DATABASE_URL = url;
      try {
        return await startInProcess();
      } finally {
        if (saved === undefined) delete process.env.DATABASE_URL;
        else process.env.DATABASE_URL = saved;
      }
    },
  };
}

let template: Store;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "pt-upgrade-"));
  let seeded: Store | undefined;
  if (PG_ADMIN) {
    const url = await createTestDatabase(PG_ADMIN);
    pgDatabases.push(url);
    seeded = postgresStore(url);
  }
  const app = seeded ? await seeded.app() : await startInProcess();
  const alice = app.client();
  const bob = app.client();
  ownerId = (await alice.signUp("alice")).id;
  const bobId = (await bob.signUp("bob")).id;
  const ok = async (res: Response) => {
    const body = await res.json();
    if (res.status >= 300) throw new Error(`${res.status} ${JSON.stringify(body)}`);
    return body as any;
  };
  const brokers = (await ok(await alice.post("/brokers", [{ name: "Main", opened_at: "2023-12-01" }, { name: "US", opened_at: "2023-12-01" }]))).results.map((r: any) => r.broker_id);
  await ok(await alice.post(`/brokers/${brokers[0]}/access`, { user_id: bobId, role: "VIEWER" }));
  const assets = (await ok(await alice.post("/assets", [
    { name: "World ETF", currency: "EUR", identifier_isin: "IE00B4L5Y983" },
    { name: "Apple", currency: "USD", identifier_ticker: "AAPL" },
  ]))).results.map((r: any) => r.asset_id);
  await ok(await alice.post("/assets/prices", [
    { asset_id: assets[0], prices: [{ date: "2024-01-02", close: "80.12" }, { date: "2024-06-03", close: "91.5" }] },
    { asset_id: assets[1], prices: [{ date: "2024-01-02", close: "185.64" }, { date: "2024-06-03", close: "194.03" }] },
  ]));
  await ok(await alice.post("/fx/currencies/rate", [{ date: "2024-01-02", base: "EUR", quote: "USD", rate: "1.0956" }, { date: "2024-06-03", base: "EUR", quote: "USD", rate: "1.0883" }]));
  await ok(await alice.post("/assets/events", [{ asset_id: assets[1], events: [{ date: "2024-05-16", type: "DIVIDEND", value: { code: "USD", amount: "0.25" } }] }]));
  const commit = await ok(await alice.post("/transactions/commit", { creates: [
    { broker_id: brokers[0], type: "DEPOSIT", date: "2024-01-02", cash: { code: "EUR", amount: "10000" } },
    { broker_id: brokers[0], asset_id: assets[0], type: "BUY", date: "2024-01-03", quantity: "50", cash: { code: "EUR", amount: "-4006.00" }, description: "monthly plan" },
    { broker_id: brokers[1], type: "DEPOSIT", date: "2024-01-02", cash: { code: "USD", amount: "5000" } },
    { broker_id: brokers[1], asset_id: assets[1], type: "BUY", date: "2024-01-04", quantity: "10", cash: { code: "USD", amount: "-1856.40" } },
    { broker_id: brokers[1], asset_id: assets[1], type: "SELL", date: "2024-06-03", quantity: "-4", cash: { code: "USD", amount: "776.12" } },
  ] }));
  if (!commit.committed) throw new Error(`the seed's commit was refused: ${JSON.stringify(commit)}`);
  await ok(await alice.post("/auth/tokens", { name: "spreadsheet", scope: "read" }));
  before = await answers(await app.signedIn(ownerId));
  if (seeded) {
    await app.close();
    template = seeded;
    return;
  }
  // A copy with what the WAL holds (the report thread's connection stays open, so closing does not checkpoint it).
  const file = join(dir, "populated.sqlite");
  const live = new Sqlite(app.dbFile);
  live.run("VACUUM INTO ?", [file]);
  live.close();
  await app.close();
  template = sqliteStore(file);
});

afterAll(async () => {
  for (const url of pgDatabases) await dropTestDatabase(PG_ADMIN!, url);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** `rows` with only `columns`, in one order whatever order the database gave them in. */
function projected(rows: Record<string, unknown>[], columns: string[]): Record<string, unknown>[] {
  const keyed = rows.map((r) => Object.fromEntries(columns.map((c) => [c, r[c]])));
  return keyed.map((r) => [JSON.stringify(r), r] as const).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, r]) => r);
}

describe("an upgrade keeps every row of a populated database", () => {
  test("the populated database holds what the checks below compare", async () => {
    const rows = await template.tables();
    expect(rows.get("transactions")!.length).toBe(5);
    expect(rows.get("price_history")!.length).toBe(4);
    expect(rows.get("broker_access")!.length).toBe(3);
    expect(FIRST_UNDONE).toBeGreaterThan(0);
  });

  // Each older schema from the newest back to the first whose `down` keeps the report's tables.
  for (let at = migrations.length - 1; at >= Math.max(FIRST_UNDONE, 1); at--) {
    const from = migrations[at - 1]!.name.replace(/\d+$/, "");
    test(`from the schema after ${from}: migrating up keeps every row, and the server answers as before`, async () => {
      const store = await template.copy(`at-${at}`);
      const source = store.source();
      await source.initialize();
      for (let i = migrations.length; i > at; i--) await source.undoLastMigration({ transaction: "each" });
      await source.destroy();
      const old = await store.tables();

      const upgraded = store.source();
      await upgraded.initialize();
      await upgraded.runMigrations({ transaction: "each" });
      await upgraded.destroy();
      const now = await store.tables();
      for (const [name, rows] of old) {
        const columns = Object.keys(rows[0] ?? {});
        expect({ name, rows: projected(now.get(name)!, columns) }).toEqual({ name, rows: projected(rows, columns) });
      }

      const app = await store.app();
      try {
        const after = await answers(await app.signedIn(ownerId));
        // Tokens were added by a later schema than some of these: an older one had none to keep.
        const hadTokens = old.has("access_tokens");
        expect({ ...after, tokens: hadTokens ? after.tokens : before.tokens }).toEqual(before);
      } finally {
        await app.close();
      }
    });
  }
});
