/**
 * The report's incremental path (core/portfolio/report-engine.ts): after random edits at random
 * dates — transaction commits and deletes, a date move, linked cash and asset transfers, new and
 * deleted prices, FX rates — each written through the app's own handlers (so every write notes its date
 * the way the server's do), the engine resumes the kept replay and its answer must be the cold
 * computation's, byte for byte (every figure to the last decimal). In process, no server.
 */
import { Database } from "bun:sqlite";
import { afterAll, beforeAll, expect, test } from "bun:test";
import { uniformInt } from "pure-rand/distribution/uniformInt";
import { xoroshiro128plus } from "pure-rand/generator/xoroshiro128plus";
import { CacheRegistry } from "../../core/cache/cache-registry.ts";
import { portfolioChanges } from "../../core/cache/portfolio-caches.ts";
import { addDays, daysBetween } from "../../core/dates/calendar.ts";
import { COLLECTION_WEIGHT, ReportEngine, scopeWeight } from "../../core/portfolio/report-engine.ts";
import { replayDays } from "../../core/portfolio/replay.calc.ts";
import type { ReportRequest as EngineRequest } from "../../core/portfolio/report-input.loader.ts";
import { buildReport } from "../../core/portfolio/report.calc.ts";
import { reportQuery } from "../../host/api/portfolio/report.routes.ts";
import { ReportRequest } from "../../host/api/portfolio/report.schema.ts";
import { PortfolioReportService } from "../../host/api/portfolio/report.service.ts";
import { loadReportInput } from "../../core/portfolio/report-input.loader.ts";
import { sqliteSqlReader } from "../../host/db/read-snapshot.ts";
import type { ApiClient } from "../helpers/client.ts";
import { type InProcessApp, startInProcess } from "../helpers/in-process.ts";

const FIRST = "2024-01-02";
const PERFORMANCE = { target_currency: "EUR", include_summary: true, include_history: true, include_allocation_history: false, include_period_returns: true };
const END = "2025-03-31";
/**
 * Edits and the random seed: fixed for the suite; `INCREMENTAL_EDITS` and `INCREMENTAL_SEED` run
 * longer or other sequences by hand (a soak: `INCREMENTAL_SEED=7 INCREMENTAL_EDITS=300 bun test
 * test/portfolio/incremental.test.ts --timeout 3600000`).
 */
const EDITS = Number(process.env.INCREMENTAL_EDITS ?? 50);
const SEED = Number(process.env.INCREMENTAL_SEED ?? 20261126);

let app: InProcessApp;
let c: ApiClient;
let db: Database;
let userId: number;
const brokers: number[] = [];
const assets: { id: number; currency: string; quoted: boolean }[] = [];
/** Transaction ids that can be deleted (not linked). */
const deletable: number[] = [];

async function ok(res: Response, what: string, status = 200): Promise<any> {
  const text = await res.text();
  if (res.status !== status) throw new Error(`${what}: expected ${status}, got ${res.status} ${text.slice(0, 1000)}`);
  return text ? JSON.parse(text) : null;
}

async function commit(body: Record<string, unknown>): Promise<{ committed: boolean; results: { ids: number[] }[] }> {
  return ok(await c.post("/transactions/commit", body), "commit");
}

const rng = xoroshiro128plus(SEED);
const int = (from: number, to: number) => uniformInt(rng, from, to);
const pick = <T>(xs: readonly T[]): T => xs[int(0, xs.length - 1)]!;
/** A date of the period; half of them in its last 60 days (where edits usually happen). */
const randomDate = () => int(0, 1) === 0 ? addDays(END, -int(0, 59)) : addDays(FIRST, int(0, daysBetween(FIRST, END)));
const amount = (lo: number, hi: number) => `${int(lo, hi)}.${String(int(0, 99)).padStart(2, "0")}`;

