import { expect } from "bun:test";
import fixture from "../../fixtures/scheduled-investment/monthly-interest-act365.json";
import type { ApiClient } from "../../helpers/client.ts";

/**
 * A portfolio with everything a backup must carry, built through the API: three brokers of
 * alice (one OWNED at share 0.6 with bob holding 0.4, one plain), bob's broker shared with alice as
 * EDITOR; assets in EUR and USD with ISIN, ticker and classification; a parametric provider
 * assignment whose sync writes provider prices and INTEREST events; manual prices, a manual SPLIT
 * and a manual DIVIDEND (its note, like the fee's description, reads "=SUM(A1)": text a spreadsheet would run, which
 * the JSON export and restore carry unchanged); manual EUR/USD rates; deposits, buys, a split adjustment, a transfer pair
 * (auto cost basis), an FX conversion pair, a dividend and interest linked to events, a sale.
 */
export interface RichPortfolio {
  assets: { stock: number; usd: number; bond: number };
  brokers: { main: number; second: number; shared: number };
}

async function ok(res: Promise<Response>, status = 200): Promise<any> {
  const r = await res;
  const body = await r.json();
  if (r.status !== status) throw new Error(`${r.status}: ${JSON.stringify(body)}`);
  return body;
}

async function commit(c: ApiClient, creates: Record<string, unknown>[]) {
  const out = await ok(c.post("/transactions/commit", { creates }));
  if (!out.committed) throw new Error(`commit refused: ${JSON.stringify(out.issues)}`);
  return out.results.flatMap((r: any) => r.ids) as number[];
}

const cash = (code: string, amount: string) => ({ code, amount });

