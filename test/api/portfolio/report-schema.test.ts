import { beforeAll, expect, test } from "bun:test";
import { ReportResponse } from "../../../host/api/portfolio/report.schema.ts";
import { execDb } from "../assets/assets-helpers.ts";
import { ApiClient } from "../../helpers/client.ts";
import { type TestServer, useApi } from "../../helpers/server.ts";
import { buy, commitOk, createAsset, deposit, looseBroker } from "../transactions/fixtures.ts";

const api = useApi();
let server: TestServer;
let c: ApiClient;

beforeAll(async () => {
  server = api.server;
  c = new ApiClient(server.base);
  await c.signUp("schema-reader");
});

// The report is served as the worker's bytes, never run through its schema on the way out
// (docs/decisions.md "Exact response schemas"): this reads a real one with every section filled
// through the schema, which must accept it unchanged (a missing or mistyped field fails the parse,
// a field the schema does not list is stripped and fails the comparison).
test("a report with every section is exactly what its documented schema describes", async () => {
  const broker = await looseBroker(c, "Schema broker");
  const priced = createAsset(server.dataDir, "EUR");
  const unpriced = createAsset(server.dataDir, "USD");
  await commitOk(c, { creates: [
    deposit(broker, "1000", "2024-01-02"), buy(broker, priced, "10", "-100", "2024-01-03"), buy(broker, unpriced, "5", "-50", "2024-01-04"),
  ] });
  // A price provider makes an old price stale and a trade price an implied one (docs/portfolio.md "Data quality").
  for (const asset of [priced, unpriced]) {
    execDb(server.dataDir, `INSERT INTO asset_provider_assignments (asset_id, provider_code, identifier, identifier_type) VALUES (?, 'yfinance', 'X', 'TICKER')`, asset);
  }
  expect((await c.post("/assets/prices", [{ asset_id: priced, prices: [{ date: "2024-01-03", close: "10" }, { date: "2024-01-10", close: "12" }] }])).status).toBe(200);
  const res = await c.post("/portfolio/report", {
    date_range: { start: "2024-01-01", end: "2024-01-31" }, target_currency: "EUR",
    include_summary: true, include_history: true, include_allocation_history: true, include_breakdown: true, include_positions_contribution: true,
    include_period_returns: true, include_income_payments: true,
  });
  expect(res.status).toBe(200);
  const body = await res.json() as any;
  expect(body.history.length).toBeGreaterThan(10);
  expect(body.summary.by_broker.length).toBe(1);
  expect(body.positions_contribution.positions.length).toBe(2);
  expect(body.allocation_history.type.length).toBeGreaterThan(10);
  expect(body.period_returns.month.length).toBe(1);
  expect(body.income_payments).toEqual([]);
  expect(body.data_quality.stale_prices.length).toBeGreaterThan(0);
  const parsed = ReportResponse.safeParse(body);
  expect(parsed.error?.issues ?? []).toEqual([]);
  expect(parsed.data).toEqual(body);
});
