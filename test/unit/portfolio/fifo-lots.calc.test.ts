import { describe, expect, test } from "bun:test";
import { analyseLots, LOT_ANALYSES, type LotsInput } from "../../../core/portfolio/fifo-lots.calc.ts";
import type { LotTx } from "../../../core/portfolio/lots-types.ts";

let nextId = 1;
function tx(brokerId: number, type: string, date: string, quantity: string, extra: Partial<LotTx> = {}): LotTx {
  return {
    amount: null, assetEventId: null, brokerId, costBasisCurrency: null, costBasisOverride: null, currency: null, date,
    id: nextId++, quantity, relatedTransactionId: null, type, ...extra,
  };
}
const buy = (b: number, date: string, q: string, paid: string, currency = "EUR") => tx(b, "BUY", date, q, { amount: `-${paid}`, currency });
const sell = (b: number, date: string, q: string, got: string) => tx(b, "SELL", date, `-${q}`, { amount: got, currency: "EUR" });
const cash = (b: number, type: string, date: string, amount: string) => tx(b, type, date, "0", { amount, currency: "EUR" });
function transfer(from: number, to: number, out: string, arrive: string, q: string, override: string | null = null): LotTx[] {
  const a = tx(from, "TRANSFER", out, `-${q}`);
  const b = tx(to, "TRANSFER", arrive, q, { costBasisOverride: override, costBasisCurrency: override ? "EUR" : null });
  a.relatedTransactionId = b.id;
  b.relatedTransactionId = a.id;
  return [a, b];
}

function input(transactions: LotTx[], extra: Partial<LotsInput> = {}): LotsInput {
  return {
    analyses: [...LOT_ANALYSES], asset: { currency: "EUR", id: 7, name: "ACME", quoteBaseQuantity: "1" },
    brokers: [{ id: 1, scale: "1" }, { id: 2, scale: "1" }], fx: [], generatedAt: "2024-06-01T00:00:00.000Z",
    period: { start: transactions[0]?.date ?? "2024-01-01", end: "2024-01-31", requestedStart: null, requestedEnd: null },
    prices: [], selectedLotIds: null, splitEventIds: [], targetCurrency: "EUR", transactions, ...extra,
  };
}
/** Issues other than the informational "valued at cost" one that every priceless open lot brings. */
const issues = (out: ReturnType<typeof analyseLots>) => out.data_quality.issues.filter((i) => i.code !== "CURRENT_PRICE_ASSUMED_AT_COST");
const pick = <T extends object>(rows: T[] | null, keys: (keyof T)[]) => rows!.map((r) => Object.fromEntries(keys.map((k) => [k, r[k]])));

