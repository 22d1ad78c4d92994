import { beforeAll, describe, expect, test } from "bun:test";
import { execDb } from "../assets/assets-helpers.ts";
import { ApiClient, expectError } from "../../helpers/client.ts";
import { seedTransactions } from "../../helpers/seed.ts";
import { type TestServer, useApi } from "../../helpers/server.ts";
import { buy, commitOk, createAsset, deposit, eur, looseBroker, type Row } from "../transactions/fixtures.ts";

const api = useApi();
let server: TestServer;
let c: ApiClient;

beforeAll(async () => {
  server = api.server;
  c = new ApiClient(server.base);
  await c.signUp("reporter");
});

async function prices(asset_id: number, rows: [string, string][]) {
  const res = await c.post("/assets/prices", [{ asset_id, prices: rows.map(([date, close]) => ({ date, close })) }]);
  expect(res.status).toBe(200);
}

function withProvider(assetId: number): void {
  execDb(server.dataDir, `INSERT INTO asset_provider_assignments (asset_id, provider_code, identifier, identifier_type) VALUES (?, 'yfinance', 'X', 'TICKER')`, assetId);
}

async function report(body: Record<string, unknown>, client = c) {
  const res = await client.post("/portfolio/report", { include_allocation_history: false, ...body });
  expect(res.status).toBe(200);
  return res.json() as Promise<any>;
}

const codes = (r: any) => r.data_quality.issues.map((i: any) => i.code).sort();
const issuesOf = (r: any, code: string) => r.data_quality.issues.filter((i: any) => i.code === code);

/** A broker holding 10 units of a fresh asset bought on `date` at 10 each. */
async function holding(date: string, extra: Row[] = [], currency = "EUR"): Promise<{ broker: number; asset: number }> {
  const broker = await looseBroker(c, `B ${Math.random()}`);
  const asset = createAsset(server.dataDir, currency);
  await commitOk(c, { creates: [deposit(broker, "100", date), buy(broker, asset, "10", "-100", date), ...extra] });
  return { broker, asset };
}

describe("POST /portfolio/report: access and validation", () => {
  test("401 without a session", async () => {
    await expectError(await new ApiClient(server.base).post("/portfolio/report", {}), 401, "NOT_AUTHENTICATED");
  });

  test("a broker without an access row is 404 and reveals nothing", async () => {
    const other = new ApiClient(server.base);
    await other.signUp("outsider");
    const theirs = await looseBroker(other, "Theirs");
    await expectError(await c.post("/portfolio/report", { broker_ids: [theirs] }), 404, "BROKER_NOT_FOUND");
  });

  test("422 for unknown keys and an end before the start", async () => {
    await expectError(await c.post("/portfolio/report", { bogus: 1 }), 422, "VALIDATION_ERROR");
    await expectError(await c.post("/portfolio/report", { date_range: { start: "2024-02-01", end: "2024-01-01" } }), 422, "VALIDATION_ERROR");
  });

  test("unrequested sections are null and MWRR_NOT_CALCULABLE is always present without summary", async () => {
    const { broker } = await holding("2024-01-02");
    const r = await report({ broker_ids: [broker], date_range: { end: "2024-01-10" }, include_summary: false, include_history: false });
    expect(r.summary).toBeNull();
    expect(r.history).toBeNull();
    expect(r.allocation_history).toBeNull();
    expect(issuesOf(r, "MWRR_NOT_CALCULABLE")).toHaveLength(1);
    expect(issuesOf(r, "MWRR_NOT_CALCULABLE")[0].severity).toBe("info");
  });
});

