import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { ApiClient } from "../helpers/client.ts";
import { startServer, tempDataDir, type TestServer } from "../helpers/server.ts";
import { PNG_1X1, uploadForm } from "../fixtures/uploads/files.ts";
import { buy, createBroker, deposit, looseBroker, withdrawal } from "../api/transactions/fixtures.ts";
import { sample, upload } from "../api/brim/helpers.ts";

/**
 * Two real server processes on one database (one DATA_DIR; docs/deploy.md): what one process
 * writes, the other never answers from a stale cache; the first account is the only superuser
 * even when registrations race through both; racing commits to one broker keep its balance rules.
 * Everything goes through the API, so the same file runs on PostgreSQL (`npm run test:postgres --
 * test/multiprocess`: both servers get the data dir's one database).
 */
// Debug logs say when a process leaves a job's slot to the other one.
const env = { JWT_SECRET: "multiprocess-test-secret", LOG_LEVEL: "debug" };
let dataDir = "";
let a: TestServer;
let b: TestServer;

beforeAll(async () => {
  dataDir = tempDataDir("pt-multi-");
  // Started together: they race for the migrations and the settings defaults.
  [a, b] = await Promise.all([startServer({ dataDir, env }), startServer({ dataDir, env })]);
});

afterAll(async () => {
  await b?.stop();
  await a?.stop(true);
  rmSync(dataDir, { recursive: true, force: true });
});

/** The same session on the other process (one JWT_SECRET). */
function on(server: TestServer, c: ApiClient): ApiClient {
  const other = new ApiClient(server.base);
  other.cookie = c.cookie;
  return other;
}

async function json(res: Response, status = 200): Promise<any> {
  const body = await res.json();
  expect({ status: res.status, url: res.url, error: res.status === status ? null : body }).toEqual({ status, url: res.url, error: null });
  return body;
}

async function commitBody(c: ApiClient, body: Record<string, unknown>): Promise<any> {
  return json(await c.post("/transactions/commit", body));
}

let alice: ApiClient;