describe("opening and closing lots", () => {
  test("a BUY opens a LONG lot whose id is the opening transaction id and whose cost is the cash paid", () => {
    const b = buy(1, "2024-01-02", "10", "100");
    const out = analyseLots(input([b]));
    expect(out.calculation_status).toBe("COMPLETE");
    expect(out.lots![0]).toMatchObject({
      lot_id: b.id, opening_transaction_id: b.id, direction: "LONG", opening_broker_id: 1, opening_date: "2024-01-02", closing_date: null,
      opening_unit_price: "10", original_quantity: "10", original_cost: "100", open_quantity: "10", realized_quantity: "0",
      currency: "EUR", states: ["OPEN"], current_custody: [{ broker_id: 1, custody_type: "BROKER", quantity: "10" }],
    });
  });

  test("a SELL closes the oldest lot first and records proceeds and realised P&L", () => {
    const [b1, b2] = [buy(1, "2024-01-02", "10", "100"), buy(1, "2024-01-03", "10", "150")];
    const out = analyseLots(input([b1, b2, sell(1, "2024-01-04", "12", "240")]));
    expect(pick(out.lots, ["lot_id", "open_quantity", "realized_quantity", "cumulative_proceeds", "realized_pnl", "closing_date", "states"])).toEqual([
      { lot_id: b1.id, open_quantity: "0", realized_quantity: "10", cumulative_proceeds: "200", realized_pnl: "100", closing_date: "2024-01-04", states: ["CLOSED"] },
      { lot_id: b2.id, open_quantity: "8", realized_quantity: "2", cumulative_proceeds: "40", realized_pnl: "10", closing_date: null, states: ["PARTIALLY_CLOSED"] },
    ]);
    expect(pick(out.lot_events, ["kind", "lot_id", "quantity", "amount", "realized_pnl"]).slice(2)).toEqual([
      { kind: "SELL", lot_id: b1.id, quantity: "10", amount: "200", realized_pnl: "100" },
      { kind: "SELL", lot_id: b2.id, quantity: "2", amount: "40", realized_pnl: "10" },
    ]);
  });

  test("a SELL closes lots at the broker of the sale only", () => {
    const [b1, b2] = [buy(1, "2024-01-02", "5", "50"), buy(2, "2024-01-03", "5", "60")];
    const out = analyseLots(input([b1, b2, sell(2, "2024-01-04", "5", "70")]));
    expect(pick(out.lots, ["lot_id", "open_quantity", "realized_pnl"])).toEqual([
      { lot_id: b1.id, open_quantity: "5", realized_pnl: "0" }, { lot_id: b2.id, open_quantity: "0", realized_pnl: "10" },
    ]);
  });

  test("SELL beyond holdings opens a SHORT lot when shorting is allowed, closed by a later BUY", () => {
    const b1 = buy(1, "2024-01-02", "2", "20");
    const s = sell(1, "2024-01-03", "5", "75");
    const cover = buy(1, "2024-01-04", "4", "48");
    const out = analyseLots(input([b1, s, cover]));
    expect(pick(out.lots, ["lot_id", "direction", "original_quantity", "original_cost", "open_quantity", "realized_pnl", "total_value"])).toEqual([
      { lot_id: b1.id, direction: "LONG", original_quantity: "2", original_cost: "20", open_quantity: "0", realized_pnl: "10", total_value: "30" },
      { lot_id: s.id, direction: "SHORT", original_quantity: "3", original_cost: "45", open_quantity: "0", realized_pnl: "9", total_value: null },
      { lot_id: cover.id, direction: "LONG", original_quantity: "1", original_cost: "12", open_quantity: "1", realized_pnl: "0", total_value: "12" },
    ]);
  });
});

