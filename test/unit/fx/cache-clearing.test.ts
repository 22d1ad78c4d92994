import "reflect-metadata";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { CacheRegistry } from "../../../core/cache/cache-registry.ts";
import type { Database } from "../../../core/db/database.ts";
import { PORTFOLIO_CACHES } from "../../../core/cache/portfolio-caches.ts";
import { FxRateService } from "../../../core/fx/fx-rate.service.ts";
import { FxSyncService } from "../../../core/fx/fx-sync.service.ts";
import { ok, type FxProvider } from "../../../sdk/index.ts";
import { changeSource } from "../../../host/db/change-journal.ts";
import { openDatabase } from "../../../host/db/data-source.ts";
import { tempDataDir } from "../../helpers/server.ts";

/**
 * Every rate write declares its change, which clears the portfolio caches at the next sync (as
 * every cached read does first); a write that changed nothing declares nothing.
 */
let dir: string;
let db: Database;
let caches: CacheRegistry;

const fill = () => { for (const name of PORTFOLIO_CACHES) caches.get<{ v: number }>(name).set("k", { v: 1 }); };
const sizes = () => PORTFOLIO_CACHES.map((name) => caches.get(name).size);

const provider: FxProvider = {
  baseCurrencies: ["EUR"] as never,
  targetCurrencies: ["USD"] as never,
  getRates: async ({ pairs }) => pairs.map(() => ok([{ date: "2024-01-02", rate: "1.1" }] as never)),
};

beforeAll(async () => {
  dir = tempDataDir("pt-fx-cache-");
  db = await openDatabase(dir);
  await db.write((tx) => tx.query(`INSERT INTO fx_routes (base, quote, priority, chain_steps) VALUES ('EUR', 'USD', 1, ?)`,
    [JSON.stringify([{ from: "EUR", to: "USD", provider: "P" }])]));
});
afterAll(async () => { await db.close(); rmSync(dir, { recursive: true, force: true }); });
beforeEach(async () => {
  caches = new CacheRegistry();
  await caches.followChanges(changeSource(db));
  fill();
});

describe("portfolio caches on rate writes", () => {
  test("a manual upsert clears them; re-posting the same value does not", async () => {
    const rates = new FxRateService(db);
    await rates.upsert([{ base: "EUR", date: "2024-01-01", quote: "GBP", rate: "0.9" }]);
    await caches.sync();
    expect(sizes()).toEqual(PORTFOLIO_CACHES.map(() => 0));
    fill();
    await rates.upsert([{ base: "EUR", date: "2024-01-01", quote: "GBP", rate: "0.90" }]);
    await caches.sync();
    expect(sizes()).toEqual(PORTFOLIO_CACHES.map(() => 1));
  });

  test("a delete that removed rows clears them; one that removed nothing does not", async () => {
    const rates = new FxRateService(db);
    await rates.delete([{ from: "CAD", to: "SEK", deleteAll: true }]);
    await caches.sync();
    expect(sizes()).toEqual(PORTFOLIO_CACHES.map(() => 1));
    await rates.delete([{ from: "GBP", to: "EUR", dateRange: { start: "2024-01-01", end: "2024-01-01" } }]);
    await caches.sync();
    expect(sizes()).toEqual(PORTFOLIO_CACHES.map(() => 0));
  });

  test("a sync that changed points clears them; a sync that changed nothing does not", async () => {
    const sync = new FxSyncService(db, caches);
    const out = await sync.sync({ end: "2024-01-05", pairs: ["EUR-USD"], start: "2024-01-01" }, (code) => (code === "P" ? provider : undefined), "2024-02-01");
    expect(out.totalPointsChanged).toBe(1);
    await caches.sync();
    expect(sizes()).toEqual(PORTFOLIO_CACHES.map(() => 0));
    fill();
    await new FxSyncService(db, caches).sync({ end: "2024-01-05", pairs: ["EUR-USD"], start: "2024-01-01" }, () => provider, "2024-02-01");
    await caches.sync();
    expect(sizes()).toEqual(PORTFOLIO_CACHES.map(() => 1));
  });

  test("clearing never creates a portfolio cache that did not exist", async () => {
    caches = new CacheRegistry();
    await caches.followChanges(changeSource(db));
    await new FxRateService(db).upsert([{ base: "EUR", date: "2024-03-01", quote: "GBP", rate: "0.7" }]);
    await caches.sync();
    expect(caches.status().map((s) => s.name)).toEqual([]);
  });
});
