import { beforeAll, describe, expect, test } from "bun:test";
import { ApiClient, expectError } from "../../helpers/client.ts";
import { queryDb, seedAsset, seedTransactions } from "../../helpers/seed.ts";
import { type TestServer, useApi } from "../../helpers/server.ts";
import { createBroker } from "./helpers.ts";

const api = useApi();
let server: TestServer;
let owner: ApiClient;
let viewer: ApiClient;
let viewerId: number;

beforeAll(async () => {
  server = api.server;
  owner = new ApiClient(server.base);
  await owner.signUp("owner");
  viewer = new ApiClient(server.base);
  viewerId = (await viewer.signUp("viewer")).id;
});

describe("broker summary", () => {
  test("cash per currency and open positions with quantity and weighted average cost, exact decimals", async () => {
    const b = await createBroker(owner, "Summary", { initial_balances: [{ code: "EUR", amount: "10000" }] });
    const etf = seedAsset(server.dataDir, { name: "World ETF", currency: "EUR" });
    const sold = seedAsset(server.dataDir, { name: "Sold Out", currency: "EUR" });
    seedTransactions(server.dataDir, [
      { brokerId: b, type: "BUY", date: "2024-01-10", assetId: etf, quantity: "10", amount: "-1000.10", currency: "EUR" },
      { brokerId: b, type: "BUY", date: "2024-02-10", assetId: etf, quantity: "5", amount: "-600.05", currency: "EUR" },
      { brokerId: b, type: "SELL", date: "2024-03-10", assetId: etf, quantity: "-3", amount: "390", currency: "EUR" },
      { brokerId: b, type: "BUY", date: "2024-01-11", assetId: sold, quantity: "1", amount: "-10", currency: "EUR" },
      { brokerId: b, type: "SELL", date: "2024-01-12", assetId: sold, quantity: "-1", amount: "12", currency: "EUR" },
      { brokerId: b, type: "DEPOSIT", date: "2024-01-01", amount: "250.5", currency: "USD" },
      { brokerId: b, type: "FEE", date: "2024-01-02", amount: "-0.1", currency: "USD" },
    ]);
    await owner.post(`/brokers/${b}/access`, { user_id: viewerId, role: "VIEWER" });
    const s = await (await viewer.get(`/brokers/${b}/summary`)).json();
    expect(s).toMatchObject({ id: b, name: "Summary", user_role: "VIEWER" });
    expect(s.cash_balances).toEqual([{ code: "EUR", amount: "8791.85" }, { code: "USD", amount: "250.4" }]);
    // 15 units for 1600.15, 3 sold at the average: 12 left costing 1600.15 × 12/15 = 1280.12
    expect(s.holdings).toEqual([{
      asset_id: etf, asset_name: "World ETF", quantity: "12",
      total_cost: { code: "EUR", amount: "1280.12" }, average_cost_per_unit: "106.6766666666666666666666666666667",
    }]);
  });

  test("strangers get 404", async () => {
    const b = await createBroker(owner, "Private summary");
    await expectError(await new ApiClient(server.base).get(`/brokers/${b}/summary`), 401);
    const stranger = new ApiClient(server.base);
    await stranger.signUp("stranger");
    await expectError(await stranger.get(`/brokers/${b}/summary`), 404, "BROKER_NOT_FOUND");
  });
});

describe("turning overdraft or shorting off re-validates balances", () => {
  test("refused per item when a balance would be negative, and nothing changes", async () => {
    const b = await createBroker(owner, "Overdrawn", { allow_cash_overdraft: true, allow_asset_shorting: true });
    seedTransactions(server.dataDir, [{ brokerId: b, type: "WITHDRAWAL", date: "2024-05-01", amount: "-50", currency: "EUR" }]);
    const res = await (await owner.patch(`/brokers/${b}`, { allow_cash_overdraft: false, name: "Renamed too" })).json();
    expect(res.success_count).toBe(0);
    expect(res.results[0]).toMatchObject({ id: b, success: false, validation_triggered: true });
    expect(res.results[0].error).toContain("2024-05-01");
    expect(queryDb<any>(server.dataDir, "SELECT name, allow_cash_overdraft FROM brokers WHERE id = ?", b)).toEqual([{ name: "Overdrawn", allow_cash_overdraft: 1 }]);
    // shorting off is fine: no asset goes negative
    const ok = await (await owner.patch(`/brokers/${b}`, { allow_asset_shorting: false })).json();
    expect(ok.results[0]).toEqual({ id: b, success: true, validation_triggered: true });
  });

  test("accepted once the balances hold", async () => {
    const b = await createBroker(owner, "Healthy", { allow_cash_overdraft: true });
    seedTransactions(server.dataDir, [
      { brokerId: b, type: "DEPOSIT", date: "2024-05-01", amount: "100", currency: "EUR" },
      { brokerId: b, type: "WITHDRAWAL", date: "2024-05-01", amount: "-100", currency: "EUR" },
    ]);
    const res = await (await owner.patch(`/brokers/${b}`, { allow_cash_overdraft: false })).json();
    expect(res.results[0]).toEqual({ id: b, success: true, validation_triggered: true });
  });
});
