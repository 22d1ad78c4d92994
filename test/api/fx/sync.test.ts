import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { FxUpstream } from "../../fakes/fx-upstream.ts";
import { ApiClient, expectError } from "../../helpers/client.ts";
import { seedFxRoute, startServerWithFakeFx } from "../../helpers/fake-fx-server.ts";
import { queryDb } from "../../helpers/seed.ts";
import type { TestServer } from "../../helpers/server.ts";

let server: TestServer;
let upstream: FxUpstream;
let api: ApiClient;

const days = (rates: [string, string][]) => rates.map(([date, rate]) => ({ date, rate }));

beforeAll(async () => {
  ({ server, upstream } = await startServerWithFakeFx());
  api = new ApiClient(server.base);
  await api.signUp("fxsync");
  upstream.rates.set("EUR-USD", days([["2024-01-02", "1.1"], ["2024-01-03", "1.2"]]));
  upstream.rates.set("EUR-GBP", days([["2024-01-02", "0.8"]]));
  upstream.rates.set("EUR-CHF", days([["2024-01-02", "0.5"]]));
  upstream.rates.set("USD-JPY", days([["2024-01-02", "150"], ["2024-01-03", "151"]]));
  seedFxRoute(server.dataDir, { base: "EUR", quote: "USD", priority: 1, steps: [{ from: "EUR", to: "USD", provider: "FAKEFX" }] });
  // 3 steps: CHF→EUR (fakefx quotes EUR→CHF: reversed), EUR→USD, USD→JPY (fakefx2).
  seedFxRoute(server.dataDir, { base: "CHF", quote: "JPY", priority: 1, steps: [
    { from: "CHF", to: "EUR", provider: "FAKEFX" }, { from: "EUR", to: "USD", provider: "FAKEFX" }, { from: "USD", to: "JPY", provider: "FAKEFX2" },
  ] });
  seedFxRoute(server.dataDir, { base: "AUD", quote: "NZD", priority: 999, steps: [{ from: "AUD", to: "NZD", provider: "MANUAL" }] });
  // GBP-USD: primary through fakefx2 (fails: fakefx2 does not quote GBP), fallback GBP→EUR→USD.
  seedFxRoute(server.dataDir, { base: "GBP", quote: "USD", priority: 1, steps: [{ from: "GBP", to: "USD", provider: "FAKEFX2" }] });
  seedFxRoute(server.dataDir, { base: "GBP", quote: "USD", priority: 2, steps: [{ from: "GBP", to: "EUR", provider: "FAKEFX" }, { from: "EUR", to: "USD", provider: "FAKEFX" }] });
  // EUR-JPY: fakefx does not quote EUR→JPY and never will: every route fails.
  seedFxRoute(server.dataDir, { base: "EUR", quote: "JPY", priority: 1, steps: [{ from: "EUR", to: "JPY", provider: "FAKEFX" }] });
  // CHF-GBP: legs answer but with no rates in range.
  seedFxRoute(server.dataDir, { base: "CHF", quote: "GBP", priority: 1, steps: [{ from: "CHF", to: "EUR", provider: "FAKEFX" }, { from: "EUR", to: "GBP", provider: "FAKEFX" }] });
});
afterAll(async () => { upstream.stop(); await server.stop(true); });

const sync = (pairs: string[], start = "2024-01-01", end = "2024-01-05") => api.post("/fx/currencies/sync", { pairs, start, end });
const rows = (base: string, quote: string, provider: string) =>
  queryDb<{ date: string; rate: string }>(server.dataDir, `SELECT date, rate FROM fx_rates WHERE base = ? AND quote = ? AND provider = ? ORDER BY date`, base, quote, provider);