beforeAll(async () => {
  app = await startInProcess();
  c = app.client();
  userId = (await c.signUp("incremental")).id;
  for (const name of ["Alpha broker", "Beta broker"]) {
    const out = await ok(await c.post("/brokers", [{ name, opened_at: FIRST }]), `broker ${name}`);
    brokers.push(out.results[0].broker_id);
  }
  // A partly owned broker: its figures are scaled, and transfers between the two change the scope's capital.
  await ok(await c.patch(`/brokers/${brokers[1]}/access/${userId}`, { share_percentage: "0.35" }), "share");
  for (const [name, currency, quoted] of [["Alpha", "EUR", true], ["Beta", "USD", true], ["Gamma", "GBP", false]] as const) {
    const out = await ok(await c.post("/assets", [{ name, currency }]), `asset ${name}`, 201);
    assets.push({ id: out.results[0].asset_id, currency, quoted });
  }
  // Business-day closes of the quoted assets, weekly EUR-USD and monthly EUR-GBP manual rates.
  for (const a of assets.filter((x) => x.quoted)) {
    const prices = [];
    for (let d = FIRST, i = 0; d <= END; d = addDays(d, 1), i++) {
      const wd = new Date(`${d}T00:00:00Z`).getUTCDay();
      if (wd !== 0 && wd !== 6) prices.push({ date: d, close: `${100 + (i % 37)}.${String(i % 97).padStart(2, "0")}` });
    }
    await ok(await c.post("/assets/prices", [{ asset_id: a.id, prices }]), "prices");
  }
  const rates = [];
  for (let d = "2023-12-25", i = 0; d <= END; d = addDays(d, 7), i++) rates.push({ base: "EUR", quote: "USD", date: d, rate: `1.0${i % 90 + 10}`, source: "MANUAL" });
  for (let d = "2023-12-01", i = 0; d <= END; d = addDays(d, 30), i++) rates.push({ base: "EUR", quote: "GBP", date: d, rate: `0.8${i % 9}5`, source: "MANUAL" });
  await ok(await c.post("/fx/currencies/rate", rates), "rates");
  // Opening cash, then a year of trades.
  const creates: Record<string, unknown>[] = [];
  for (const b of brokers) for (const code of ["EUR", "USD", "GBP"]) creates.push({ broker_id: b, type: "DEPOSIT", date: FIRST, quantity: "0", cash: { code, amount: "100000" } });
  for (let i = 0; i < 120; i++) {
    const a = pick(assets);
    creates.push({
      broker_id: pick(brokers), type: "BUY", date: addDays(FIRST, int(1, daysBetween(FIRST, END))), asset_id: a.id, quantity: `${int(1, 20)}.5`,
      cash: { code: a.currency, amount: `-${amount(100, 900)}` },
    });
  }
  const out = await commit({ creates });
  expect(out.committed).toBe(true);
  db = new Database(app.dbFile, { readonly: true });
}, 120_000);

afterAll(async () => {
  db?.close();
  await app?.close();
});

/** One random edit through the API; its description for a failure message. */
async function randomEdit(): Promise<string> {
  const kind = int(0, 10);
  const date = randomDate();
  const b = pick(brokers);
  const a = pick(assets);
  switch (kind) {
    case 0: case 1: {
      const type = pick(["BUY", "DIVIDEND", "DEPOSIT", "WITHDRAWAL", "FEE"] as const);
      const row: Record<string, unknown> = { broker_id: b, type, date, quantity: "0", cash: { code: a.currency, amount: amount(10, 500) } };
      if (type === "BUY") Object.assign(row, { asset_id: a.id, quantity: `${int(1, 5)}`, cash: { code: a.currency, amount: `-${amount(50, 400)}` } });
      if (type === "DIVIDEND") row.asset_id = a.id;
      if (type === "WITHDRAWAL" || type === "FEE") row.cash = { code: a.currency, amount: `-${amount(1, 50)}` };
      const out = await commit({ creates: [row] });
      if (out.committed) deletable.push(out.results[0]!.ids[0]!);
      return `${type} on ${date} (${out.committed ? "committed" : "refused"})`;
    }
    case 2: {
      const out = await commit({ creates: [{ broker_id: b, type: "SELL", date, asset_id: a.id, quantity: "-1", cash: { code: a.currency, amount: amount(50, 300) } }] });
      if (out.committed) deletable.push(out.results[0]!.ids[0]!);
      return `SELL on ${date} (${out.committed ? "committed" : "refused"})`;
    }
    case 3: {
      if (deletable.length === 0) return "nothing to delete";
      const id = deletable.splice(int(0, deletable.length - 1), 1)[0]!;
      const out = await commit({ deletes: [id] });
      return `delete ${id} (${out.committed ? "committed" : "refused"})`;
    }
    case 4: {
      if (deletable.length === 0) return "nothing to move";
      const id = pick(deletable);
      const out = await commit({ updates: [{ id, date }] });
      return `move ${id} to ${date} (${out.committed ? "committed" : "refused"})`;
    }
    case 5: {
      // A linked cash transfer, arriving a few days later (in transit meanwhile).
      const [from, to] = int(0, 1) === 0 ? [brokers[0]!, brokers[1]!] : [brokers[1]!, brokers[0]!];
      const link = crypto.randomUUID();
      const cash = amount(10, 300);
      const out = await commit({ creates: [
        { broker_id: from, type: "CASH_TRANSFER", date: addDays(date, -int(0, 4)), quantity: "0", cash: { code: "EUR", amount: `-${cash}` }, link_uuid: link },
        { broker_id: to, type: "CASH_TRANSFER", date, quantity: "0", cash: { code: "EUR", amount: cash }, link_uuid: link },
      ] });
      return `cash transfer arriving ${date} (${out.committed ? "committed" : "refused"})`;
    }
    case 6: {
      const q = pick(assets.filter((x) => x.quoted));
      // Now and then more decimals than any close before: the currency's exact price scale grows.
      const close = `${amount(80, 140)}${int(0, 2) === 0 ? String(int(1, 9999)).padStart(4, "0") : ""}`;
      await ok(await c.post("/assets/prices", [{ asset_id: q.id, prices: [{ date, close }] }]), "price");
      return `price ${close} of ${q.id} on ${date}`;
    }
    case 7: {
      const q = pick(assets.filter((x) => x.quoted));
      const start = addDays(date, -int(0, 5));
      await ok(await c.request("DELETE", "/assets/prices", [{ asset_id: q.id, date_ranges: [{ start, end: date }] }]), "price delete");
      return `prices of ${q.id} deleted ${start}..${date}`;
    }
    case 9: {
      // A linked asset transfer between the brokers, arriving a few days later (in transit meanwhile).
      const [from, to] = int(0, 1) === 0 ? [brokers[0]!, brokers[1]!] : [brokers[1]!, brokers[0]!];
      const link = crypto.randomUUID();
      const out = await commit({ creates: [
        { broker_id: from, type: "TRANSFER", date: addDays(date, -int(0, 4)), asset_id: a.id, quantity: "-1", link_uuid: link },
        { broker_id: to, type: "TRANSFER", date, asset_id: a.id, quantity: "1", link_uuid: link,
          ...(int(0, 2) > 0 ? { cost_basis_override: { code: a.currency, amount: amount(50, 150) } } : {}) },
      ] });
      return `transfer of ${a.id} arriving ${date} (${out.committed ? "committed" : "refused"})`;
    }
    case 10: {
      // A first buy of an asset new to every scope: the asset and (mostly) its closes from the
      // period's first day, dated writes that touch no scope, then the buy, dated.
      const currency = pick(["EUR", "USD", "GBP"] as const);
      const quoted = int(0, 2) > 0;
      const id = (await ok(await c.post("/assets", [{ name: `New ${assets.length}`, currency }]), "new asset", 201)).results[0].asset_id as number;
      if (quoted) {
        const prices = [];
        for (let d = FIRST, i = 0; d <= END; d = addDays(d, int(1, 9)), i++) prices.push({ date: d, close: `${50 + (i % 23)}.${String(i % 89).padStart(2, "0")}` });
        await ok(await c.post("/assets/prices", [{ asset_id: id, prices }]), "new asset's prices");
      }
      assets.push({ id, currency, quoted });
      const out = await commit({ creates: [{
        broker_id: b, type: "BUY", date, asset_id: id, quantity: `${int(1, 9)}.${int(0, 9)}`, cash: { code: currency, amount: `-${amount(50, 400)}` },
      }] });
      if (out.committed) deletable.push(out.results[0]!.ids[0]!);
      return `first BUY of new asset ${id} (${currency}, ${quoted ? "quoted" : "no closes"}) on ${date} (${out.committed ? "committed" : "refused"})`;
    }
    default: {
      const [base, quote] = pick([["EUR", "USD"], ["EUR", "GBP"]] as const);
      await ok(await c.post("/fx/currencies/rate", [{ base, quote, date, rate: `1.${int(0, 3)}${int(0, 99)}`, source: "MANUAL" }]), "rate");
      return `${base}-${quote} rate on ${date}`;
    }
  }
}

