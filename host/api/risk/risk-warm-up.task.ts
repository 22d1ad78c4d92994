import { Database } from "bun:sqlite";
import { existsSync } from "node:fs";
import type { QueryRunner } from "typeorm";
import { migrations } from "../../../migrations/index.ts";
import { addDays } from "../../../core/dates/calendar.ts";
import { builtinPlugins } from "../../../plugins/index.ts";
import { sqliteReader, sqliteSqlReader } from "../../db/read-snapshot.ts";
import { type PackedRiskData, riskAnalytic, riskDataOn } from "./risk.task.ts";

/** The tables the risk loader reads; their schema is copied from the real database file. */
const TABLES = ["assets", "asset_events", "asset_provider_assignments", "brokers", "fx_rates", "fx_routes", "price_history", "transactions"];
const ASSETS = 8;
export const DAYS = 730;
export const START = "2020-01-01";

export interface RiskWarmUpTask {
  dbFile: string;
  /** Shared counter of warm-up tasks started; each task holds its thread until `threads` have started. */
  started: Int32Array;
  threads: number;
  /** How long a task waits for the others before giving up (ms). */
  waitMs: number;
}

let warmed = false;

/**
 * A small synthetic ledger in memory with the real file's schema: 2 brokers, 8 assets in EUR and USD
 * with two years of daily quotes, daily EUR/USD rates, and ~1,800 transactions of the kinds a real
 * ledger has (deposits, buys, sells, dividends, fees, taxes, withdrawals, linked transfers and
 * currency conversions), so the replay's paths for each are compiled. Deterministic (no randomness), so every warm-up runs the same code paths.
 */
export async function syntheticLedger(dbFile: string): Promise<Database> {
  const mem = new Database(":memory:");
  if (existsSync(dbFile)) {
    const real = sqliteReader(dbFile);
    const marks = TABLES.map(() => "?").join(",");
    for (const { sql } of real.query(`SELECT sql FROM sqlite_master WHERE type = 'table' AND name IN (${marks})`).all(...TABLES) as { sql: string }[]) mem.exec(sql);
  } else {
    // No SQLite file (the server runs on PostgreSQL): the same schema from the migrations' SQLite DDL.
    const runner = { query: async (sql: string) => { mem.exec(sql); }, connection: { options: { type: "better-sqlite3" } } } as unknown as QueryRunner;
    for (const Migration of migrations) await new Migration().up(runner);
  }
  mem.transaction(() => {
    mem.run(`INSERT INTO brokers (id, name) VALUES (1, 'Warm-up A'), (2, 'Warm-up B')`);
    const asset = mem.prepare(`INSERT INTO assets (id, name, currency, asset_type) VALUES (?, ?, ?, ?)`);
    const price = mem.prepare(`INSERT INTO price_history (asset_id, date, close, currency, source_plugin_key) VALUES (?, ?, ?, ?, 'manual')`);
    const rate = mem.prepare(`INSERT INTO fx_rates (base, quote, provider, date, rate, source) VALUES ('EUR', 'USD', 'MANUAL', ?, ?, 'MANUAL')`);
    const tx = mem.prepare(`INSERT INTO transactions (broker_id, asset_id, type, date, quantity, amount, currency) VALUES (?, ?, ?, ?, ?, ?, ?)`);
    const link = mem.prepare(`UPDATE transactions SET related_transaction_id = ? WHERE id = ?`);
    type Row = [number, number | null, string, string, string | null, string | null];
    const pair = (date: string, [b1, a1, t1, q1, m1, c1]: Row, [b2, a2, t2, q2, m2, c2]: Row) => {
      const first = Number(tx.run(b1, a1, t1, date, q1, m1, c1).lastInsertRowid);
      const second = Number(tx.run(b2, a2, t2, date, q2, m2, c2).lastInsertRowid);
      link.run(second, first);
      link.run(first, second);
    };
    const closes: number[][] = [];
    for (let a = 1; a <= ASSETS; a++) {
      const currency = a % 2 === 0 ? "USD" : "EUR";
      asset.run(a, `Warm-up ${a}`, currency, a % 3 === 0 ? "ETF" : "STOCK");
      const series: number[] = [];
      for (let d = 0; d < DAYS; d++) {
        const close = Math.round((100 + 10 * a) * (1 + 0.2 * Math.sin((d + 13 * a) / (20 + a)) + 0.0004 * d) * 100) / 100;
        series.push(close);
        if ((d + a) % 7 !== 0) price.run(a, addDays(START, d), close.toFixed(2), currency);
      }
      closes.push(series);
    }
    for (let d = 0; d < DAYS; d++) rate.run(addDays(START, d), (1.1 + 0.05 * Math.sin(d / 30)).toFixed(6));
    for (const broker of [1, 2]) {
      tx.run(broker, null, "DEPOSIT", START, "0", "1000000", "EUR");
      tx.run(broker, null, "DEPOSIT", START, "0", "1000000", "USD");
    }
    for (let d = 1; d < DAYS; d++) {
      const a = 1 + (d % ASSETS);
      const broker = 1 + (d % 2);
      const date = addDays(START, d);
      const currency = a % 2 === 0 ? "USD" : "EUR";
      const px = closes[a - 1]![d]!;
      tx.run(broker, a, "BUY", date, "10", (-10 * px).toFixed(2), currency);
      if (d % 3 === 0) tx.run(broker, a, "SELL", date, "-4", (4 * px).toFixed(2), currency);
      if (d % 30 === 0) tx.run(broker, a, "DIVIDEND", date, "0", "12.5", currency);
      if (d % 45 === 0) tx.run(broker, null, "FEE", date, "0", "-3", "EUR");
      if (d % 20 === 0) tx.run(broker, a, "TAX", date, "0", "-1.5", currency);
      if (d % 60 === 0) tx.run(broker, null, "WITHDRAWAL", date, "0", "-100", "EUR");
      // Linked pairs: a transfer of units from broker 1 (which buys the even assets) to broker 2, and a currency conversion.
      if (d >= 100 && d % 25 === 0) pair(date, [1, 2 + 2 * (d % 4), "TRANSFER", "-2", null, null], [2, 2 + 2 * (d % 4), "TRANSFER", "2", null, null]);
      if (d % 40 === 0) pair(date, [broker, null, "FX_CONVERSION", "0", "-100", "EUR"], [broker, null, "FX_CONVERSION", "0", "110", "USD"]);
    }
  })();
  return mem;
}