describe("POST /fx/currencies/sync", () => {
  test("ok: rates stored under the provider code; a repeat changes nothing", async () => {
    const res = await sync(["eur-usd"]);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.results[0]).toMatchObject({ pair: "EUR-USD", status: "ok", provider_used: "FAKEFX", points_fetched: 2, points_changed: 2, errors: [] });
    expect(body).toMatchObject({ success_count: 1, total_points_changed: 2, date_range: { start: "2024-01-01", end: "2024-01-05" } });
    expect(rows("EUR", "USD", "FAKEFX")).toEqual(days([["2024-01-02", "1.1"], ["2024-01-03", "1.2"]]));
  });

  test("provider answers are cached (fx_provider_responses): the same leg and range is not fetched twice", async () => {
    const before = upstream.hits.get("EUR-USD") ?? 0;
    const body = await (await sync(["EUR-USD"])).json();
    expect(body.results[0]).toMatchObject({ status: "ok", points_changed: 0 });
    expect(upstream.hits.get("EUR-USD") ?? 0).toBe(before);
  });

  test("a multi-step route fetches every leg and stores each under its own pair and provider (reversed legs inverted)", async () => {
    const body = await (await sync(["JPY-CHF"], "2024-01-02", "2024-01-03")).json();
    expect(body.results[0]).toMatchObject({ pair: "CHF-JPY", status: "ok", provider_used: "FAKEFX,FAKEFX2" });
    expect(upstream.hits.get("EUR-CHF")).toBeGreaterThan(0);
    expect(upstream.hits.get("USD-JPY")).toBeGreaterThan(0);
    expect(rows("CHF", "EUR", "FAKEFX")).toEqual(days([["2024-01-02", "2"]]));
    expect(rows("JPY", "USD", "FAKEFX2").map((r) => r.date)).toEqual(["2024-01-02", "2024-01-03"]);
    expect(rows("JPY", "USD", "FAKEFX2")[0]!.rate).toBe("0.006666666666666666666666666666666667");
  });

  test("skipped: a MANUAL-only pair (and a pair without routes) is not fetched", async () => {
    const body = await (await sync(["AUD-NZD", "CAD-SEK"])).json();
    expect(body.results.map((r: any) => r.status)).toEqual(["skipped", "skipped"]);
    expect(body.success_count).toBe(0);
  });

  test("priority fallback: the primary route fails, the next one is used", async () => {
    const body = await (await sync(["GBP-USD"])).json();
    expect(body.results[0]).toMatchObject({ status: "ok", provider_used: "FAKEFX" });
    expect(body.results[0].errors.length).toBe(1);
    expect(rows("EUR", "GBP", "FAKEFX")).toEqual(days([["2024-01-02", "0.8"]]));
  });

  test("failed: every route fails (upstream error or unsupported pair), nothing stored", async () => {
    upstream.failures.set("EUR-GBP", 500);
    const body = await (await sync(["EUR-JPY", "GBP-USD"], "2023-01-01", "2023-01-05")).json();
    upstream.failures.clear();
    expect(body.results.map((r: any) => r.status)).toEqual(["failed", "failed"]);
    expect(body.success_count).toBe(0);
    expect(body.errors.length).toBe(2);
  });

  test("partial: the provider answered but a leg has no rates in the range", async () => {
    const body = await (await sync(["CHF-GBP"], "2023-06-01", "2023-06-05")).json();
    expect(body.results[0]).toMatchObject({ status: "partial", points_fetched: 0, points_changed: 0 });
    expect(body.success_count).toBe(1);
  });

  test("start 'min' is accepted; start > end or end > today is 400", async () => {
    expect((await sync(["EUR-USD"], "min", "2024-01-05")).status).toBe(200);
    await expectError(await sync(["EUR-USD"], "2024-01-06", "2024-01-05"), 400);
    await expectError(await sync(["EUR-USD"], "2024-01-01", "2999-01-01"), 400);
    expect((await api.post("/fx/currencies/sync", { pairs: [], start: "2024-01-01", end: "2024-01-02" })).status).toBe(422);
  });
});