test("random edits at random dates: every section of the incremental report, under every include flag, and the Performance page's returns of every month, quarter and year, equal a cold recompute to the last byte", async () => {
  const caches = app.container.resolve(CacheRegistry);
  const service = new PortfolioReportService(app.container, { kind: "sqlite", file: app.dbFile });
  // Every section and every include_* flag, on and off, over scopes of different periods,
  // currencies and brokers: the API's defaults (a period and a currency only), everything at once,
  // the sections without summary or history, and one partly owned broker.
  const bodies = [
    { date_range: { start: "2024-09-15", end: END }, target_currency: "USD" },
    { date_range: { start: FIRST, end: END }, target_currency: "EUR", include_summary: true, include_history: true, include_allocation_history: false },
    { date_range: { start: FIRST, end: END }, target_currency: "EUR", include_summary: true, include_history: true,
      include_allocation_history: true, include_breakdown: true, include_positions_contribution: true, include_period_returns: true,
      include_income_payments: true },
    { target_currency: "GBP", include_summary: false, include_history: false, include_allocation_history: true, include_breakdown: true,
      include_positions_contribution: true },
    { broker_ids: [brokers[1]], date_range: { start: "2024-06-01", end: END }, target_currency: "EUR", include_summary: false,
      include_history: true, include_allocation_history: false, include_breakdown: true, include_positions_contribution: false },
    // The same replay as the next scope's (they differ in output flags only), the web's pages too: the dashboard's request first,
    // so the next scope resumes after a report without allocation history; then Performance, Income, and history without summary
    // (its points are written again, not taken from the others').
    { date_range: { start: FIRST, end: END }, target_currency: "EUR", include_summary: true, include_history: true, include_allocation_history: false,
      include_period_returns: true },
    { date_range: { start: FIRST, end: END }, target_currency: "EUR", include_summary: true, include_history: false, include_allocation_history: false,
      include_positions_contribution: true, include_income_payments: true },
    { date_range: { start: FIRST, end: END }, target_currency: "EUR", include_summary: false, include_history: true, include_allocation_history: true },
    // The other broker alone: a write on broker 1 leaves it as it was.
    { broker_ids: [brokers[0]], date_range: { start: "2024-03-01", end: END }, target_currency: "USD", include_breakdown: true },
    // The web's page sequence on one replay: the dashboard's request (web/src/pages/dashboard.tsx, period "All") resumes at
    // the edit's checkpoint without period returns, then the Performance page's (web/src/pages/performance.tsx: up to today,
    // the returns of every month, quarter and year) resumes later and takes the periods still valid from the report before.
    { broker_ids: null, date_range: null, target_currency: "EUR", include_summary: true, include_history: true, include_allocation_history: false,
      include_positions_contribution: true },
    PERFORMANCE,
  ];
  const requests: EngineRequest[] = [];
  for (const body of bodies) requests.push((await service.resolve(userId, reportQuery(ReportRequest.parse(body)))).request);
  const engine = new ReportEngine({ maxScopes: bodies.length });
  const resumed = bodies.map(() => 0);
  const reader = sqliteSqlReader(db);
  const check = async (what: string) => {
    // As the report service does: first the stored cache generations (several processes), then
    // the dated writes. The process's own writes must not read as another process's (undated).
    await caches.sync();
    const changes = portfolioChanges(caches);
    for (const [k, request] of requests.entries()) {
      const incremental = await engine.report(reader, request, changes);
      const cold = JSON.stringify(buildReport(await loadReportInput(reader, request)));
      if (bodies[k] === PERFORMANCE) {
        // Each period kind on its own, so a period taken from an earlier report that changed since is named.
        const [mine, theirs] = [JSON.parse(incremental.json).period_returns, JSON.parse(cold).period_returns];
        for (const kind of ["month", "quarter", "year"]) {
          expect(theirs[kind].length).toBeGreaterThan(0);
          expect({ after: what, mode: incremental.mode, kind, periods: mine[kind] }).toEqual({ after: what, mode: incremental.mode, kind, periods: theirs[kind] });
        }
      }
      if (incremental.json !== cold) {
        // Deep equality names the first differing figure.
        expect({ after: what, mode: incremental.mode, report: JSON.parse(incremental.json) }).toEqual({ after: what, mode: incremental.mode, report: JSON.parse(cold) });
      }
      expect(incremental.json).toBe(cold);
      if (incremental.mode !== "cold") resumed[k]!++;
    }
  };
  await check("seeding");
  for (let i = 0; i < EDITS; i++) await check(await randomEdit());
  // Most edits were dated, so most reports of every scope resumed from a checkpoint instead of recomputing all.
  for (const n of resumed) expect(n).toBeGreaterThan(EDITS / 2);
}, Math.max(300_000, EDITS * 6_000));