describe("transfers", () => {
  test("lots survive a transfer between brokers: in transit between the legs, then at the destination", () => {
    const b1 = buy(1, "2024-01-02", "10", "100");
    const legs = transfer(1, 2, "2024-01-05", "2024-01-07", "6", "99");
    const out = analyseLots(input([b1, ...legs]));
    expect(out.lots![0]).toMatchObject({
      lot_id: b1.id, original_cost: "100", open_quantity: "10", states: ["OPEN", "TRANSFERRED"],
      current_custody: [{ broker_id: 1, custody_type: "BROKER", quantity: "4" }, { broker_id: 2, custody_type: "BROKER", quantity: "6" }],
    });
    expect(out.custody_history!.map((c) => [c.date, c.custody.map((e) => `${e.broker_id ?? "transit"}:${e.quantity}`)])).toEqual([
      ["2024-01-02", ["1:10"]], ["2024-01-05", ["1:4", "transit:6"]], ["2024-01-07", ["1:4", "2:6"]],
    ]);
    expect(pick(out.lot_events, ["kind", "broker_id", "from_broker_id", "to_broker_id", "quantity"]).slice(1)).toEqual([
      { kind: "TRANSFER_DEPART", broker_id: 1, from_broker_id: 1, to_broker_id: 2, quantity: "6" },
      { kind: "TRANSFER_ARRIVE", broker_id: 2, from_broker_id: 1, to_broker_id: 2, quantity: "6" },
    ]);
    expect(out.value_history!.find((v) => v.date === "2024-01-06")).toMatchObject({ quantity: "10", in_transit_quantity: "6", cost_basis: "100" });
    expect(out.gantt_segments).toEqual([
      { lot_id: b1.id, broker_id: 1, custody_type: "BROKER", quantity: "10", start_date: "2024-01-02", end_date: "2024-01-05" },
      { lot_id: b1.id, broker_id: 1, custody_type: "BROKER", quantity: "4", start_date: "2024-01-05", end_date: "2024-01-07" },
      { lot_id: b1.id, broker_id: null, custody_type: "IN_TRANSIT", quantity: "6", start_date: "2024-01-05", end_date: "2024-01-07" },
      { lot_id: b1.id, broker_id: 1, custody_type: "BROKER", quantity: "4", start_date: "2024-01-07", end_date: null },
      { lot_id: b1.id, broker_id: 2, custody_type: "BROKER", quantity: "6", start_date: "2024-01-07", end_date: null },
    ]);
    expect(out.calculation_status).toBe("COMPLETE");
  });

  test("an incoming leg dated before its outgoing leg moves the units directly on the incoming date", () => {
    const b1 = buy(1, "2024-01-02", "5", "50");
    const out = analyseLots(input([b1, ...transfer(1, 2, "2024-01-06", "2024-01-04", "5")].sort((x, y) => x.date.localeCompare(y.date))));
    expect(pick(out.lot_events, ["date", "kind"]).slice(1)).toEqual([
      { date: "2024-01-04", kind: "TRANSFER_DEPART" }, { date: "2024-01-04", kind: "TRANSFER_ARRIVE" },
    ]);
    expect(out.lots![0]!.current_custody).toEqual([{ broker_id: 2, custody_type: "BROKER", quantity: "5" }]);
    expect(out.calculation_status).toBe("COMPLETE");
  });

  test("a sale at the destination closes the transferred fragment of the oldest lot", () => {
    const [b1, b2] = [buy(1, "2024-01-02", "3", "30"), buy(1, "2024-01-03", "3", "60")];
    const out = analyseLots(input([b1, b2, ...transfer(1, 2, "2024-01-04", "2024-01-04", "4", "1"), sell(2, "2024-01-05", "4", "100")]));
    expect(pick(out.lots, ["lot_id", "open_quantity", "realized_pnl"])).toEqual([
      { lot_id: b1.id, open_quantity: "0", realized_pnl: "45" }, { lot_id: b2.id, open_quantity: "2", realized_pnl: "5" },
    ]);
  });

  test("orphan inbound transfer leg gives TRANSFER_PAIR_MISSING and opens a lot at its override", () => {
    const orphan = tx(2, "TRANSFER", "2024-01-03", "4", { costBasisOverride: "12.5", costBasisCurrency: "EUR", relatedTransactionId: 999 });
    const out = analyseLots(input([orphan]));
    expect(out.lots![0]).toMatchObject({ lot_id: orphan.id, original_cost: "50", opening_unit_price: "12.5", open_quantity: "4" });
    expect(issues(out)).toEqual([{
      domain: "portfolio", code: "TRANSFER_PAIR_MISSING", severity: "warning", count: 1, affected_asset_ids: [7], affected_asset_names: ["ACME"],
      affected_fx_pairs: [], cta_action: "navigate_asset", cta_target: "7", message_i18n_key: "dataQuality.transferPairMissing",
      message_params: { count: 1, transaction_ids: [orphan.id] }, date_range: { start: "2024-01-03", end: "2024-01-03" }, group: null,
    }]);
    expect(out.calculation_status).toBe("DEGRADED");
  });

  test("an outgoing transfer beyond the lots held is a quantitative inconsistency: FAILED", () => {
    const out = analyseLots(input([buy(1, "2024-01-02", "1", "10"), ...transfer(1, 2, "2024-01-03", "2024-01-03", "2", "1")]));
    expect(out.calculation_status).toBe("FAILED");
    expect(issues(out).map((i) => [i.code, i.severity])).toEqual([["SHORT_TRANSFER_NOT_SUPPORTED", "error"]]);
  });
});