describe("several processes on one database", () => {
  test("concurrent first registrations through both processes make exactly one superuser", async () => {
    const names = Array.from({ length: 8 }, (_, i) => `racer${i}`);
    const bodies = await Promise.all(names.map(async (name, i) => {
      const res = await new ApiClient((i % 2 ? b : a).base).post("/auth/register", { username: name, email: `${name}@example.com`, password: "Secret-pass1" });
      return { status: res.status, body: await res.json() as any };
    }));
    expect(bodies.map((r) => r.status)).toEqual(names.map(() => 201));
    const supers = bodies.filter((r) => r.body.user.is_superuser);
    expect(supers).toHaveLength(1);
    alice = new ApiClient(a.base);
    expect((await alice.login(supers[0]!.body.user.username)).status).toBe(200);
  });

  test("a write in one process is never answered from the other process's cache", async () => {
    const aliceB = on(b, alice);
    const broker = await looseBroker(alice, "Shared");
    const created = await json(await alice.post("/assets", [{ name: "Coherent", currency: "EUR" }]), 201);
    const asset = created.results[0].asset_id as number;
    await commitBody(alice, { creates: [deposit(broker, "1000", "2024-01-01"), buy(broker, asset, "10", "-100", "2024-01-02")] });
    await json(await alice.post("/assets/prices", [{ asset_id: asset, prices: [{ date: "2024-01-02", close: "10" }] }]));
    const report = async () => (await json(await aliceB.post("/portfolio/report", { include_allocation_history: false, date_range: { start: "2024-01-01", end: "2024-03-01" } }))).summary;
    expect((await report()).net_worth).toEqual({ code: "EUR", amount: "1000" });
    // Warm in B: the second answer comes from B's portfolio_blob.
    expect((await report()).net_worth).toEqual({ code: "EUR", amount: "1000" });
    const sizeOnB = async (name: string) => (await json(await aliceB.get("/settings/cache/status"))).items.find((i: any) => i.name === name)?.current_size ?? 0;
    expect(await sizeOnB("portfolio_blob")).toBe(1);

    // A transaction committed through A: 10 more units for 150 (cash 750, 20 units at the implied 15).
    await commitBody(alice, { creates: [buy(broker, asset, "10", "-150", "2024-01-03")] });
    expect((await report()).net_worth).toEqual({ code: "EUR", amount: "1050" });
    // A price written through A: 20 units now at 12.
    await json(await alice.post("/assets/prices", [{ asset_id: asset, prices: [{ date: "2024-02-01", close: "12" }] }]));
    expect((await report()).net_worth).toEqual({ code: "EUR", amount: "990" });
    // A price deleted through A.
    await json(await alice.request("DELETE", "/assets/prices", [{ asset_id: asset, date_ranges: [{ start: "2024-02-01" }] }]));
    expect((await report()).net_worth).toEqual({ code: "EUR", amount: "1050" });

    // portfolio_wac: warm in B, then a commit through A.
    const wac = async () => (await json(await aliceB.post("/portfolio/wac", { queries: [{ broker_id: broker, asset_id: asset }] }))).results[0];
    const before = await wac();
    expect(await sizeOnB("portfolio_wac")).toBe(1);
    await commitBody(alice, { creates: [buy(broker, asset, "5", "-80", "2024-01-04")] });
    const after = await wac();
    expect(after.series.length).toBe(before.series.length + 1);
    expect(after.series.at(-1).pool_qty).toBe("25");
  });

  test("an upload deleted through one process is gone in the other", async () => {
    const aliceB = on(b, alice);
    const id = (await json(await alice.post("/uploads", uploadForm(PNG_1X1, "shared.png")), 201)).id;
    // Read (and cached) through B.
    expect((await json(await aliceB.get(`/uploads/${id}`))).id).toBe(id);
    expect((await aliceB.get(`/uploads/file/${id}`)).status).toBe(200);
    expect((await alice.delete(`/uploads/${id}`)).status).toBeLessThan(300);
    expect((await aliceB.get(`/uploads/${id}`)).status).toBe(404);
  });

  test("broker report files uploaded through one process survive listings through the other", async () => {
    // A listing sweeps bytes whose row is gone; an upload's bytes must not look like that before its row commits.
    const aliceB = on(b, alice);
    const broker = await createBroker(alice, "Imports");
    const bytes = sample("degiro", "Account.csv");
    let listing = true;
    const lister = (async () => {
      while (listing) expect((await aliceB.get(`/brokers/import/files?broker_ids=${broker}`)).status).toBe(200);
    })();
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) ids.push((await json(await upload(alice, broker, `Account-${i}.csv`, bytes), 201)).file_id);
    listing = false;
    await lister;
    for (const id of ids) expect((await aliceB.get(`/brokers/import/files/${id}/download`)).status).toBe(200);
  });

  test("commits racing through both processes to one broker never overdraw it", async () => {
    const aliceB = on(b, alice);
    const broker = await createBroker(alice, "Strict");
    await commitBody(alice, { creates: [deposit(broker, "100", "2024-01-01")] });
    const attempts = Array.from({ length: 10 }, (_, i) => commitBody(i % 2 ? aliceB : alice, { creates: [withdrawal(broker, "-30", "2024-01-02")] }));
    const outcomes = await Promise.all(attempts);
    expect(outcomes.filter((o) => o.committed)).toHaveLength(3);
    for (const o of outcomes.filter((o) => !o.committed)) expect(o.issues.map((i: any) => i.code)).toContain("balanceCashNegative");
    const rows = await json(await aliceB.get(`/transactions?broker_id=${broker}`));
    expect(rows.filter((r: any) => r.type === "WITHDRAWAL")).toHaveLength(3);
  });

  test("a scheduled job runs once per slot across both processes", async () => {
    // current_price is on by default (every 10 minutes, starting at the first minute after start):
    // both processes fire it at the same instant; one claims the slot, the other leaves it.
    const ran = (l: Record<string, any>) => l.msg === "job finished" && l.job === "current_price";
    const winner = await until(() => [a, b].find((s) => s.logs().some(ran)));
    const loser = winner === a ? b : a;
    await until(() => loser.logs().find((l) => l.msg === "job slot taken by another process" && l.job === "current_price"));
    expect(winner.logs().filter(ran)).toHaveLength(1);
    expect(loser.logs().filter(ran)).toHaveLength(0);
    // The shared job log holds that one run.
    const log = readFileSync(join(dataDir, "logs", "scheduler.jsonl"), "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));
    expect(log.filter((e) => e.job === "current_price")).toHaveLength(1);
    // Both processes' scheduler state shows that run.
    for (const server of [a, b]) {
      const state = await json(await on(server, alice).get("/settings/scheduler/state"));
      expect(state.current_price.last_run_at).toBe(log.find((e) => e.job === "current_price").started_at);
    }
  }, 120_000);
});

/** Polls `probe` until it returns something (the test's timeout bounds the wait). */
async function until<T>(probe: () => T | undefined): Promise<T> {
  for (;;) {
    const found = probe();
    if (found !== undefined) return found;
    await Bun.sleep(250);
  }
}