test("private FX rates used only before the resumed checkpoint are still reported by the incremental report, as by the cold one", async () => {
  const caches = app.container.resolve(CacheRegistry);
  const service = new PortfolioReportService(app.container, { kind: "sqlite", file: app.dbFile });
  // CHF cash held for a month, valued through the user's private CHF-EUR rate only (no shared CHF data).
  await ok(await c.post("/fx/currencies/private-rates", [{ base: "CHF", quote: "EUR", date: "2023-12-01", rate: "0.95" }]), "private rate");
  const link = await commit({ creates: [
    { broker_id: brokers[0], type: "DEPOSIT", date: "2024-01-10", quantity: "0", cash: { code: "CHF", amount: "1000" } },
    { broker_id: brokers[0], type: "WITHDRAWAL", date: "2024-02-10", quantity: "0", cash: { code: "CHF", amount: "-1000" } },
  ] });
  expect(link.committed).toBe(true);
  const body = { date_range: { start: FIRST, end: END }, target_currency: "EUR", include_summary: true, include_history: true };
  const { request } = await service.resolve(userId, reportQuery(ReportRequest.parse(body)));
  expect(request.fxUserId).toBe(userId);
  const engine = new ReportEngine();
  const reader = sqliteSqlReader(db);
  const run = async () => {
    await caches.sync();
    return engine.report(reader, request, portfolioChanges(caches));
  };
  const privateIssue = (json: string) => JSON.parse(json).data_quality.issues.filter((i: any) => i.code === "FX_PRIVATE_RATES_USED");
  const first = await run();
  expect(privateIssue(first.json)).toEqual([expect.objectContaining({ affected_fx_pairs: ["CHF-EUR"] })]);
  // A write dated in the last month: the report resumes at a checkpoint long after the CHF was gone.
  const q = assets.find((a) => a.quoted)!;
  await ok(await c.post("/assets/prices", [{ asset_id: q.id, prices: [{ date: addDays(END, -3), close: "123.45" }] }]), "price");
  const second = await run();
  expect(second.mode).not.toBe("cold");
  expect(second.json).toBe(JSON.stringify(buildReport(await loadReportInput(reader, request))));
  expect(privateIssue(second.json)).toEqual(privateIssue(first.json));
});