describe("splits and adjustments", () => {
  test("a 2:1 split doubles quantity and halves unit price, cost unchanged", () => {
    const b1 = buy(1, "2024-01-02", "10", "100");
    const split = tx(1, "ADJUSTMENT", "2024-01-05", "10", { assetEventId: 42 });
    const out = analyseLots(input([b1, split, sell(1, "2024-01-06", "4", "30")], { splitEventIds: [42] }));
    expect(out.lots![0]).toMatchObject({
      original_quantity: "20", opening_unit_price: "5", original_cost: "100", open_quantity: "16", realized_quantity: "4", realized_pnl: "10",
    });
    expect(out.lot_events!.find((e) => e.kind === "SPLIT")).toMatchObject({ quantity: "10", split_ratio: "2", lot_id: b1.id });
    expect(issues(out)).toEqual([]);
  });

  test("unknown-cost ADJUSTMENT makes the analysis DEGRADED with MISSING_COST_BASIS", () => {
    const adj = tx(1, "ADJUSTMENT", "2024-01-03", "5");
    const out = analyseLots(input([buy(1, "2024-01-02", "5", "50"), adj]));
    expect(out.calculation_status).toBe("DEGRADED");
    expect(out.lots![1]).toMatchObject({ lot_id: adj.id, original_cost: null, opening_unit_price: null, net_metrics_status: "UNAVAILABLE" });
    expect(out.data_quality.data_quality_status).toBe("partial");
    expect(issues(out)).toEqual([expect.objectContaining({
      code: "MISSING_COST_BASIS", severity: "warning", group: "missing_cost_basis", cta_action: "navigate_asset", cta_target: "7",
      affected_asset_ids: [7], message_i18n_key: "dataQuality.missingCostBasis", message_params: { count: 1, transaction_ids: [adj.id] },
    })]);
    // WAC lines are blank while unknown-cost units are in the pool.
    expect(out.broker_wac_history!.filter((p) => p.date === "2024-01-03")).toEqual([
      { date: "2024-01-03", broker_id: 1, quantity: "10", total_cost: null, wac_per_unit: null },
    ]);
  });

  test("a WAC line comes back once the unknown-cost pool empties", () => {
    const out = analyseLots(input([tx(1, "ADJUSTMENT", "2024-01-02", "5"), sell(1, "2024-01-03", "5", "60"), buy(1, "2024-01-04", "2", "30")]));
    expect(out.cumulative_wac_history!.slice(0, 3).map((p) => [p.date, p.quantity, p.wac_per_unit])).toEqual([
      ["2024-01-02", "5", null], ["2024-01-03", "0", null], ["2024-01-04", "2", "15"],
    ]);
  });

  test("a negative ADJUSTMENT closes the oldest lot at the day's price", () => {
    const b1 = buy(1, "2024-01-02", "10", "100");
    const out = analyseLots(input([b1, tx(1, "ADJUSTMENT", "2024-01-04", "-3")], { prices: [{ date: "2024-01-03", close: "12" }] }));
    expect(out.lots![0]).toMatchObject({ open_quantity: "7", realized_pnl: "6", cumulative_proceeds: "36", open_value: "84", value_source: "MARKET_PRICE" });
  });
});