describe("POST /portfolio/report: figures", () => {
  test("NAV, TWRR and MWRR of a buy and hold with a mid-period deposit", async () => {
    const broker = await looseBroker(c, "Figures");
    const asset = createAsset(server.dataDir);
    await commitOk(c, { creates: [
      deposit(broker, "1000", "2024-01-01"), buy(broker, asset, "10", "-1000", "2024-01-01"),
      deposit(broker, "500", "2024-01-03"),
    ] });
    await prices(asset, [["2024-01-01", "100"], ["2024-01-02", "110"], ["2024-01-03", "121"]]);
    const r = await report({ broker_ids: [broker], date_range: { end: "2024-01-03" } });
    // Day 2: NAV 1100 (+10 %); day 3: 1210 + 500 cash, flow 500 → HPR = (1710 − 500 − 1100) / 1100 = 10 %.
    expect(r.history.map((p: any) => p.nav_value.amount)).toEqual(["1000", "1100", "1710"]);
    expect(r.history.map((p: any) => p.twrr)).toEqual(["0", "0.1", "0.21"]);
    expect(r.summary.twrr_percent).toBe("21");
    expect(r.summary.net_worth).toEqual({ code: "EUR", amount: "1710" });
    expect(r.summary.total_invested.amount).toBe("1500");
    expect(r.summary.total_gain_loss.amount).toBe("210");
    expect(r.summary.unrealized_gain_loss.amount).toBe("210");
    // MWRR: −1000 at t0, −500 at t = 2/365, +1710 at t = 2/365 ⇒ (1 + r)^(2/365) = 1210/1000.
    expect(r.summary.mwrr_available).toBe(true);
    expect(Number(r.summary.mwrr_cumulative_percent)).toBeCloseTo(21, 6);
    expect(r.summary.mwrr_annualized_percent).toBeNull(); // fewer than 30 days
    expect(Number(r.history[2].mwrr_cumulative)).toBeCloseTo(0.21, 8);
    expect(r.summary.mwrr_period_days).toBe(2);
  });

  test("a zero-day period has no MWRR (mwrr_available false, MWRR_NOT_CALCULABLE)", async () => {
    const { broker } = await holding("2024-03-01");
    const r = await report({ broker_ids: [broker], date_range: { start: "2024-03-01", end: "2024-03-01" } });
    expect(r.summary.mwrr_available).toBe(false);
    expect(r.summary.mwrr_cumulative_percent).toBeNull();
    expect(issuesOf(r, "MWRR_NOT_CALCULABLE")[0].message_params.reason).toBe("zero_day_period");
  });

  test("a trade price values the asset when no quote exists (LAST_TRADE_PRICE); a later quote wins", async () => {
    const { broker, asset } = await holding("2024-04-01");
    let r = await report({ broker_ids: [broker], date_range: { end: "2024-04-05" } });
    expect(r.summary.holdings[0].valuation_source).toBe("LAST_TRADE_PRICE");
    expect(r.summary.holdings[0].current_value).toBe("100");
    await prices(asset, [["2024-04-03", "12"]]);
    r = await report({ broker_ids: [broker], date_range: { end: "2024-04-05" } });
    expect(r.summary.holdings[0].valuation_source).toBe("MARKET_PRICE");
    expect(r.summary.holdings[0].current_value).toBe("120");
  });

  test("same-day trades are averaged and a quote of the same day wins", async () => {
    const broker = await looseBroker(c, "Same day");
    const asset = createAsset(server.dataDir);
    await commitOk(c, { creates: [deposit(broker, "1000", "2024-05-01"), buy(broker, asset, "1", "-10", "2024-05-02"), buy(broker, asset, "3", "-60", "2024-05-02")] });
    let r = await report({ broker_ids: [broker], date_range: { end: "2024-05-02" } });
    // Mean of the unit prices 10 and 20 (not the volume-weighted 17.5).
    expect(r.summary.holdings[0].current_price).toBe("15");
    await prices(asset, [["2024-05-02", "30"]]);
    r = await report({ broker_ids: [broker], date_range: { end: "2024-05-02" } });
    expect(r.summary.holdings[0].current_price).toBe("30");
  });
});