test("a cold report that replaces a kept scope has the old one collected before its load (and the load's rows after it, and the replay's before the answer is serialised)", async () => {
  const service = new PortfolioReportService(app.container, { kind: "sqlite", file: app.dbFile });
  const body = { date_range: { start: FIRST, end: END }, target_currency: "EUR", include_summary: true, include_history: true };
  const { request } = await service.resolve(userId, reportQuery(ReportRequest.parse(body)));
  const events: string[] = [];
  const engine = new ReportEngine({ collect: () => events.push("collect"), collectFrom: 0 });
  const inner = sqliteSqlReader(db);
  const reader = { all: <T>(sql: string, params?: unknown[]) => { events.push("read"); return inner.all<T>(sql, params); } };
  const first = await engine.report(reader, request, { epoch: "one", generation: 0, notes: [] });
  expect(first.mode).toBe("cold");
  expect(events[0]).toBe("read");
  expect(events.filter((e) => e === "collect")).toEqual(["collect", "collect"]);
  expect(events.slice(-2)).toEqual(["collect", "collect"]);
  events.length = 0;
  // Another write log: the kept scope cannot be resumed, so it goes before the new load.
  const second = await engine.report(reader, request, { epoch: "two", generation: 0, notes: [] });
  expect(second.mode).toBe("cold");
  expect(second.json).toBe(first.json);
  // The report comes as pieces the worker compresses one by one (no JSON joined on that path): the
  // same cold report, the same pieces.
  expect(first.pieces.length).toBeGreaterThan(1);
  expect(first.pieces.join("")).toBe(first.json);
  expect(second.pieces).toEqual(first.pieces);
  expect(events[0]).toBe("collect");
  expect(events.slice(1, -2).every((e) => e === "read")).toBe(true);
  expect(events.slice(-2)).toEqual(["collect", "collect"]);
});

test("a cold report of a scope weighing less than COLLECTION_WEIGHT runs no full collection; from that weight it runs them after its load and after its replay, and dropping kept scopes of that weight runs one before the load", async () => {
  const service = new PortfolioReportService(app.container, { kind: "sqlite", file: app.dbFile });
  const body = { date_range: { start: FIRST, end: END }, target_currency: "EUR", include_summary: true, include_history: true };
  const { request } = await service.resolve(userId, reportQuery(ReportRequest.parse(body)));
  const reader = sqliteSqlReader(db);
  const input = await loadReportInput(reader, request);
  const weight = scopeWeight({ input, days: { length: replayDays(input) } });
  // This test ledger is a small one: the default leaves its cold reports without full collections.
  expect(weight).toBeGreaterThan(100);
  expect(weight).toBeLessThan(COLLECTION_WEIGHT);
  const events: string[] = [];
  const small = new ReportEngine({ collect: () => events.push("collect") });
  const first = await small.report(reader, request, { epoch: "one", generation: 0, notes: [] });
  expect(first.mode).toBe("cold");
  // Another log drops the kept scope: a small one, so no collection for it either.
  expect((await small.report(reader, request, { epoch: "two", generation: 0, notes: [] })).json).toBe(first.json);
  expect(events).toEqual([]);
  // At exactly its weight, the scope counts as large: after the load, after the replay.
  const large = new ReportEngine({ collect: () => events.push("collect"), collectFrom: weight });
  expect((await large.report(reader, request, { epoch: "one", generation: 0, notes: [] })).json).toBe(first.json);
  expect(events).toEqual(["collect", "collect"]);
  // Dropped, it is collected before the next cold load too.
  events.length = 0;
  await large.report(reader, request, { epoch: "two", generation: 0, notes: [] });
  expect(events).toEqual(["collect", "collect", "collect"]);
  // One unit more and the same scope is small.
  events.length = 0;
  const below = new ReportEngine({ collect: () => events.push("collect"), collectFrom: weight + 1 });
  await below.report(reader, request, { epoch: "one", generation: 0, notes: [] });
  await below.report(reader, request, { epoch: "two", generation: 0, notes: [] });
  expect(events).toEqual([]);
});