export async function buildRichPortfolio(alice: ApiClient, bob: ApiClient, ids: { alice: number; bob: number }): Promise<RichPortfolio> {
  const assets = await ok(alice.post("/assets", [
    { name: "RT Stock EUR", currency: "EUR", asset_type: "STOCK", identifier_isin: "DE000RT00011",
      classification_params: { geographic_area: { distribution: { DEU: "0.7", FRA: "0.3" } }, sector_area: { distribution: { Financials: "1" } } } },
    { name: "RT Stock USD", currency: "USD", asset_type: "ETF", identifier_ticker: "RTUSD" },
    { name: "RT Bond", currency: "EUR", asset_type: "BOND" },
  ]), 201);
  const [stock, usd, bond] = assets.results.map((r: any) => r.asset_id) as [number, number, number];

  await ok(alice.post("/assets/provider", [{ asset_id: bond, provider_code: "scheduled_investment", identifier: "rt-bond",
    identifier_type: "AUTO_GENERATED", provider_params: fixture.params }]));
  const sync = await ok(alice.post("/assets/prices/sync", [{ asset_id: bond, date_range: { start: "min", end: fixture.range.to } }]));
  expect(sync.results[0].status).toBe("ok");

  const day = (d: number) => `2024-0${1 + Math.floor(d / 28)}-${String(1 + (d % 28)).padStart(2, "0")}`;
  await ok(alice.post("/assets/prices", [
    { asset_id: stock, prices: Array.from({ length: 110 }, (_, d) => ({ date: day(d), close: (100 + d * 0.37).toFixed(4), volume: String(1000 + d) })) },
    { asset_id: usd, prices: Array.from({ length: 110 }, (_, d) => ({ date: day(d), close: (50 - d * 0.11).toFixed(3), open: "49.5" })) },
  ]));
  await ok(alice.post("/assets/events", [
    { asset_id: stock, events: [{ date: "2024-03-01", type: "SPLIT", value: cash("EUR", "2"), notes: "2-for-1" }] },
    { asset_id: usd, events: [{ date: "2024-02-15", type: "DIVIDEND", value: cash("USD", "0.42"), notes: "=SUM(A1)" }] },
  ]));
  const rates = Array.from({ length: 110 }, (_, d) => ({ date: day(d), base: "EUR", quote: "USD", rate: (1.08 + (d % 7) * 0.0013).toFixed(6) }));
  await ok(alice.post("/fx/currencies/rate", rates));

  const events = await ok(alice.post("/assets/events/query", [stock, usd, bond].map((asset_id) => ({ asset_id, date_range: { start: "2024-01-01", end: "2024-12-31" } }))));
  const eventId = (asset: number, type: string) => events.items.find((i: any) => i.asset_id === asset).events.find((e: any) => e.type === type).id as number;

  const brokers = await ok(alice.post("/brokers", [{ name: "RT Main", opened_at: "2024-01-01" }, { name: "RT Second", allow_cash_overdraft: true }]));
  const [main, second] = brokers.results.map((r: any) => r.broker_id) as [number, number];
  const bobs = await ok(bob.post("/brokers", [{ name: "Bob Shared", description: "bob's, alice edits" }]));
  const shared = bobs.results[0].broker_id as number;
  await ok(alice.patch(`/brokers/${main}/access/${ids.alice}`, { share_percentage: "0.6" }));
  await ok(alice.post(`/brokers/${main}/access`, { user_id: ids.bob, role: "OWNER", share_percentage: "0.4" }), 201);
  await ok(bob.post(`/brokers/${shared}/access`, { user_id: ids.alice, role: "EDITOR" }), 201);

  await commit(alice, [
    { broker_id: main, type: "DEPOSIT", date: "2024-01-02", quantity: "0", cash: cash("EUR", "30000") },
    { broker_id: main, type: "DEPOSIT", date: "2024-01-02", quantity: "0", cash: cash("USD", "2000.50") },
    { broker_id: main, asset_id: stock, type: "BUY", date: "2024-01-05", quantity: "40", cash: cash("EUR", "-4057.33"), tags: ["core"], description: "first buy" },
    { broker_id: main, asset_id: usd, type: "BUY", date: "2024-01-08", quantity: "30", cash: cash("USD", "-1490.10") },
    { broker_id: main, asset_id: bond, type: "BUY", date: "2024-01-15", quantity: "1", cash: cash("EUR", "-10000") },
    { broker_id: main, type: "FEE", date: "2024-01-15", quantity: "0", cash: cash("EUR", "-2.95"), description: "=SUM(A1)" },
  ]);
  await commit(alice, [
    { broker_id: main, asset_id: stock, type: "ADJUSTMENT", date: "2024-03-01", quantity: "40", asset_event_id: eventId(stock, "SPLIT") },
    { broker_id: main, asset_id: usd, type: "DIVIDEND", date: "2024-02-15", quantity: "0", cash: cash("USD", "12.60"), asset_event_id: eventId(usd, "DIVIDEND") },
    { broker_id: main, asset_id: bond, type: "INTEREST", date: "2024-02-15", quantity: "0", cash: cash("EUR", "31.00"), asset_event_id: eventId(bond, "INTEREST") },
    { broker_id: main, asset_id: stock, type: "TRANSFER", date: "2024-03-10", quantity: "-30", link_uuid: "t1" },
    { broker_id: second, asset_id: stock, type: "TRANSFER", date: "2024-03-12", quantity: "30", link_uuid: "t1", cost_basis_mode: "auto" },
    { broker_id: main, type: "FX_CONVERSION", date: "2024-03-15", quantity: "0", cash: cash("EUR", "-1000"), link_uuid: "f1" },
    { broker_id: main, type: "FX_CONVERSION", date: "2024-03-15", quantity: "0", cash: cash("USD", "1085.20"), link_uuid: "f1" },
    { broker_id: second, asset_id: stock, type: "SELL", date: "2024-04-02", quantity: "-12", cash: cash("EUR", "1490.04") },
    { broker_id: second, asset_id: stock, type: "TAX", date: "2024-04-02", quantity: "0", cash: cash("EUR", "-3.10") },
  ]);
  await commit(bob, [
    { broker_id: shared, type: "DEPOSIT", date: "2024-01-03", quantity: "0", cash: cash("USD", "5000") },
    { broker_id: shared, asset_id: usd, type: "BUY", date: "2024-01-09", quantity: "20", cash: cash("USD", "-995.40") },
    { broker_id: shared, type: "WITHDRAWAL", date: "2024-04-01", quantity: "0", cash: cash("USD", "-100") },
  ]);
  return { assets: { stock, usd, bond }, brokers: { main, second, shared } };
}