describe("POST /portfolio/report: sections", () => {
  test("allocation by type, sector and geography splits an asset by its classification weights", async () => {
    const broker = await looseBroker(c, "Alloc");
    const a = createAsset(server.dataDir);
    const b = createAsset(server.dataDir);
    const patch = await c.patch("/assets", [
      { asset_id: a, asset_type: "ETF", classification_params: { sector_area: { distribution: { "Information Technology": "0.75", Energy: "0.25" } }, geographic_area: { distribution: { USA: "1" } } } },
      { asset_id: b, asset_type: "STOCK" },
    ]);
    expect(patch.status).toBe(200);
    await commitOk(c, { creates: [deposit(broker, "1000", "2024-02-01"), buy(broker, a, "3", "-300", "2024-02-01"), buy(broker, b, "1", "-100", "2024-02-01")] });
    const r = await report({ broker_ids: [broker], date_range: { end: "2024-02-02" }, include_allocation_history: true });
    expect(r.summary.allocation_by_type).toEqual([{ name: "ETF", value: "75", amount: "300" }, { name: "STOCK", value: "25", amount: "100" }]);
    expect(r.summary.allocation_by_sector).toEqual([
      { name: "Information Technology", value: "56.25", amount: "225" }, { name: "Unknown", value: "25", amount: "100" }, { name: "Energy", value: "18.75", amount: "75" },
    ]);
    expect(r.summary.allocation_by_geography.map((x: any) => x.name)).toEqual(["USA", "Unknown"]);
    expect(r.allocation_history.type).toHaveLength(2);
    expect(r.allocation_history.type[1]).toEqual({ date: "2024-02-02", components: r.summary.allocation_by_type });
  });

  test("breakdown per broker and positions contribution of the period", async () => {
    const b1 = await looseBroker(c, "Contrib 1");
    const b2 = await looseBroker(c, "Contrib 2");
    const asset = createAsset(server.dataDir);
    await commitOk(c, { creates: [
      deposit(b1, "1000", "2024-03-01"), buy(b1, asset, "10", "-100", "2024-03-01"),
      { broker_id: b1, asset_id: asset, type: "SELL", date: "2024-03-03", quantity: "-5", cash: eur("75") },
      { broker_id: b1, asset_id: asset, type: "DIVIDEND", date: "2024-03-04", cash: eur("2") },
      { broker_id: b1, type: "FEE", date: "2024-03-04", cash: eur("-1") },
      deposit(b2, "50", "2024-03-02"),
    ] });
    await prices(asset, [["2024-03-01", "10"], ["2024-03-05", "16"]]);
    const r = await report({ broker_ids: [b1, b2], date_range: { start: "2024-03-01", end: "2024-03-05" }, include_breakdown: true, include_positions_contribution: true });
    expect(r.summary.by_broker).toEqual([
      { broker_id: b1, broker_name: "Contrib 1", net_worth: eur("1056"), gain_loss: eur("56"), gain_loss_percent: "5.6", cash_total: eur("976"), cash_balances: [eur("976")] },
      { broker_id: b2, broker_name: "Contrib 2", net_worth: eur("50"), gain_loss: eur("0"), gain_loss_percent: "0", cash_total: eur("50"), cash_balances: [eur("50")] },
    ]);
    // Sold 5 at 15 with a WAC of 10: realised 25; the 5 left gain 6 each: 30; dividend 2; the fee has no asset.
    expect(r.summary.period_realized_gain_loss.amount).toBe("25");
    const [pos] = r.positions_contribution.positions;
    expect(pos).toMatchObject({
      asset_id: asset, broker_id: b1, period_realized_gain_loss: "25", period_unrealized_delta: "30", period_income: "2",
      period_fees_taxes: "0", period_pnl: "57", start_value: "100", end_value: "80", is_fully_sold: false,
    });
    expect(r.positions_contribution.unallocated).toEqual([{ broker_id: b1, broker_name: "Contrib 1", unallocated_income: "0", unallocated_fees_taxes: "1" }]);
    expect(r.positions_contribution.gross_gains).toBe("57");
    expect(r.summary.period_pnl.amount).toBe("56");
    expect(r.summary.period_net_flows.amount).toBe("50");
  });
  test("period returns: each month, quarter and year is the summary of that period's own report, to the digit", async () => {
    const broker = await looseBroker(c, "Periods");
    const asset = createAsset(server.dataDir);
    await commitOk(c, { creates: [
      deposit(broker, "1000", "2024-01-10"), buy(broker, asset, "8", "-800", "2024-01-10"),
      deposit(broker, "400", "2024-02-20"), buy(broker, asset, "3", "-330", "2024-03-04"),
      { broker_id: broker, type: "WITHDRAWAL", date: "2024-04-12", cash: eur("-150") },
    ] });
    await prices(asset, [["2024-01-10", "100"], ["2024-01-31", "104"], ["2024-02-15", "97.5"], ["2024-03-01", "110"], ["2024-04-02", "108.25"], ["2024-05-06", "115"]]);
    const r = await report({ broker_ids: [broker], date_range: { end: "2024-05-10" }, include_history: false, include_period_returns: true });
    expect(r.metadata.included_features).toContain("period_returns");
    expect(r.period_returns.month.map((p: any) => [p.period_begin, p.date_from, p.date_to])).toEqual([
      ["2024-01-01", "2024-01-10", "2024-01-31"], ["2024-02-01", "2024-01-31", "2024-02-29"], ["2024-03-01", "2024-02-29", "2024-03-31"],
      ["2024-04-01", "2024-03-31", "2024-04-30"], ["2024-05-01", "2024-04-30", "2024-05-10"],
    ]);
    expect(r.period_returns.quarter.map((p: any) => [p.date_from, p.date_to])).toEqual([["2024-01-10", "2024-03-31"], ["2024-03-31", "2024-05-10"]]);
    for (const length of ["month", "quarter", "year"]) {
      for (const p of r.period_returns[length]) {
        const alone = (await report({ broker_ids: [broker], date_range: { start: p.date_from, end: p.date_to }, include_history: false })).summary;
        expect(p).toEqual({
          period_begin: p.period_begin, date_from: p.date_from, date_to: p.date_to, twrr_percent: alone.twrr_percent, mwrr_available: alone.mwrr_available,
          mwrr_annualized_percent: alone.mwrr_annualized_percent, mwrr_cumulative_percent: alone.mwrr_cumulative_percent, mwrr_period_days: alone.mwrr_period_days,
        });
      }
    }
    expect(r.period_returns.year[0].twrr_percent).toBe(r.summary.twrr_percent);
    // Not asked for: null.
    expect((await report({ broker_ids: [broker], date_range: { end: "2024-05-10" }, include_history: false })).period_returns).toBeNull();
  });
  test("income payments: every dividend and interest up to the end date, the first day's included, adding up to total_income", async () => {
    const broker = await looseBroker(c, "Payments");
    const asset = createAsset(server.dataDir);
    await commitOk(c, { creates: [
      deposit(broker, "1000", "2024-02-01"), buy(broker, asset, "10", "-500", "2024-02-01"),
      { broker_id: broker, asset_id: asset, type: "DIVIDEND", date: "2024-02-01", cash: eur("1.25") },
      { broker_id: broker, asset_id: asset, type: "DIVIDEND", date: "2024-03-15", cash: eur("7.5") },
      { broker_id: broker, type: "INTEREST", date: "2024-03-31", cash: eur("0.42") },
      { broker_id: broker, asset_id: asset, type: "DIVIDEND", date: "2024-06-03", cash: eur("8") },
    ] });
    const r = await report({ broker_ids: [broker], date_range: { end: "2024-05-31" }, include_history: false, include_income_payments: true });
    expect(r.metadata.included_features).toContain("income_payments");
    expect(r.income_payments).toEqual([
      { date: "2024-02-01", type: "DIVIDEND", broker_id: broker, asset_id: asset, amount: "1.25" },
      { date: "2024-03-15", type: "DIVIDEND", broker_id: broker, asset_id: asset, amount: "7.5" },
      { date: "2024-03-31", type: "INTEREST", broker_id: broker, asset_id: null, amount: "0.42" },
    ]);
    expect(r.summary.total_income.amount).toBe("9.17");
    expect((await report({ broker_ids: [broker], date_range: { end: "2024-05-31" }, include_history: false })).income_payments).toBeNull();
  });
});