test("a report drops every kept scope no later report can resume (an undated write since, another log) and collects them before its cold load", async () => {
  const service = new PortfolioReportService(app.container, { kind: "sqlite", file: app.dbFile });
  const requestFor = async (start: string) => (await service.resolve(userId, reportQuery(ReportRequest.parse({
    date_range: { start, end: END }, target_currency: "EUR", include_summary: true, include_history: true,
  })))).request;
  const [a, b, c2] = [await requestFor(FIRST), await requestFor(addDays(FIRST, 30)), await requestFor(addDays(FIRST, 60))];
  const events: string[] = [];
  const engine = new ReportEngine({ collect: () => events.push("collect"), maxScopes: 3, collectFrom: 0 });
  const inner = sqliteSqlReader(db);
  const reader = { all: <T>(sql: string, params?: unknown[]) => { events.push("read"); return inner.all<T>(sql, params); } };
  const dated = addDays(END, -5);
  await engine.report(reader, a, { epoch: "one", generation: 0, notes: [] });
  await engine.report(reader, b, { epoch: "one", generation: 0, notes: [] });
  expect(engine.kept).toBe(2);
  // A dated write: both scopes stay resumable, so a new scope's cold report drops nothing.
  events.length = 0;
  const third = await engine.report(reader, c2, { epoch: "one", generation: 1, notes: [{ generation: 1, from: dated }] });
  expect(third.mode).toBe("cold");
  expect(events[0]).toBe("read");
  expect(engine.kept).toBe(3);
  // An undated write (generation 2 has no note): no kept scope can ever be resumed, so all go before the load.
  events.length = 0;
  const undated = { epoch: "one", generation: 3, notes: [{ generation: 1, from: dated }, { generation: 3, from: dated }] };
  const cold = await engine.report(reader, c2, undated);
  expect(cold.mode).toBe("cold");
  expect(events[0]).toBe("collect");
  expect(engine.kept).toBe(1);
  // A request carrying an older generation than a kept scope's leaves that scope alone.
  events.length = 0;
  await engine.report(reader, a, { epoch: "one", generation: 2, notes: [{ generation: 1, from: dated }, { generation: 2, from: dated }] });
  expect(engine.kept).toBe(2);
  expect(events[0]).toBe("read");
  // Another write log: every kept scope goes before the load.
  events.length = 0;
  await engine.report(reader, b, { epoch: "two", generation: 0, notes: [] });
  expect(events[0]).toBe("collect");
  expect(engine.kept).toBe(1);
});

test("kept replays are bounded by their size, not only their number: small scopes stay side by side, and past the budget the oldest go first, never the one just computed", async () => {
  const service = new PortfolioReportService(app.container, { kind: "sqlite", file: app.dbFile });
  const requestFor = async (start: string) => (await service.resolve(userId, reportQuery(ReportRequest.parse({
    date_range: { start, end: END }, target_currency: "EUR", include_summary: true, include_history: true,
  })))).request;
  const requests = [await requestFor(FIRST), await requestFor(addDays(FIRST, 30)), await requestFor(addDays(FIRST, 60)), await requestFor(addDays(FIRST, 90))];
  const reader = sqliteSqlReader(db);
  const changes = { epoch: "one", generation: 0, notes: [] };
  // The default budget keeps the four small replays of this ledger (it was two at most).
  const roomy = new ReportEngine();
  for (const r of requests) await roomy.report(reader, r, changes);
  expect(roomy.kept).toBe(4);
  // A budget below one replay's weight keeps only the replay just computed.
  const tight = new ReportEngine({ maxScopes: 16, budget: 1 });
  for (const r of requests) await tight.report(reader, r, changes);
  expect(tight.kept).toBe(1);
  const again = await tight.report(reader, requests[3]!, { epoch: "one", generation: 1, notes: [{ generation: 1, from: addDays(END, -3) }] });
  expect(again.mode).not.toBe("cold");
  expect((await tight.report(reader, requests[0]!, changes)).coldReason).toBe("not kept");
});

/**
 * One scope's reports through one engine as the report service runs them (the stored changes
 * synced first), and the same report computed cold, to compare.
 */
async function scopeReports(body: Record<string, unknown>) {
  const caches = app.container.resolve(CacheRegistry);
  const service = new PortfolioReportService(app.container, { kind: "sqlite", file: app.dbFile });
  const { request } = await service.resolve(userId, reportQuery(ReportRequest.parse(body)));
  const engine = new ReportEngine();
  const reader = sqliteSqlReader(db);
  return {
    run: async () => {
      await caches.sync();
      return engine.report(reader, request, portfolioChanges(caches));
    },
    cold: async () => JSON.stringify(buildReport(await loadReportInput(reader, request))),
  };
}

test("a write on another broker, or a price of an asset the scope never held, leaves a broker's kept replay as it was: the next report resumes at its last checkpoint and equals a cold one", async () => {
  // An asset only the second broker holds.
  const only = (await ok(await c.post("/assets", [{ name: "Delta", currency: "EUR" }]), "asset Delta", 201)).results[0].asset_id as number;
  expect((await commit({ creates: [{ broker_id: brokers[1], type: "BUY", date: "2024-02-05", asset_id: only, quantity: "3", cash: { code: "EUR", amount: "-30" } }] })).committed).toBe(true);
  const { run, cold } = await scopeReports({ broker_ids: [brokers[0]], date_range: { start: FIRST, end: END }, target_currency: "EUR", include_summary: true, include_history: true });
  await run();
  const lastCheckpoint = `${END.slice(0, 7)}-01`;
  // Early-dated writes on the second broker: its ledger, then a price of its own asset.
  expect((await commit({ creates: [{ broker_id: brokers[1], type: "DEPOSIT", date: "2024-01-20", quantity: "0", cash: { code: "EUR", amount: "250" } }] })).committed).toBe(true);
  const afterLedger = await run();
  expect(afterLedger.mode).toEqual({ resumedAt: lastCheckpoint });
  expect(afterLedger.json).toBe(await cold());
  await ok(await c.post("/assets/prices", [{ asset_id: only, prices: [{ date: "2024-02-06", close: "11.5" }] }]), "price");
  const afterPrice = await run();
  expect(afterPrice.mode).toEqual({ resumedAt: lastCheckpoint });
  expect(afterPrice.json).toBe(await cold());
  // A write on this broker at the same date still resumes there (or earlier).
  expect((await commit({ creates: [{ broker_id: brokers[0], type: "DEPOSIT", date: "2024-01-20", quantity: "0", cash: { code: "EUR", amount: "250" } }] })).committed).toBe(true);
  const afterOwn = await run();
  expect(afterOwn.mode === "cold" || afterOwn.mode.resumedAt <= "2024-01-20").toBe(true);
  expect(afterOwn.json).toBe(await cold());
});

