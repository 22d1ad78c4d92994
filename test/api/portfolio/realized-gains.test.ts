import { beforeAll, expect, test } from "bun:test";
import { ApiClient, expectError } from "../../helpers/client.ts";
import { useApi } from "../../helpers/server.ts";
import { buy, commitOk, eur, looseBroker } from "../transactions/fixtures.ts";

// POST /portfolio/realized-gains (docs/portfolio-lots.md "Realised gains") through the real server.
const api = useApi();
let alice: ApiClient;
let a = 0;
let b = 0;
let acme = 0;
let other = 0;
const sell = (broker_id: number, asset_id: number, quantity: string, amount: string, date: string) =>
  ({ broker_id, type: "SELL", date, asset_id, quantity: `-${quantity}`, cash: eur(amount) });

beforeAll(async () => {
  alice = new ApiClient(api.server.base);
  await alice.signUp("gains-alice");
  a = await looseBroker(alice, "Gains A");
  b = await looseBroker(alice, "Gains B");
  const assets = await (await alice.post("/assets", [{ name: "Gains ACME", currency: "EUR" }, { name: "Gains Other", currency: "EUR" }])).json();
  [acme, other] = assets.results.map((r: { asset_id: number }) => r.asset_id);
  await commitOk(alice, { creates: [
    buy(a, acme, "10", "-1000", "2024-01-10"),
    buy(a, acme, "10", "-1200", "2024-03-01"),
    sell(a, acme, "15", "1950", "2024-06-03"),
    sell(a, acme, "5", "450", "2025-02-03"),
    buy(b, other, "4", "-400.40", "2024-02-01"),
    sell(b, other, "1", "120.10", "2025-03-05"),
  ] });
});

const gains = async (body: unknown) => {
  const res = await alice.post("/portfolio/realized-gains", body);
  expect(res.status).toBe(200);
  return res.json();
};

test("each disposal lists the FIFO lots it closed and the average cost beside them", async () => {
  const out = await gains({ broker_ids: [a] });
  expect(out.target_currency).toBe("EUR");
  expect(out.broker_ids).toEqual([a]);
  expect(out.year).toBeNull();
  const first = out.disposals[0];
  // FIFO: the 10 units of January (1,000) and 5 of March (5 × 120); average: 15 × 110.
  expect(first).toMatchObject({
    date: "2024-06-03", asset_id: acme, asset_name: "Gains ACME", broker_id: a, quantity: "15", proceeds: "1950",
    fifo_cost: "1600", fifo_gain: "350", average_cost: "1650", average_gain: "300", acquired_from: "2024-01-10", acquired_to: "2024-03-01",
  });
  expect(first.lots).toEqual([
    { lot_id: expect.any(Number), acquisition_date: "2024-01-10", quantity: "10", cost: "1000", holding_days: 145 },
    { lot_id: expect.any(Number), acquisition_date: "2024-03-01", quantity: "5", cost: "600", holding_days: 94 },
  ]);
  // The second sale: the rest of March's lot (5 × 120) against the pool's average (5 × 110).
  expect(out.disposals[1]).toMatchObject({ date: "2025-02-03", proceeds: "450", fifo_cost: "600", fifo_gain: "-150", average_cost: "550", average_gain: "-100" });
  expect(out.disposals[1].lots[0].holding_days).toBe(339);
});

test("totals per tax year add the year's disposals; a year narrows the list and its totals", async () => {
  const all = await gains({});
  expect(all.broker_ids).toEqual([a, b].sort((x, y) => x - y));
  expect(all.years).toEqual([
    { year: 2024, disposals: 1, proceeds: "1950", fifo_cost: "1600", fifo_gain: "350", average_cost: "1650", average_gain: "300" },
    { year: 2025, disposals: 2, proceeds: "570.1", fifo_cost: "700.1", fifo_gain: "-130", average_cost: "650.1", average_gain: "-80" },
  ]);
  expect(all.totals).toEqual({ disposals: 3, proceeds: "2520.1", fifo_cost: "2300.1", fifo_gain: "220", average_cost: "2300.1", average_gain: "220" });
  const y2025 = await gains({ year: 2025 });
  expect(y2025.year).toBe(2025);
  expect(y2025.disposals.map((d: { date: string }) => d.date)).toEqual(["2025-02-03", "2025-03-05"]);
  expect(y2025.years).toEqual([all.years[1]]);
  expect(y2025.totals).toEqual({ ...all.years[1], year: undefined });
});

test("the FIFO gains are the lots analysis' realised P&L and the average-cost gains the report's realised gain", async () => {
  const out = await gains({});
  const lots = await (await alice.post("/portfolio/lots/analysis", { asset_id: acme, requested_analyses: ["LOT_SUMMARY"] })).json();
  const lotPnl = lots.lots.reduce((s: number, l: { realized_pnl: string }) => s + Number(l.realized_pnl), 0);
  const acmeFifo = out.disposals.filter((d: { asset_id: number }) => d.asset_id === acme).reduce((s: number, d: { fifo_gain: string }) => s + Number(d.fifo_gain), 0);
  expect(acmeFifo).toBe(lotPnl);
  const report = await (await alice.post("/portfolio/report", { include_history: false, include_allocation_history: false })).json();
  expect(out.totals.average_gain).toBe(report.summary.realized_gain_loss.amount);
});