describe("POST /portfolio/report: data quality", () => {
  test("MISSING_PRICE and NAV_INCOMPLETE when a held asset has no observation at all", async () => {
    const broker = await looseBroker(c, "No price");
    const asset = createAsset(server.dataDir);
    seedTransactions(server.dataDir, [{ brokerId: broker, type: "ADJUSTMENT", date: "2024-06-01", quantity: "5", assetId: asset }]);
    const r = await report({ broker_ids: [broker], date_range: { end: "2024-06-03" } });
    const [missing] = issuesOf(r, "MISSING_PRICE");
    expect(missing).toMatchObject({ severity: "error", affected_asset_ids: [asset], cta_action: "navigate_asset", cta_target: String(asset) });
    expect(missing.affected_asset_names).toHaveLength(1);
    const [incomplete] = issuesOf(r, "NAV_INCOMPLETE");
    expect(incomplete).toMatchObject({ severity: "info", count: 3, cta_action: null, date_range: { start: "2024-06-01", end: "2024-06-03" } });
    expect(r.summary.net_worth.amount).toBe("0");
    expect(r.data_quality.data_quality_status).toBe("partial");
  });

  test("TRANSACTION_IMPLIED only after more than 14 days, only with a provider, one entry per open position", async () => {
    const { broker, asset } = await holding("2024-07-01");
    withProvider(asset);
    // Exactly 14 days after the first BUY: still in grace.
    expect(issuesOf(await report({ broker_ids: [broker], date_range: { end: "2024-07-15" } }), "TRANSACTION_IMPLIED")).toHaveLength(0);
    const r = await report({ broker_ids: [broker], date_range: { end: "2024-07-16" } });
    const [implied] = issuesOf(r, "TRANSACTION_IMPLIED");
    expect(implied).toMatchObject({
      severity: "warning", group: "transaction_implied", message_i18n_key: "dataQuality.transactionImplied",
      message_params: { count: 1, as_of_date: "2024-07-16" }, cta_action: "navigate_asset", cta_target: String(asset), affected_asset_ids: [asset],
    });
    const second = await looseBroker(c, "Second");
    await commitOk(c, { creates: [deposit(second, "100", "2024-07-01"), buy(second, asset, "1", "-10", "2024-07-01")] });
    const both = await report({ broker_ids: [broker, second], date_range: { end: "2024-07-20" } });
    expect(issuesOf(both, "TRANSACTION_IMPLIED").map((i: any) => i.message_params.count)).toEqual([2, 2]);
    const { broker: noProvider } = await holding("2024-07-01");
    expect(issuesOf(await report({ broker_ids: [noProvider], date_range: { end: "2024-08-30" } }), "TRANSACTION_IMPLIED")).toHaveLength(0);
  });

  test("STALE_PRICE after more than 7 days (exactly 7 is current), entry shape, status carried_forward", async () => {
    const { broker, asset } = await holding("2024-08-01");
    withProvider(asset);
    await prices(asset, [["2024-08-01", "10"]]);
    expect(issuesOf(await report({ broker_ids: [broker], date_range: { end: "2024-08-08" } }), "STALE_PRICE")).toHaveLength(0);
    const r = await report({ broker_ids: [broker], date_range: { end: "2024-08-09" } });
    const [stale] = issuesOf(r, "STALE_PRICE");
    expect(stale).toMatchObject({ severity: "warning", cta_action: "sync_asset_prices", cta_target: String(asset), affected_asset_ids: [asset], message_i18n_key: "dataQuality.stalePrice" });
    expect(r.data_quality.stale_prices).toEqual([{ asset_id: asset, name: stale.affected_asset_names[0], last_price_date: "2024-08-01", stale_days: 8 }]);
    expect(r.data_quality.data_quality_status).toBe("carried_forward");
  });

  test("MISSING_COST_BASIS per asset; the position's WAC and gain are null while unknown-cost units are held", async () => {
    const { broker, asset } = await holding("2024-09-01");
    seedTransactions(server.dataDir, [{ brokerId: broker, type: "ADJUSTMENT", date: "2024-09-02", quantity: "5", assetId: asset }]);
    await prices(asset, [["2024-09-03", "12"]]);
    const r = await report({ broker_ids: [broker], date_range: { end: "2024-09-05" } });
    const [mcb] = issuesOf(r, "MISSING_COST_BASIS");
    expect(mcb).toMatchObject({ severity: "warning", group: "missing_cost_basis", message_params: { count: 1 }, cta_action: "navigate_asset", cta_target: String(asset) });
    expect(r.summary.holdings[0]).toMatchObject({ quantity: "15", wac_per_unit: null, gain_loss: null, annualized_return: null, current_value: "180" });
  });

  test("MISSING_FX_MARKET for a currency without any configured pair", async () => {
    // Cash and the trade price are in EUR: EUR→CHF is the one conversion needed.
    const { broker } = await holding("2024-10-01");
    const r = await report({ broker_ids: [broker], date_range: { end: "2024-10-02" }, target_currency: "CHF" });
    const market = issuesOf(r, "MISSING_FX_MARKET");
    expect(market.map((i: any) => i.cta_target)).toEqual(["CHF-EUR"]);
    expect(market[0]).toMatchObject({ severity: "warning", cta_action: "add_fx_pair", affected_fx_pairs: ["CHF-EUR"], message_i18n_key: "dataQuality.missingFxMarket" });
    expect(r.summary.missing_fx_pairs).toEqual([{ pair: "EUR/CHF", dates: ["2024-10-01", "2024-10-02"] }]);
    expect(r.summary.net_worth.amount).toBe("0");
  });

  test("MISSING_FX_RATES per pair, provider and manual groups, movements at every date", async () => {
    const broker = await looseBroker(c, "FX gaps");
    const asset = createAsset(server.dataDir, "GBP");
    await commitOk(c, { creates: [deposit(broker, "100", "2024-11-01", "GBP"), { ...buy(broker, asset, "1", "-50", "2024-11-01"), cash: { code: "GBP", amount: "-50" } }] });
    // Manual rates only from 2024-11-03: the movements of 2024-11-01 and the valuations of 2024-11-01..02 cannot convert.
    expect((await c.post("/fx/currencies/rate", [{ date: "2024-11-03", base: "GBP", quote: "JPY", rate: "190" }])).status).toBe(200);
    const r = await report({ broker_ids: [broker], date_range: { end: "2024-11-04" }, target_currency: "JPY" });
    const [manual] = issuesOf(r, "MISSING_FX_RATES");
    expect(manual).toMatchObject({ group: "missing_fx_rates_manual", cta_action: "navigate_fx", cta_target: "GBP-JPY", message_params: { count: 1 } });
    expect(r.summary.missing_fx_pairs).toEqual([{ pair: "GBP/JPY", dates: ["2024-11-01", "2024-11-02"] }]);

    execDb(server.dataDir, `INSERT INTO fx_routes (base, quote, priority, chain_steps) VALUES ('GBP', 'NOK', 1, '[{"from":"GBP","to":"NOK","provider":"ECB"}]')`);
    execDb(server.dataDir, `INSERT INTO fx_rates (base, quote, provider, date, rate, source) VALUES ('GBP', 'NOK', 'ECB', '2024-11-02', '14', 'ECB')`);
    const p = await report({ broker_ids: [broker], date_range: { start: "2024-11-03", end: "2024-11-04" }, target_currency: "NOK" });
    const [provider] = issuesOf(p, "MISSING_FX_RATES");
    // Valuations outside the period are not needed; the movements of 2024-11-01 are.
    expect(provider).toMatchObject({
      group: "missing_fx_rates", cta_action: "sync_fx_pair", cta_target: "GBP-NOK", affected_fx_pairs: ["GBP-NOK"],
      message_i18n_key: "dataQuality.missingFxRatesAfterSync",
      message_params: { count: 1, date_from: "2024-11-01", date_to: "2024-11-01", dates_count: 1 },
    });
  });
});