test("a first buy of an asset new to the scope resumes at the checkpoint before it, whether the asset's id sorts after the scope's others or between them, and equals a cold report; creating or editing an asset the scope does not hold leaves its replay, editing one it holds does not", async () => {
  const { run, cold } = await scopeReports({
    broker_ids: [brokers[0]], date_range: { start: FIRST, end: END }, target_currency: "EUR", include_summary: true, include_history: true,
    include_allocation_history: true, include_breakdown: true, include_positions_contribution: true, include_income_payments: true,
  });
  const lastCheckpoint = { resumedAt: `${END.slice(0, 7)}-01` };
  await run();
  // Two assets the first broker never held, created now (an undated change of assets no scope
  // holds): Zeta (quoted weekly from the period's start, the lower id), then Eta (no closes:
  // valued at its trade price).
  const [zeta, eta] = (await ok(await c.post("/assets", [{ name: "Zeta", currency: "USD" }, { name: "Eta", currency: "EUR" }]), "assets", 201))
    .results.map((r: { asset_id: number }) => r.asset_id) as [number, number];
  const prices = [];
  for (let d = FIRST, i = 0; d <= END; d = addDays(d, 7), i++) prices.push({ date: d, close: `${40 + (i % 11)}.2${i % 10}` });
  await ok(await c.post("/assets/prices", [{ asset_id: zeta, prices }]), "Zeta's prices");
  const untouched = await run();
  expect(untouched.mode).toEqual(lastCheckpoint);
  expect(untouched.json).toBe(await cold());
  const buy = async (asset: number, date: string, code: string) => {
    expect((await commit({ creates: [{ broker_id: brokers[0], type: "BUY", date, asset_id: asset, quantity: "2.5", cash: { code, amount: "-120.40" } }] })).committed).toBe(true);
    return run();
  };
  const etaDay = addDays(END, -20);
  const afterEta = await buy(eta, etaDay, "EUR");
  expect(afterEta.mode).toEqual({ resumedAt: `${etaDay.slice(0, 7)}-01` });
  expect(afterEta.json).toBe(await cold());
  // Zeta's id is below Eta's: it sorts between the scope's assets. Its closes before the
  // checkpoint value it from its first day, as in the cold report.
  const zetaDay = addDays(END, -45);
  const afterZeta = await buy(zeta, zetaDay, "USD");
  expect(afterZeta.mode).toEqual({ resumedAt: `${zetaDay.slice(0, 7)}-01` });
  expect(afterZeta.json).toBe(await cold());
  // Renaming an asset the scope does not hold leaves it; renaming one it holds recomputes it.
  const theta = (await ok(await c.post("/assets", [{ name: "Theta", currency: "EUR" }]), "Theta", 201)).results[0].asset_id as number;
  await ok(await c.patch("/assets", [{ asset_id: theta, name: "Theta renamed" }]), "rename Theta");
  expect((await run()).mode).toEqual(lastCheckpoint);
  await ok(await c.patch("/assets", [{ asset_id: eta, name: "Eta renamed" }]), "rename Eta");
  const renamed = await run();
  expect(renamed.mode).toBe("cold");
  expect(renamed.coldReason).toBe("undated");
  expect(renamed.json).toBe(await cold());
  expect(renamed.json).toContain("Eta renamed");
});