describe("income, fees and taxes", () => {
  test("a dividend is allocated pro rata to the lots open at its broker; without lots it is an orphan", () => {
    const [b1, b2] = [buy(1, "2024-01-02", "1", "10"), buy(1, "2024-01-03", "3", "30")];
    const out = analyseLots(input([cash(2, "DIVIDEND", "2024-01-01", "5"), b1, b2, cash(1, "DIVIDEND", "2024-01-04", "10"),
      cash(1, "FEE", "2024-01-05", "-2"), cash(1, "TAX", "2024-01-05", "-1")], { period: { start: "2024-01-01", end: "2024-01-31", requestedStart: null, requestedEnd: null } }));
    expect(pick(out.lots, ["lot_id", "asset_income", "allocated_fees", "allocated_taxes", "total_pnl", "net_total_pnl", "cash_yield"])).toEqual([
      { lot_id: b1.id, asset_income: "2.5", allocated_fees: "0.5", allocated_taxes: "0.25", total_pnl: "2.5", net_total_pnl: "1.75", cash_yield: "0.25" },
      { lot_id: b2.id, asset_income: "7.5", allocated_fees: "1.5", allocated_taxes: "0.75", total_pnl: "7.5", net_total_pnl: "5.25", cash_yield: "0.25" },
    ]);
    expect(out.asset_orphan_income).toBe("5");
    expect(out.income_events![1]).toEqual({
      date: "2024-01-04", transaction_id: expect.any(Number), type: "DIVIDEND", broker_id: 1, amount: "10", original_amount: { amount: "10", code: "EUR" },
      orphan: false, allocations: [{ lot_id: b1.id, amount: "2.5" }, { lot_id: b2.id, amount: "7.5" }],
    });
    expect(issues(out).map((i) => i.code)).toEqual(["ASSET_INCOME_NO_ELIGIBLE_LOTS"]);
  });
});

