import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { ApiClient } from "../helpers/client.ts";
import { startServer, tempDataDir, type TestServer } from "../helpers/server.ts";
import { buy, deposit, looseBroker } from "../api/transactions/fixtures.ts";

/**
 * Declared changes across processes (docs/portfolio.md "Caches"): a write through process A
 * stores what it changed and from which date in its own transaction, so process B's next report
 * reflects it AND resumes B's kept replay at that date instead of recomputing from the first day,
 * exactly as after a write through B itself; an undated write recomputes cold. Same file on
 * PostgreSQL (`npm run test:postgres -- test/multiprocess/declared-changes.test.ts`).
 */
const env = { JWT_SECRET: "declared-changes-secret", LOG_LEVEL: "debug" };
let dataDir = "";
let a: TestServer;
let b: TestServer;
let onA: ApiClient;
let onB: ApiClient;
let broker = 0;
let asset = 0;

async function json(res: Response, status = 200): Promise<any> {
  const body = await res.json();
  expect({ status: res.status, url: res.url, error: res.status === status ? null : body }).toEqual({ status, url: res.url, error: null });
  return body;
}

const BODY = { date_range: { start: "2023-01-01", end: "2024-12-31" }, include_history: true, include_allocation_history: false };

/** A process's report, with how its worker computed it (its debug log line), waiting for that line. */
async function reportOn(server: TestServer, client: ApiClient, body: object = BODY): Promise<{ report: any; mode: string; resumedAt: string | null; coldReason: string | null }> {
  const computed = () => server.logs().filter((l) => l.msg === "portfolio report computed");
  const before = computed().length;
  const report = await json(await client.post("/portfolio/report", body));
  const deadline = Date.now() + 5000;
  while (computed().length === before) {
    if (Date.now() > deadline) throw new Error("no computed report logged (answered from the cache?)");
    await Bun.sleep(10);
  }
  const line = computed().at(-1)!;
  return { report, mode: line.mode, resumedAt: line.resumed_at, coldReason: line.cold_reason ?? null };
}

const reportOnB = () => reportOn(b, onB);

/** The report without the parts that name the moment it was made. */
function figures(report: any): any {
  return JSON.parse(JSON.stringify(report, (key, value) => (key === "generated_at" ? undefined : value)));
}

beforeAll(async () => {
  dataDir = tempDataDir("pt-declared-");
  a = await startServer({ dataDir, env });
  b = await startServer({ dataDir, env });
  onA = new ApiClient(a.base);
  await onA.signUp("declarer");
  onB = new ApiClient(b.base);
  onB.cookie = onA.cookie;
  broker = await looseBroker(onA, "Resumed");
  asset = (await json(await onA.post("/assets", [{ name: "Replayed", currency: "EUR" }]), 201)).results[0].asset_id;
  // Two years of monthly buys, so a replay from a late checkpoint skips most of the ledger.
  const creates = [deposit(broker, "100000", "2023-01-02")];
  for (let m = 1; m <= 12; m++) {
    for (const year of [2023, 2024]) creates.push(buy(broker, asset, "1", "-100", `${year}-${String(m).padStart(2, "0")}-10`));
  }
  await json(await onA.post("/transactions/commit", { creates }));
  const prices = [];
  for (let m = 1; m <= 12; m++) for (const year of [2023, 2024]) prices.push({ date: `${year}-${String(m).padStart(2, "0")}-15`, close: String(100 + m) });
  await json(await onA.post("/assets/prices", [{ asset_id: asset, prices }]));
}, 60_000);

afterAll(async () => {
  await b?.stop();
  await a?.stop(true);
  rmSync(dataDir, { recursive: true, force: true });
});