/**
 * Warms one pool thread for risk queries, in the background after start-up (docs/risk.md
 * "Performance"): the first query after start otherwise pays for loading the risk modules and for
 * the JIT compiling the loader, the replay and the analytics on a cold thread (1.3–1.6 s instead of
 * ~0.6 s). Runs the risk loader on a synthetic in-memory ledger with the real file's schema, then
 * every built-in analytic on its series; nothing of the caller's data is read but the schema. The
 * task then holds its thread until every warm-up task has started, so each thread gets one.
 */
export async function riskWarmUp(task: RiskWarmUpTask): Promise<{ warmed: boolean; ms: number }> {
  const t0 = performance.now();
  const already = warmed;
  warmed = true;
  try {
    if (!already) await warm(task.dbFile);
  } finally {
    Atomics.add(task.started, 0, 1);
    const deadline = performance.now() + task.waitMs;
    while (Atomics.load(task.started, 0) < task.threads && performance.now() < deadline) await Bun.sleep(10);
  }
  return { warmed: !already, ms: performance.now() - t0 };
}

async function warm(dbFile: string): Promise<void> {
  const mem = await syntheticLedger(dbFile);
  try {
    const end = addDays(START, DAYS - 1);
    const base = { target: "EUR", start: START, end, benchmarkIds: [1], fxUserId: null };
    const portfolio = (mode: string, assetIds: number[] | null) =>
      riskDataOn(sqliteSqlReader(mem), { ...base, scope: { kind: "portfolio", scales: { 1: "1", 2: "0.5" }, assetIds }, mode } as never);
    const current = await portfolio("current_composition", null);
    // A loader that no longer fits the synthetic rows would warm nothing: say so (logged at start-up).
    if (current.assets.length !== ASSETS || (current.series?.values.length ?? 0) < DAYS / 2) {
      throw new Error(`the synthetic ledger gave ${current.assets.length} of ${ASSETS} assets, ${current.series?.values.length ?? 0} days`);
    }
    await portfolio("historical", null);
    await portfolio("historical", [1, 2, 3]);
    const set = await riskDataOn(sqliteSqlReader(mem), { ...base, scope: { kind: "asset_set", assetIds: [1, 2, 3, 4, 5, 6, 7, 8] }, mode: "historical" } as never);
    for (const plugin of builtinPlugins.filter((p) => p.manifest.kind === "risk-tool")) {
      const { id } = plugin.manifest;
      const parameters: Record<string, unknown> = id.includes("comparison") ? { benchmark_asset_id: 1 } : id === "simulation" ? { paths: 200 } : {};
      for (const [scope, data] of [["portfolio", current], ["asset_set", set]] as const) {
        try {
          riskAnalytic({ id, path: null, input: inputOf(data, scope, parameters) });
        } catch {
          // An analytic refusing the synthetic data or scope (stress without its scenario) warmed what it ran.
        }
      }
    }
  } finally {
    mem.close();
  }
  // The synthetic data is garbage now; don't keep it in the thread's heap.
  Bun.gc(true);
}

function inputOf(d: PackedRiskData, scope: string, parameters: Record<string, unknown>) {
  return {
    scope, mode: scope === "asset_set" ? "historical" : "current_composition", currency: d.currency, end_value: d.end_value, series: d.series,
    asset_dates: d.asset_dates, assets: d.assets, benchmark: d.benchmarks[1] ?? null, parameters, context: null,
  };
}
