import { expect } from "bun:test";
import type { ApiClient } from "../../helpers/client.ts";
import { seedAsset } from "../../helpers/seed.ts";
import { buy, commitOk, deposit, eur, looseBroker } from "../transactions/fixtures.ts";

/** The fixed portfolio the AI-export goldens are computed on: one EUR and one USD asset, a sell, a USD cash balance. */
export interface FixturePortfolio {
  broker: number;
  eurAsset: number;
  usdAsset: number;
}

export const FIXTURE_PERIOD = { start: "2024-01-01", end: "2024-03-31" };

export async function buildFixturePortfolio(c: ApiClient, dataDir: string): Promise<FixturePortfolio> {
  const broker = await looseBroker(c, "Fixture broker");
  const eurAsset = seedAsset(dataDir, { name: "Euro Equity ETF", currency: "EUR" });
  const usdAsset = seedAsset(dataDir, { name: "US Tech Stock", currency: "USD" });
  expect((await c.post("/fx/currencies/rate", [
    { date: "2024-01-02", base: "EUR", quote: "USD", rate: "1.10" },
    { date: "2024-02-01", base: "EUR", quote: "USD", rate: "1.08" },
    { date: "2024-03-01", base: "EUR", quote: "USD", rate: "1.09" },
  ])).status).toBe(200);
  await commitOk(c, { creates: [
    deposit(broker, "10000", "2024-01-02"),
    deposit(broker, "2000", "2024-01-02", "USD"),
    buy(broker, eurAsset, "10", "-1000", "2024-01-03"),
    { broker_id: broker, asset_id: usdAsset, type: "BUY", date: "2024-01-04", quantity: "5", cash: { code: "USD", amount: "-1000" } },
    { broker_id: broker, asset_id: eurAsset, type: "SELL", date: "2024-02-15", quantity: "-3", cash: eur("360") },
  ] });
  const prices = async (asset_id: number, rows: [string, string][]) => {
    const res = await c.post("/assets/prices", [{ asset_id, prices: rows.map(([date, close]) => ({ date, close })) }]);
    expect(res.status).toBe(200);
  };
  await prices(eurAsset, [["2024-01-03", "100"], ["2024-01-15", "104"], ["2024-02-01", "110"], ["2024-02-15", "120"], ["2024-03-01", "118"], ["2024-03-28", "115"]]);
  await prices(usdAsset, [["2024-01-04", "200"], ["2024-02-01", "190"], ["2024-03-01", "205"], ["2024-03-28", "210"]]);
  return { broker, eurAsset, usdAsset };
}