test("amounts are in the target currency: the cost at the purchase day's rate, the proceeds at the sale's; a missing rate leaves them null and is listed", async () => {
  const carol = new ApiClient(api.server.base);
  await carol.signUp("gains-carol");
  const c = await looseBroker(carol, "Gains USD");
  const usdAsset = (await (await carol.post("/assets", [{ name: "Gains US Co", currency: "USD" }])).json()).results[0].asset_id;
  // Shared rates are written by an administrator (alice, the first account).
  expect((await alice.post("/fx/currencies/rate", [{ date: "2024-01-02", base: "EUR", quote: "USD", rate: "1.25" }, { date: "2024-06-28", base: "EUR", quote: "USD", rate: "1.6" }])).status).toBe(200);
  await commitOk(carol, { creates: [
    { broker_id: c, type: "BUY", date: "2024-02-01", asset_id: usdAsset, quantity: "10", cash: { code: "USD", amount: "-100" } },
    { broker_id: c, type: "SELL", date: "2024-07-01", asset_id: usdAsset, quantity: "-4", cash: { code: "USD", amount: "64" } },
  ] });
  const eurOut = await (await carol.post("/portfolio/realized-gains", { target_currency: "EUR" })).json();
  // Cost: 4 × (100 / 10 / 1.25) = 32 EUR; proceeds: 64 / 1.6 = 40 EUR.
  expect(eurOut.disposals).toHaveLength(1);
  expect(eurOut.disposals[0]).toMatchObject({ quantity: "4", proceeds: "40", fifo_cost: "32", fifo_gain: "8", average_cost: "32", average_gain: "8" });
  expect(eurOut.missing_fx_pairs).toEqual([]);
  const gbp = await (await carol.post("/portfolio/realized-gains", { target_currency: "GBP" })).json();
  expect(gbp.target_currency).toBe("GBP");
  expect(gbp.disposals[0]).toMatchObject({ proceeds: null, fifo_cost: null, fifo_gain: null, average_cost: null, average_gain: null });
  expect(gbp.totals).toMatchObject({ disposals: 1, proceeds: null, fifo_gain: null });
  expect(gbp.missing_fx_pairs).toEqual([{ pair: "USD/GBP", dates: ["2024-02-01", "2024-07-01"] }]);
});

test("a broker without an access row is 404, unknown keys 422, no session 401", async () => {
  await expectError(await alice.post("/portfolio/realized-gains", { broker_ids: [999_999] }), 404, "BROKER_NOT_FOUND");
  await expectError(await alice.post("/portfolio/realized-gains", { years: 2024 }), 422);
  await expectError(await alice.post("/portfolio/realized-gains", { year: "2024" }), 422);
  await expectError(await api.client().post("/portfolio/realized-gains", {}), 401);
  const bob = new ApiClient(api.server.base);
  await bob.signUp("gains-bob");
  await expectError(await bob.post("/portfolio/realized-gains", { broker_ids: [a] }), 404, "BROKER_NOT_FOUND");
  const empty = await (await bob.post("/portfolio/realized-gains", {})).json();
  expect(empty).toMatchObject({ broker_ids: [], disposals: [], years: [], totals: { disposals: 0, proceeds: "0" } });
});

test("a second request is answered from the cache until a write to the ledger or the rates it used clears it", async () => {
  const dave = new ApiClient(api.server.base);
  await dave.signUp("gains-dave");
  const d = await looseBroker(dave, "Gains CHF");
  const chfAsset = (await (await dave.post("/assets", [{ name: "Gains Swiss Co", currency: "CHF" }])).json()).results[0].asset_id;
  expect((await alice.post("/fx/currencies/rate", [{ date: "2023-01-02", base: "EUR", quote: "CHF", rate: "1.25" }])).status).toBe(200);
  await commitOk(dave, { creates: [
    { broker_id: d, type: "BUY", date: "2023-02-01", asset_id: chfAsset, quantity: "10", cash: { code: "CHF", amount: "-100" } },
    { broker_id: d, type: "SELL", date: "2023-07-03", asset_id: chfAsset, quantity: "-4", cash: { code: "CHF", amount: "60" } },
  ] });
  const ask = async () => {
    const res = await dave.post("/portfolio/realized-gains", { target_currency: "EUR" });
    expect(res.status).toBe(200);
    return res.json();
  };
  const cached = async () => (await (await dave.get("/settings/cache/status")).json()).items
    .find((i: { name: string }) => i.name === "portfolio_gains")?.current_size ?? 0;
  const first = await ask();
  // Cost 4 × 10 / 1.25 = 32 EUR, proceeds 60 / 1.25 = 48 EUR.
  expect(first.disposals.map((x: { proceeds: string; fifo_cost: string }) => [x.proceeds, x.fifo_cost])).toEqual([["48", "32"]]);
  expect(await cached()).toBeGreaterThan(0);
  expect(await ask()).toEqual(first);

  // A shared rate on the sale's day: the proceeds are converted at it (60 / 1.5).
  expect((await alice.post("/fx/currencies/rate", [{ date: "2023-07-01", base: "EUR", quote: "CHF", rate: "1.5" }])).status).toBe(200);
  expect(await cached()).toBe(0);
  const afterRate = await ask();
  expect(afterRate.disposals.map((x: { proceeds: string; fifo_cost: string }) => [x.proceeds, x.fifo_cost])).toEqual([["40", "32"]]);

  // A new sale is a new disposal, in the totals too.
  await commitOk(dave, { creates: [
    { broker_id: d, type: "SELL", date: "2023-09-01", asset_id: chfAsset, quantity: "-2", cash: { code: "CHF", amount: "30" } },
  ] });
  const afterSale = await ask();
  expect(afterSale.disposals.map((x: { date: string; proceeds: string }) => [x.date, x.proceeds])).toEqual([["2023-07-03", "40"], ["2023-09-01", "20"]]);
  expect(afterSale.totals).toMatchObject({ disposals: 2, proceeds: "60", fifo_cost: "48", fifo_gain: "12" });
});
