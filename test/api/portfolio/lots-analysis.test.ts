import { beforeAll, describe, expect, test } from "bun:test";
import { ApiClient, expectError } from "../../helpers/client.ts";
import { queryDb } from "../../helpers/seed.ts";
import { type TestServer, useApi } from "../../helpers/server.ts";
import { buy, commitOk, eur, looseBroker, type Row, share } from "../transactions/fixtures.ts";

const api = useApi();
let server: TestServer;
let alice: ApiClient;
let bob: ApiClient;
let bobId = 0;
let aliceId = 0;
let a = 0;
let b = 0;
let names = 0;

const ALL = ["LOT_SUMMARY", "GANTT_TOPOLOGY", "CUSTODY_HISTORY", "EVENT_HISTORY", "VALUE_HISTORY", "RETURN_HISTORY", "PRICE_HISTORY",
  "BROKER_WAC_HISTORY", "CUMULATIVE_WAC_HISTORY", "PERFORMANCE_HISTORY", "INCOME_EVENTS"];

beforeAll(async () => {
  server = api.server;
  alice = new ApiClient(server.base);
  bob = new ApiClient(server.base);
  aliceId = (await alice.signUp("lots-alice")).id;
  bobId = (await bob.signUp("lots-bob")).id;
  a = await looseBroker(alice, "Lots A");
  b = await looseBroker(alice, "Lots B");
});

async function asset(currency = "EUR"): Promise<number> {
  const res = await alice.post("/assets", [{ name: `Lots asset ${++names}`, currency }]);
  expect(res.status).toBe(201);
  return (await res.json()).results[0].asset_id;
}

async function prices(assetId: number, points: { date: string; close: string }[]) {
  expect((await alice.post("/assets/prices", [{ asset_id: assetId, prices: points }])).status).toBe(200);
}

function transfer(from: number, to: number, assetId: number, q: string, out: string, arrive: string, uuid: string, override = "10"): Row[] {
  return [
    { broker_id: from, asset_id: assetId, type: "TRANSFER", date: out, quantity: `-${q}`, link_uuid: uuid },
    { broker_id: to, asset_id: assetId, type: "TRANSFER", date: arrive, quantity: q, link_uuid: uuid, cost_basis_override: eur(override) },
  ];
}

const analyse = (c: ApiClient, body: Record<string, unknown>) => c.post("/portfolio/lots/analysis", body);
async function ok(c: ApiClient, body: Record<string, unknown>) {
  const res = await analyse(c, body);
  expect(res.status).toBe(200);
  return res.json();
}