describe("POST /portfolio/report: caching", () => {
  test("a repeated report is served from portfolio_blob; a transaction commit clears it", async () => {
    const { broker, asset } = await holding("2024-12-01");
    const body = { broker_ids: [broker], date_range: { end: "2024-12-05" } };
    const first = await report(body);
    const size = async () => (await (await c.get("/settings/cache/status")).json()).items.find((i: any) => i.name === "portfolio_blob")?.current_size ?? 0;
    expect(await size()).toBeGreaterThan(0);
    expect((await report(body)).metadata.generated_at).toBe(first.metadata.generated_at);
    await commitOk(c, { creates: [buy(broker, asset, "1", "-10", "2024-12-02")] });
    expect(await size()).toBe(0);
    const after = await report(body);
    expect(after.summary.holdings[0].quantity).toBe("11");
    expect(after.metadata.generated_at).not.toBe(first.metadata.generated_at);
  });

  test("a gzip-accepting client gets the stored gzip body", async () => {
    const { broker } = await holding("2024-12-10");
    const res = await c.post("/portfolio/report", { broker_ids: [broker], date_range: { end: "2024-12-31" } }, { "accept-encoding": "gzip" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-encoding")).toBe("gzip");
    expect(res.headers.get("vary")).toContain("Accept-Encoding");
    expect((await res.json()).history).toHaveLength(22);
  });
});
