import { beforeAll, describe, expect, test } from "bun:test";
import { ApiClient, expectError } from "../../helpers/client.ts";
import { seedTransactions } from "../../helpers/seed.ts";
import { type TestServer, useApi } from "../../helpers/server.ts";
import { buy, commitOk, createAsset, eur, looseBroker, type Row, usd } from "../transactions/fixtures.ts";

const api = useApi();
let server: TestServer;
let c: ApiClient;
let other: ApiClient;
let broker = 0;

beforeAll(async () => {
  server = api.server;
  c = new ApiClient(server.base);
  await c.signUp("waccer");
  other = new ApiClient(server.base);
  await other.signUp("stranger");
  broker = await looseBroker(c, "WAC");
});

const sell = (asset_id: number, quantity: string, amount: string, date: string): Row =>
  ({ broker_id: broker, asset_id, type: "SELL", date, quantity: `-${quantity}`, cash: eur(amount) });

async function wac(client: ApiClient, queries: unknown[]) {
  const res = await client.post("/portfolio/wac", { queries });
  expect(res.status).toBe(200);
  return (await res.json()).results as any[];
}

async function cacheSize(name: string): Promise<number> {
  const status = await (await c.get("/settings/cache/status")).json();
  return status.items.find((i: any) => i.name === name)?.current_size ?? 0;
}

describe("POST /portfolio/wac access and validation", () => {
  test("401 without a session", async () => {
    await expectError(await new ApiClient(server.base).post("/portfolio/wac", { queries: [{ broker_id: broker, asset_id: 1 }] }), 401, "NOT_AUTHENTICATED");
  });

  test("404 for a broker without an access row (another user's broker)", async () => {
    const asset = createAsset(server.dataDir);
    const theirs = await looseBroker(other, "Theirs");
    await expectError(await c.post("/portfolio/wac", { queries: [{ broker_id: theirs, asset_id: asset }] }), 404, "BROKER_NOT_FOUND");
  });

  test("404 for an unknown asset", async () => {
    await expectError(await c.post("/portfolio/wac", { queries: [{ broker_id: broker, asset_id: 999_999 }] }), 404, "ASSET_NOT_FOUND");
  });

  test("413 LIMIT_EXCEEDED for 21 queries", async () => {
    const q = { broker_id: broker, asset_id: 1 };
    const body = await expectError(await c.post("/portfolio/wac", { queries: Array.from({ length: 21 }, () => q) }), 413, "LIMIT_EXCEEDED");
    expect(body.detail).toContain("at most 20 queries per request; this one asks for 21");
  });

  test("422 for 0 queries, unknown keys, or an end before the start", async () => {
    const q = { broker_id: broker, asset_id: 1 };
    await expectError(await c.post("/portfolio/wac", { queries: [] }), 422, "VALIDATION_ERROR");
    await expectError(await c.post("/portfolio/wac", { queries: [q], extra: 1 }), 422, "VALIDATION_ERROR");
    await expectError(await c.post("/portfolio/wac", { queries: [{ ...q, date_range: { start: "2024-02-01", end: "2024-01-01" } }] }), 422, "VALIDATION_ERROR");
  });
});

describe("POST /portfolio/wac series", () => {
  test("one point per quantity move with exact values, filtered by date_range", async () => {
    const asset = createAsset(server.dataDir);
    await commitOk(c, { creates: [
      buy(broker, asset, "10", "-100", "2024-01-02"), buy(broker, asset, "10", "-200", "2024-01-03"),
      sell(asset, "5", "90", "2024-01-04"), { broker_id: broker, asset_id: asset, type: "DIVIDEND", date: "2024-01-05", cash: eur("3") },
      sell(asset, "15", "300", "2024-01-06"), buy(broker, asset, "4", "-50", "2024-01-07"),
    ] });
    const [all] = await wac(c, [{ broker_id: broker, asset_id: asset }]);
    expect(all).toEqual({
      broker_id: broker, asset_id: asset, currency: "EUR", missing_fx_pairs: [],
      series: [
        { date: "2024-01-02", wac: "10", pool_qty: "10", effect: "add" },
        { date: "2024-01-03", wac: "15", pool_qty: "20", effect: "add" },
        { date: "2024-01-04", wac: "15", pool_qty: "15", effect: "reduce" },
        { date: "2024-01-06", wac: null, pool_qty: "0", effect: "reduce" },
        { date: "2024-01-07", wac: "12.5", pool_qty: "4", effect: "add" },
      ],
    });
    const [part] = await wac(c, [{ broker_id: broker, asset_id: asset, date_range: { start: "2024-01-03", end: "2024-01-04" } }]);
    expect(part.series.map((p: any) => p.date)).toEqual(["2024-01-03", "2024-01-04"]);
    const [open] = await wac(c, [{ broker_id: broker, asset_id: asset, date_range: { start: "min", end: "max" } }]);
    expect(open.series).toEqual(all.series);
  });

  test("a foreign cost is converted at its date; a missing rate is listed", async () => {
    const asset = createAsset(server.dataDir);
    expect((await c.post("/fx/currencies/rate", [{ date: "2024-03-01", base: "EUR", quote: "USD", rate: "2" }])).status).toBe(200);
    await commitOk(c, { creates: [
      { broker_id: broker, asset_id: asset, type: "BUY", date: "2024-02-01", quantity: "1", cash: usd("-30") },
      { broker_id: broker, asset_id: asset, type: "BUY", date: "2024-03-02", quantity: "1", cash: usd("-40") },
      buy(broker, asset, "2", "-20", "2024-03-03"),
    ] });
    const [r] = await wac(c, [{ broker_id: broker, asset_id: asset }]);
    expect(r.currency).toBe("EUR");
    expect(r.series.map((p: any) => [p.effect, p.pool_qty, p.wac])).toEqual([
      ["add_zero_cost", "1", "0"], ["add", "2", "10"], ["add", "4", "10"],
    ]);
    expect(r.missing_fx_pairs).toEqual([{ pair: "USD/EUR", dates: ["2024-02-01"] }]);
  });

  test("results are cached per query; a transaction commit empties portfolio_wac", async () => {
    const asset = createAsset(server.dataDir);
    await commitOk(c, { creates: [buy(broker, asset, "2", "-20", "2024-01-02")] });
    const query = [{ broker_id: broker, asset_id: asset }];
    const first = await wac(c, query);
    expect(await cacheSize("portfolio_wac")).toBeGreaterThan(0);
    expect(await wac(c, query)).toEqual(first);
    // A row written by another process (here straight into the file) bumps the stored cache
    // generation (docs/deploy.md): the next answer is not served from the stale cache.
    seedTransactions(server.dataDir, [{ brokerId: broker, assetId: asset, type: "BUY", date: "2024-01-03", quantity: "2", amount: "-40", currency: "EUR" }]);
    const [seen] = await wac(c, query);
    expect(seen.series.map((p: any) => [p.pool_qty, p.wac])).toEqual([["2", "10"], ["4", "15"]]);
    await commitOk(c, { creates: [buy(broker, asset, "1", "-10", "2024-01-04")] });
    expect(await cacheSize("portfolio_wac")).toBe(0);
    const [fresh] = await wac(c, query);
    expect(fresh.series.map((p: any) => [p.pool_qty, p.wac])).toEqual([["2", "10"], ["4", "15"], ["5", "14"]]);
  });
});
