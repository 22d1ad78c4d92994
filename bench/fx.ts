/**
 * FX benchmark (in process, temporary database):
 *   1. converting 10 years of daily amounts (3,650 conversions) across a 3-step route with a
 *      reversed leg: the pure calc (target < 50 ms, median) and FxConvertService including the
 *      database reads of the three legs (reported);
 *   2. syncing 10 years for 20 pairs from a fake in-memory FX provider through FxSyncService
 *      (fetch, inversion, change detection and chunked writes; reported).
 *
 *   bun bench/fx.ts            # BENCH_RUNS=15 by default
 */
import "reflect-metadata";
import { rmSync } from "node:fs";
import { CacheRegistry } from "../core/cache/cache-registry.ts";
import { type ConvertLeg, convertAlong, eachDay } from "../core/fx/convert.calc.ts";
import { FxConvertService } from "../core/fx/fx-convert.service.ts";
import { FxSyncService } from "../core/fx/fx-sync.service.ts";
import { Decimal } from "../core/money/decimal.ts";
import { openDatabase } from "../host/db/data-source.ts";
import { type FxProvider, type FxRate, ok } from "../sdk/index.ts";
import { tempDataDir } from "../test/helpers/server.ts";

const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const START = "2014-01-01";
const END = "2023-12-31";
const DAYS = eachDay(START, END).slice(0, 3650);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const time = async (fn: () => unknown) => { const t = performance.now(); await fn(); return performance.now() - t; };

/** Business days only, like a central bank: weekends need backward fill. */
const weekdays = DAYS.filter((d) => { const w = new Date(`${d}T00:00:00Z`).getUTCDay(); return w !== 0 && w !== 6; });
const seriesOf = (seed: number) => ({ dates: weekdays, rates: weekdays.map((_, i) => new Decimal(seed).plus(new Decimal(i % 97).div(1000))) });

// 1a. pure calc: CHF→EUR (native), EUR→USD (native), USD→JPY (reversed: stored JPY-USD)
const legs: ConvertLeg[] = [
  { from: "CHF", series: seriesOf(0.9), to: "EUR" },
  { from: "EUR", series: seriesOf(1.1), to: "USD" },
  { from: "USD", series: seriesOf(0.0067), to: "JPY" },
];
const amount = new Decimal("1234.56");
const calcTimes: number[] = [];
for (let r = 0; r < RUNS; r++) calcTimes.push(await time(() => { for (const d of DAYS) convertAlong(amount, legs, d); }));
const calcMs = median(calcTimes);
console.log(`convert ${DAYS.length} days over 3 steps (calc): median ${calcMs.toFixed(1)} ms (target < 50 ms) ${calcMs < 50 ? "OK" : "SLOW"}`);

// 1b. through the service with the legs in SQLite
const dir = tempDataDir("pt-bench-fx-");
const db = await openDatabase(dir);
await db.write(async (tx) => {
  const rows: unknown[][] = [];
  for (const [base, quote, provider, seed] of [["CHF", "EUR", "P1", 0.9], ["EUR", "USD", "P1", 1.1], ["JPY", "USD", "P2", 0.0067]] as const) {
    const s = seriesOf(seed);
    s.dates.forEach((d, i) => rows.push([base, quote, provider, d, s.rates[i]!.toFixed(), "bench"]));
  }
  for (let i = 0; i < rows.length; i += 500) {
    const chunk = rows.slice(i, i + 500);
    await tx.query(`INSERT INTO fx_rates (base, quote, provider, date, rate, source) VALUES ${chunk.map(() => "(?, ?, ?, ?, ?, ?)").join(", ")}`, chunk.flat());
  }
  await tx.query(`INSERT INTO fx_routes (base, quote, priority, chain_steps) VALUES ('CHF', 'JPY', 1, ?)`, [JSON.stringify([
    { from: "CHF", to: "EUR", provider: "P1" }, { from: "EUR", to: "USD", provider: "P1" }, { from: "USD", to: "JPY", provider: "P2" },
  ])]);
});
const converter = new FxConvertService(db);
const serviceTimes: number[] = [];
for (let r = 0; r < RUNS; r++) {
  serviceTimes.push(await time(() => converter.convert([{ amount: "1234.56", end: DAYS.at(-1)!, from: "CHF", start: DAYS[0]!, to: "JPY" }])));
}
console.log(`convert ${DAYS.length} days over 3 steps (service, with DB reads): median ${median(serviceTimes).toFixed(1)} ms`);

// 2. sync 10 years for 20 pairs
const TARGETS = ["AAA", "BBB", "CCC", "DDD", "FFF", "GGG", "HHH", "III", "JJJ", "KKK", "LLL", "MMM", "NNN", "OOO", "PPP", "QQQ", "RRR", "SSS", "TTT", "UUU"];
const provider: FxProvider = {
  baseCurrencies: ["EUR"] as never,
  targetCurrencies: TARGETS as never,
  getRates: async ({ pairs, from, to }) => pairs.map(() => ok(weekdays.filter((d) => d >= from && d <= to)
    .map((date, i) => ({ date, rate: (1 + (i % 89) / 1000).toString() })) as unknown as FxRate[])),
};
await db.write(async (tx) => {
  for (const t of TARGETS) {
    const [base, quote] = t < "EUR" ? [t, "EUR"] : ["EUR", t];
    await tx.query(`INSERT INTO fx_routes (base, quote, priority, chain_steps) VALUES (?, ?, 1, ?)`, [base, quote, JSON.stringify(
      base === "EUR" ? [{ from: "EUR", to: t, provider: "BENCH" }] : [{ from: t, to: "EUR", provider: "BENCH" }])]);
  }
});
const sync = new FxSyncService(db, new CacheRegistry());
const pairs = TARGETS.map((t) => `EUR-${t}`);
let out!: Awaited<ReturnType<FxSyncService["sync"]>>;
const cold = await time(async () => { out = await sync.sync({ end: END, pairs, start: START }, () => provider, "2024-06-01"); });
console.log(`sync 10 years x 20 pairs (cold, ${out.totalPointsChanged} points written, ${out.results.filter((r) => r.status === "ok").length} ok): ${cold.toFixed(0)} ms`);
const again = await time(() => new FxSyncService(db, new CacheRegistry()).sync({ end: END, pairs, start: START }, () => provider, "2024-06-01"));
console.log(`sync 10 years x 20 pairs (repeat, nothing changed): ${again.toFixed(0)} ms`);

await db.close();
rmSync(dir, { recursive: true, force: true });