test("a cold report drops the kept scopes the budget would not keep beside it before its replay, not after", async () => {
  const service = new PortfolioReportService(app.container, { kind: "sqlite", file: app.dbFile });
  const requestFor = async (start: string) => (await service.resolve(userId, reportQuery(ReportRequest.parse({
    date_range: { start, end: END }, target_currency: "EUR", include_summary: true, include_history: true,
  })))).request;
  const [a, b] = [await requestFor(FIRST), await requestFor(addDays(FIRST, 30))];
  const reader = sqliteSqlReader(db);
  const changes = { epoch: "one", generation: 0, notes: [] };
  // How many scopes are kept at each collection (the one after the load precedes the replay).
  const keptAtCollect: number[] = [];
  for (const [maxScopes, budget] of [[16, 1], [1, 350_000]] as const) {
    const engine: ReportEngine = new ReportEngine({ collect: () => keptAtCollect.push(engine.kept), maxScopes, budget, collectFrom: 0 });
    await engine.report(reader, a, changes);
    keptAtCollect.length = 0;
    const second = await engine.report(reader, b, changes);
    expect(second.mode).toBe("cold");
    expect(keptAtCollect[0]).toBe(0);
    expect(engine.kept).toBe(1);
    expect((await engine.report(reader, a, changes)).coldReason).toBe("not kept");
  }
  // Within the budget both stay through the second replay.
  keptAtCollect.length = 0;
  const roomy: ReportEngine = new ReportEngine({ collect: () => keptAtCollect.push(roomy.kept), collectFrom: 0 });
  await roomy.report(reader, a, changes);
  keptAtCollect.length = 0;
  await roomy.report(reader, b, changes);
  expect(keptAtCollect[0]).toBe(1);
  expect(roomy.kept).toBe(2);
});

test("kept replays dropped before the load: a cold report of the same brokers drops before reading what the budget will not keep beside it; one of other brokers reads first", async () => {
  const service = new PortfolioReportService(app.container, { kind: "sqlite", file: app.dbFile });
  const requestFor = async (body: Record<string, unknown>) => (await service.resolve(userId, reportQuery(ReportRequest.parse({
    target_currency: "EUR", include_summary: true, include_history: true, ...body,
  })))).request;
  const everything = await requestFor({ date_range: { start: FIRST, end: END } });
  const later = await requestFor({ date_range: { start: addDays(FIRST, 30), end: END } });
  const oneBroker = await requestFor({ broker_ids: [brokers[0]], date_range: { start: FIRST, end: END } });
  const inner = sqliteSqlReader(db);
  const input = await loadReportInput(inner, everything);
  const weight = scopeWeight({ input, days: { length: replayDays(input) } });
  const changes = { epoch: "one", generation: 0, notes: [] };
  // A budget that keeps one replay of all brokers, not two.
  const events: string[] = [];
  const engine: ReportEngine = new ReportEngine({ collect: () => events.push(`collect ${engine.kept}`), budget: weight + 10, collectFrom: 0 });
  const reader = { all: <T>(sql: string, params?: unknown[]) => { events.push("read"); return inner.all<T>(sql, params); } };
  await engine.report(reader, everything, changes);
  expect(engine.kept).toBe(1);
  // The same brokers over another period: the kept replay goes (and is collected) before the first read.
  events.length = 0;
  const second = await engine.report(reader, later, changes);
  expect(second.mode).toBe("cold");
  expect(events[0]).toBe("collect 0");
  expect(engine.kept).toBe(1);
  expect(second.json).toBe(JSON.stringify(buildReport(await loadReportInput(inner, later))));
  // Another broker set says nothing of its weight before its load: it reads first, and the budget
  // decides once the input is loaded, as before.
  events.length = 0;
  const third = await engine.report(reader, oneBroker, changes);
  expect(third.mode).toBe("cold");
  expect(events[0]).toBe("read");
  expect(third.json).toBe(JSON.stringify(buildReport(await loadReportInput(inner, oneBroker))));
  // With room for both, nothing goes before the load, and both stay.
  const roomy = new ReportEngine({ collect: () => events.push("collect"), collectFrom: 0 });
  await roomy.report(reader, everything, changes);
  events.length = 0;
  await roomy.report(reader, later, changes);
  expect(events[0]).toBe("read");
  expect(roomy.kept).toBe(2);
});

test("a cold replay has its young generation collected every 512 days it values and history points it writes on a ledger of few rows; a resumed one not; both answer the same", async () => {
  const service = new PortfolioReportService(app.container, { kind: "sqlite", file: app.dbFile });
  const body = { date_range: { start: FIRST, end: END }, target_currency: "EUR", include_summary: true, include_history: true };
  const { request } = await service.resolve(userId, reportQuery(ReportRequest.parse(body)));
  const reader = sqliteSqlReader(db);
  let young = 0;
  const engine = new ReportEngine({ collectYoung: () => young++ });
  const cold = await engine.report(reader, request, { epoch: "one", generation: 0, notes: [] });
  const days = daysBetween(FIRST, END) + 1;
  // Each day valued once by the replay, then written once as a history point; a few hundred rows,
  // so the days set the pace (the rows' share: test/unit/portfolio/young-collection-pace.test.ts).
  expect(young).toBe(Math.floor((2 * days) / 512));
  expect(young).toBeGreaterThan(0);
  expect(cold.json).toBe(JSON.stringify(buildReport(await loadReportInput(reader, request))));
  // Resumed 200 days before the end: a short replay, and what an edit waits for.
  young = 0;
  const resumed = await engine.report(reader, request, { epoch: "one", generation: 1, notes: [{ generation: 1, from: addDays(END, -200) }] });
  expect(resumed.mode).not.toBe("cold");
  expect(young).toBe(0);
  expect(resumed.json).toBe(cold.json);
});