describe("POST /portfolio/lots/analysis", () => {
  test("a SELL closes the oldest lot first; lots survive a transfer between brokers (FIFO across the scope)", async () => {
    const x = await asset();
    const [b1, b2] = await commitOk(alice, { creates: [
      buy(a, x, "10", "-100", "2024-01-02"), buy(a, x, "10", "-150", "2024-01-03"),
      ...transfer(a, b, x, "6", "2024-01-05", "2024-01-07", "t1"),
      { broker_id: b, asset_id: x, type: "SELL", date: "2024-01-08", quantity: "-5", cash: eur("125") },
    ] });
    await prices(x, [{ date: "2024-01-08", close: "20" }]);
    const out = await ok(alice, { asset_id: x, date_range: { start: "min", end: "2024-01-10" }, requested_analyses: ALL });
    expect(out).toMatchObject({
      asset_id: x, target_currency: "EUR", quote_base_quantity: "1", calculation_status: "COMPLETE", economic_allocation_groups: null,
      asset_orphan_income: "0", asset_orphan_fees: "0", asset_orphan_taxes: "0",
      calculation_metadata: { broker_ids: [a, b], requested_analyses: ALL, requested_date_from: null, requested_date_to: "2024-01-10",
        computed_date_from: "2024-01-02", computed_date_to: "2024-01-10", selected_lot_ids: null },
      data_quality: { issues: [], data_quality_status: "ok", missing_fx_pairs: [] },
    });
    expect(out.lots.map((l: any) => [l.lot_id, l.open_quantity, l.realized_quantity, l.realized_pnl, l.open_value, l.pnl, l.states, l.current_custody])).toEqual([
      [b1, "5", "5", "75", "100", "125", ["PARTIALLY_CLOSED", "TRANSFERRED"],
        [{ broker_id: a, custody_type: "BROKER", quantity: "4" }, { broker_id: b, custody_type: "BROKER", quantity: "1" }]],
      [b2, "10", "0", "0", "200", "50", ["OPEN"], [{ broker_id: a, custody_type: "BROKER", quantity: "10" }]],
    ]);
    expect(out.lot_events.map((e: any) => [e.kind, e.lot_id, e.quantity])).toEqual([
      ["BUY", b1, "10"], ["BUY", b2, "10"], ["TRANSFER_DEPART", b1, "6"], ["TRANSFER_ARRIVE", b1, "6"], ["SELL", b1, "5"],
    ]);
    expect(out.value_history.find((v: any) => v.date === "2024-01-06")).toMatchObject({ quantity: "20", in_transit_quantity: "6" });
    expect(out.price_history.at(-1)).toEqual({ date: "2024-01-10", price: "20", unit_price_asset_currency: "20", source: "MARKET_PRICE", price_date: "2024-01-08" });
    expect(out.cumulative_wac_history.at(-1)).toEqual({ date: "2024-01-10", quantity: "15", total_cost: "187.5", wac_per_unit: "12.5" });
    expect(out.value_history).toHaveLength(9);
    for (const key of ["gantt_segments", "custody_history", "return_history", "broker_wac_history", "performance_history", "income_events"]) {
      expect(Array.isArray(out[key])).toBe(true);
    }
  });

  test("unrequested sections are null; selected_lot_ids narrows the lots", async () => {
    const x = await asset();
    const [, second] = await commitOk(alice, { creates: [buy(a, x, "1", "-10", "2024-03-01"), buy(a, x, "1", "-20", "2024-03-02")] });
    const out = await ok(alice, { asset_id: x, broker_ids: [a], date_range: { start: "2024-03-01", end: "2024-03-05" },
      requested_analyses: ["LOT_SUMMARY"], selected_lot_ids: [second] });
    expect(out.lots.map((l: any) => [l.lot_id, l.original_cost])).toEqual([[second, "20"]]);
    for (const key of ["gantt_segments", "custody_history", "lot_events", "value_history", "return_history", "price_history",
      "broker_wac_history", "cumulative_wac_history", "performance_history", "income_events"]) expect(out[key]).toBeNull();
  });

  test("share weighting: an OWNER sees quantities and costs times the share, a VIEWER in full", async () => {
    const x = await asset();
    const c = await looseBroker(alice, "Lots shared");
    expect((await alice.patch(`/brokers/${c}/access/${aliceId}`, { share_percentage: "0.5" })).status).toBe(200);
    await share(alice, c, bobId, "VIEWER");
    await commitOk(alice, { creates: [buy(c, x, "10", "-100", "2024-04-01")] });
    const body = { asset_id: x, broker_ids: [c], date_range: { end: "2024-04-02" }, requested_analyses: ["LOT_SUMMARY"] };
    expect((await ok(alice, body)).lots[0]).toMatchObject({ original_quantity: "5", original_cost: "50", opening_unit_price: "10" });
    expect((await ok(bob, body)).lots[0]).toMatchObject({ original_quantity: "10", original_cost: "100", opening_unit_price: "10" });
  });

  test("unknown-cost ADJUSTMENT makes the analysis DEGRADED with MISSING_COST_BASIS", async () => {
    const x = await asset();
    await commitOk(alice, { creates: [buy(a, x, "2", "-20", "2024-05-01")] });
    // A row stored before the cost basis rule existed: an inbound ADJUSTMENT without cost_basis_override.
    queryDb(server.dataDir, "INSERT INTO transactions (broker_id, asset_id, type, date, quantity) VALUES (?, ?, 'ADJUSTMENT', '2024-05-02', '3')", a, x);
    const adj = queryDb<{ id: number }>(server.dataDir, "SELECT MAX(id) AS id FROM transactions")[0]!.id;
    const out = await ok(alice, { asset_id: x, date_range: { end: "2024-05-03" }, requested_analyses: ["LOT_SUMMARY", "BROKER_WAC_HISTORY"] });
    expect(out.calculation_status).toBe("DEGRADED");
    expect(out.lots[1]).toMatchObject({ lot_id: adj, original_cost: null, original_quantity: "3" });
    expect(out.broker_wac_history.at(-1)).toEqual({ date: "2024-05-03", broker_id: a, quantity: "5", total_cost: null, wac_per_unit: null });
    expect(out.data_quality.data_quality_status).toBe("partial");
    expect(out.data_quality.issues.find((i: any) => i.code === "MISSING_COST_BASIS")).toEqual({
      domain: "portfolio", code: "MISSING_COST_BASIS", severity: "warning", count: 1, affected_asset_ids: [x],
      affected_asset_names: [`Lots asset ${names}`], affected_fx_pairs: [], cta_action: "navigate_asset", cta_target: String(x),
      message_i18n_key: "dataQuality.missingCostBasis", message_params: { count: 1, transaction_ids: [adj] },
      date_range: { start: "2024-05-02", end: "2024-05-02" }, group: "missing_cost_basis",
    });
  });

  test("orphan inbound transfer leg gives TRANSFER_PAIR_MISSING and opens a lot at its override", async () => {
    const x = await asset();
    const ids = await commitOk(alice, { creates: [buy(a, x, "4", "-40", "2024-06-01"), ...transfer(a, b, x, "4", "2024-06-02", "2024-06-02", "t2", "12")] });
    const out = await ok(alice, { asset_id: x, broker_ids: [b], date_range: { end: "2024-06-03" }, requested_analyses: ["LOT_SUMMARY"] });
    expect(out.calculation_status).toBe("DEGRADED");
    expect(out.lots).toHaveLength(1);
    expect(out.lots[0]).toMatchObject({ lot_id: ids[2], opening_broker_id: b, original_cost: "48", open_quantity: "4" });
    expect(out.data_quality.issues.filter((i: any) => i.code !== "CURRENT_PRICE_ASSUMED_AT_COST").map((i: any) => [i.code, i.message_params]))
      .toEqual([["TRANSFER_PAIR_MISSING", { count: 1, transaction_ids: [ids[2]] }]]);
  });

  test("a conversion gap is DEGRADED with MISSING_FX_MARKET; a manual rate converts at the trade date", async () => {
    const x = await asset("USD");
    await commitOk(alice, { creates: [{ broker_id: a, asset_id: x, type: "BUY", date: "2024-07-01", quantity: "10", cash: { code: "USD", amount: "-100" } }] });
    const body = { asset_id: x, target_currency: "EUR", date_range: { start: "2024-07-01", end: "2024-07-02" }, requested_analyses: ["LOT_SUMMARY"] };
    const gap = await ok(alice, body);
    expect(gap.calculation_status).toBe("DEGRADED");
    expect(gap.data_quality.missing_fx_pairs).toEqual([{ pair: "USD/EUR", dates: ["2024-07-01"] }]);
    expect(gap.data_quality.issues.find((i: any) => i.code === "MISSING_FX_MARKET")).toMatchObject({
      cta_action: "add_fx_pair", cta_target: "EUR-USD", affected_fx_pairs: ["EUR-USD"], count: 1,
    });
    expect((await alice.post("/fx/currencies/rate", [{ date: "2024-06-28", base: "EUR", quote: "USD", rate: "1.25" }])).status).toBe(200);
    const fixed = await ok(alice, { ...body, force: true });
    expect(fixed.calculation_status).toBe("COMPLETE");
    expect(fixed.lots[0]).toMatchObject({ original_cost: "80", opening_unit_price: "8", currency: "EUR" });
  });

  test("force bypasses the cache and refreshes it", async () => {
    const x = await asset();
    await commitOk(alice, { creates: [buy(a, x, "1", "-10", "2024-08-01")] });
    const body = { asset_id: x, date_range: { end: "2024-08-02" }, requested_analyses: ["LOT_SUMMARY"] };
    const first = await ok(alice, body);
    expect((await ok(alice, body)).calculation_metadata.generated_at).toBe(first.calculation_metadata.generated_at);
    await Bun.sleep(5);
    const forced = await ok(alice, { ...body, force: true });
    expect(forced.calculation_metadata.generated_at).not.toBe(first.calculation_metadata.generated_at);
    expect((await ok(alice, body)).calculation_metadata.generated_at).toBe(forced.calculation_metadata.generated_at);
  });

  test("another user's broker is 404 BROKER_NOT_FOUND; an unknown asset is 404 ASSET_NOT_FOUND", async () => {
    const x = await asset();
    await expectError(await analyse(bob, { asset_id: x, broker_ids: [a], requested_analyses: ["LOT_SUMMARY"] }), 404, "BROKER_NOT_FOUND");
    await expectError(await analyse(alice, { asset_id: 999_999, requested_analyses: ["LOT_SUMMARY"] }), 404, "ASSET_NOT_FOUND");
    const own = await ok(bob, { asset_id: x, requested_analyses: ["LOT_SUMMARY"] });
    expect(own.lots).toEqual([]);
  });

  test("the request is strict: unknown keys, empty or repeated analyses and end before start are 422; no session is 401", async () => {
    const x = await asset();
    for (const body of [
      { asset_id: x, requested_analyses: ["LOT_SUMMARY"], extra: 1 },
      { asset_id: x, requested_analyses: [] },
      { asset_id: x, requested_analyses: ["LOT_SUMMARY", "LOT_SUMMARY"] },
      { asset_id: x, requested_analyses: ["NOPE"] },
      { asset_id: x, requested_analyses: ["LOT_SUMMARY"], date_range: { start: "2024-02-02", end: "2024-02-01" } },
    ]) await expectError(await analyse(alice, body), 422, "VALIDATION_ERROR");
    await expectError(await fetch(`${server.base}/portfolio/lots/analysis`, {
      method: "POST", body: JSON.stringify({ asset_id: x, requested_analyses: ["LOT_SUMMARY"] }), headers: { "content-type": "application/json" },
    }), 401, "NOT_AUTHENTICATED");
  });
});