describe("a write through another process", () => {
  test("a dated write through process A is reflected by process B's next report, which resumes its replay instead of recomputing cold", async () => {
    const first = await reportOnB();
    expect(first.mode).toBe("cold");
    const holdings = (r: any) => r.summary.net_worth.amount;
    // 24 units at 112 and the cash left.
    expect(holdings(first.report)).toBe(String(100000 - 2400 + 24 * 112));

    // A buy dated late in 2024, through A.
    await json(await onA.post("/transactions/commit", { creates: [buy(broker, asset, "1", "-200", "2024-11-20")] }));
    const afterBuy = await reportOnB();
    expect(holdings(afterBuy.report)).toBe(String(100000 - 2600 + 25 * 112));
    expect(afterBuy.mode).toBe("resumed");
    expect(afterBuy.resumedAt! <= "2024-11-20").toBe(true);
    expect(afterBuy.resumedAt! >= "2024-01-01").toBe(true);

    // A price dated late in 2024, through A.
    await json(await onA.post("/assets/prices", [{ asset_id: asset, prices: [{ date: "2024-12-20", close: "150" }] }]));
    const afterPrice = await reportOnB();
    expect(holdings(afterPrice.report)).toBe(String(100000 - 2600 + 25 * 150));
    expect(afterPrice.mode).toBe("resumed");

    // The resumed answer is the cold one: clear B's caches by hand (an undated change) and compare.
    await json(await onB.post("/settings/cache/clear-all", {}));
    const cold = await reportOnB();
    expect(cold.mode).toBe("cold");
    expect(figures(afterPrice.report)).toEqual(figures(cold.report));
  }, 60_000);

  test("dated writes committed at once through both processes are all reflected, and each process's next report resumes its replay", async () => {
    // Each process keeps a replay of the scope (computed now or answered from its cache).
    await json(await onA.post("/portfolio/report", BODY));
    await json(await onB.post("/portfolio/report", BODY));
    // Three buys through each process at once (on PostgreSQL a process runs several writes together).
    const days = ["2024-10-02", "2024-10-03", "2024-10-04"];
    const commits = [onA, onB].flatMap((c) => days.map((day) => c.post("/transactions/commit", { creates: [buy(broker, asset, "1", "-100", day)] })));
    for (const res of await Promise.all(commits)) expect((await json(res)).committed).toBe(true);
    const worth = String(100000 - 3200 + 31 * 150);
    for (const [server, client] of [[b, onB], [a, onA]] as const) {
      const after = await reportOn(server, client);
      expect(after.report.summary.net_worth.amount).toBe(worth);
      expect(after.mode).toBe("resumed");
      expect(after.resumedAt! <= "2024-10-02").toBe(true);
    }
  }, 60_000);

  test("an undated write through process A (a broker edit) makes process B recompute cold", async () => {
    await json(await onB.post("/portfolio/report", BODY));
    await json(await onA.request("PATCH", `/brokers/${broker}`, { description: "renamed elsewhere" }));
    const after = await reportOnB();
    expect(after.mode).toBe("cold");
  }, 60_000);

  test("a write that rolled back in process A declares nothing: process B answers from its cache", async () => {
    await json(await onB.post("/portfolio/report", BODY));
    // A valid row with one naming an unknown asset: the batch is refused whole, nothing committed.
    const refused = await json(await onA.post("/transactions/commit", { creates: [buy(broker, asset, "1", "-1", "2024-12-01"), buy(broker, 987654, "1", "-1", "2024-12-01")] }));
    expect(refused.committed).toBe(false);
    const before = b.logs().filter((l) => l.msg === "portfolio report computed").length;
    await json(await onB.post("/portfolio/report", BODY));
    await Bun.sleep(50);
    expect(b.logs().filter((l) => l.msg === "portfolio report computed").length).toBe(before);
  }, 60_000);
});

describe("what a kept replay survives", () => {
  test("a dated write on another broker leaves this broker's cached report and kept replay untouched: the report is served again, one of other sections resumes at the last checkpoint, not at the write's date", async () => {
    const other = await looseBroker(onA, "Elsewhere");
    const scoped = { ...BODY, broker_ids: [broker] };
    const first = await reportOn(b, onB, scoped);
    // Dated early in the period, on the other broker only, through process A.
    await json(await onA.post("/transactions/commit", { creates: [deposit(other, "500", "2023-02-01")] }));
    // Process B still serves its cached answer: the write touched none of the scope's brokers or assets.
    const computed = () => b.logs().filter((l) => l.msg === "portfolio report computed").length;
    const before = computed();
    expect(await json(await onB.post("/portfolio/report", scoped))).toEqual(first.report);
    expect(computed()).toBe(before);
    // Other sections of the same scope are not cached: computed, they resume its kept replay.
    const sections = { ...scoped, include_breakdown: true };
    const after = await reportOn(b, onB, sections);
    expect(after.mode).toBe("resumed");
    expect(after.resumedAt).toBe("2024-12-01");
    // The same figures as a cold computation (caches cleared by hand: an undated change).
    await json(await onB.post("/settings/cache/clear-all", {}));
    const cold = await reportOn(b, onB, sections);
    expect(cold.mode).toBe("cold");
    expect(figures(after.report)).toEqual(figures(cold.report));
  }, 60_000);

  test("the dashboard's, Performance page's and Income page's requests of one scope share one kept replay: after a write, each resumes", async () => {
    const dashboard = { ...BODY, include_summary: true };
    const performance = { ...dashboard, include_period_returns: true };
    const income = { ...BODY, include_history: false, include_positions_contribution: true, include_income_payments: true };
    for (const body of [dashboard, performance, income]) await json(await onB.post("/portfolio/report", body));
    await json(await onA.post("/transactions/commit", { creates: [buy(broker, asset, "1", "-100", "2024-12-05")] }));
    for (const body of [dashboard, performance, income]) {
      const after = await reportOn(b, onB, body);
      expect({ mode: after.mode, coldReason: after.coldReason }).toEqual({ mode: "resumed", coldReason: null });
    }
  }, 60_000);
});