describe("valuation, FX and share weighting", () => {
  test("an open lot without any price is valued at cost and reported with CURRENT_PRICE_ASSUMED_AT_COST (info)", () => {
    const out = analyseLots(input([buy(1, "2024-01-02", "4", "40")]));
    expect(out.lots![0]).toMatchObject({ open_value: "40", value_source: "ESTIMATED_AT_COST", reference_price_source: "unavailable", pnl: "0" });
    expect(out.data_quality.issues.map((i) => [i.code, i.severity, i.count])).toEqual([["CURRENT_PRICE_ASSUMED_AT_COST", "info", 1]]);
    expect([out.calculation_status, out.data_quality.data_quality_status]).toEqual(["COMPLETE", "ok"]);
  });

  test("share weighting multiplies the quantities and cash of an OWNER broker by its share", () => {
    const out = analyseLots(input([buy(1, "2024-01-02", "10", "100"), sell(1, "2024-01-03", "4", "60")], { brokers: [{ id: 1, scale: "0.5" }] }));
    expect(out.lots![0]).toMatchObject({ original_quantity: "5", original_cost: "50", open_quantity: "3", realized_pnl: "10" });
  });

  test("costs in another currency convert at the transaction date through the pair's routes", () => {
    const fx = [{ from: "USD", configured: true, hasProviderRoute: false, routes: [[{ from: "USD", to: "EUR", dates: ["2024-01-01"], rates: ["1.25"] }]] }];
    const out = analyseLots(input([buy(1, "2024-01-02", "10", "100", "USD")], { fx }));
    expect(out.lots![0]).toMatchObject({ original_cost: "80", opening_unit_price: "8" });
  });

  test("a missing rate is a conversion gap: DEGRADED with MISSING_FX_MARKET for an unconfigured pair", () => {
    const out = analyseLots(input([buy(1, "2024-01-02", "10", "100", "USD")]));
    expect(out.calculation_status).toBe("DEGRADED");
    expect(out.lots![0]!.original_cost).toBeNull();
    expect(out.data_quality.missing_fx_pairs).toEqual([{ pair: "USD/EUR", dates: ["2024-01-02"] }]);
    expect(issues(out)[0]).toMatchObject({
      code: "MISSING_FX_MARKET", cta_action: "add_fx_pair", cta_target: "EUR-USD", affected_fx_pairs: ["EUR-USD"], count: 1,
    });
  });

  test("a configured pair with gaps gives a grouped MISSING_FX_RATES", () => {
    const fx = [{ from: "USD", configured: true, hasProviderRoute: true, routes: [[{ from: "USD", to: "EUR", dates: ["2024-01-03"], rates: ["1.25"] }]] }];
    const out = analyseLots(input([buy(1, "2024-01-02", "10", "100", "USD")], { fx, period: { start: "2024-01-02", end: "2024-01-03", requestedStart: null, requestedEnd: null } }));
    expect(issues(out)[0]).toMatchObject({
      code: "MISSING_FX_RATES", group: "missing_fx_rates", cta_action: "sync_fx_pair", message_i18n_key: "dataQuality.missingFxRatesAfterSync",
      message_params: { count: 1, date_from: "2024-01-02", date_to: "2024-01-02", dates_count: 1 },
    });
  });

  test("prices are close / quote_base_quantity, the latest on or before the day", () => {
    const out = analyseLots(input([buy(1, "2024-01-02", "10", "1000")], {
      asset: { currency: "EUR", id: 7, name: "Bond", quoteBaseQuantity: "100" }, prices: [{ date: "2024-01-03", close: "9900" }],
      period: { start: "2024-01-02", end: "2024-01-04", requestedStart: null, requestedEnd: null },
    }));
    expect(pick(out.price_history, ["date", "price", "source", "price_date"])).toEqual([
      { date: "2024-01-02", price: null, source: "MISSING", price_date: null },
      { date: "2024-01-03", price: "99", source: "MARKET_PRICE", price_date: "2024-01-03" },
      { date: "2024-01-04", price: "99", source: "MARKET_PRICE", price_date: "2024-01-03" },
    ]);
    expect(out.lots![0]).toMatchObject({ reference_unit_price: "99", reference_price_source: "fallback", open_value: "990", pnl: "-10", relative_return: "-0.01" });
    expect(pick(out.value_history, ["date", "market_value", "value_source"])).toEqual([
      { date: "2024-01-02", market_value: "1000", value_source: "ESTIMATED_AT_COST" },
      { date: "2024-01-03", market_value: "990", value_source: "MARKET_PRICE" },
      { date: "2024-01-04", market_value: "990", value_source: "MARKET_PRICE" },
    ]);
  });

  test("the performance series chains daily returns with flows at the end of the day", () => {
    const out = analyseLots(input([buy(1, "2024-01-02", "10", "100"), buy(1, "2024-01-03", "10", "110")], {
      prices: [{ date: "2024-01-02", close: "10" }, { date: "2024-01-03", close: "11" }, { date: "2024-01-04", close: "12.1" }],
      period: { start: "2024-01-02", end: "2024-01-04", requestedStart: null, requestedEnd: null },
    }));
    expect(pick(out.performance_history, ["date", "value", "net_flow", "twrr"])).toEqual([
      { date: "2024-01-02", value: "100", net_flow: "100", twrr: "0" },
      { date: "2024-01-03", value: "220", net_flow: "110", twrr: "0.1" },
      { date: "2024-01-04", value: "242", net_flow: "0", twrr: "0.21" },
    ]);
    expect(out.return_history!.at(-1)).toMatchObject({ invested: "210", unrealized_pnl: "32", total_pnl: "32", total_return: "0.1523809524" });
  });

  test("selected lots narrow the lot sections; unrequested sections are null", () => {
    const [b1, b2] = [buy(1, "2024-01-02", "1", "10"), buy(1, "2024-01-03", "1", "20")];
    const out = analyseLots(input([b1, b2], { analyses: ["LOT_SUMMARY"], selectedLotIds: [b2.id] }));
    expect(out.lots!.map((l) => l.lot_id)).toEqual([b2.id]);
    expect([out.lot_events, out.value_history, out.gantt_segments, out.income_events]).toEqual([null, null, null, null]);
  });
});
