import { beforeAll, describe, expect, test } from "bun:test";
import { ApiClient } from "../../helpers/client.ts";
import { seedFxRates, seedFxRoute } from "../../helpers/fake-fx-server.ts";
import { type TestServer, useApi } from "../../helpers/server.ts";

const started = useApi();
let server: TestServer;
let api: ApiClient;

beforeAll(async () => {
  server = started.server;
  api = new ApiClient(server.base);
  await api.signUp("fxconvert");
  seedFxRates(server.dataDir, [
    { base: "EUR", quote: "USD", provider: "MANUAL", date: "2024-01-02", rate: "1.1" },
    { base: "EUR", quote: "USD", provider: "MANUAL", date: "2024-01-05", rate: "1.2" },
    // Legs of a 3-step CHF→EUR→USD→JPY route under provider codes (rates are read as stored).
    { base: "CHF", quote: "EUR", provider: "P1", date: "2024-01-01", rate: "0.5" },
    { base: "EUR", quote: "USD", provider: "P1", date: "2024-01-01", rate: "2" },
    { base: "JPY", quote: "USD", provider: "P2", date: "2024-01-01", rate: "0.25" },
    // Priority fallback: the primary route's provider has no rate before 2024-01-10.
    { base: "GBP", quote: "USD", provider: "PRIMARY", date: "2024-01-10", rate: "1.3" },
    { base: "GBP", quote: "USD", provider: "BACKUP", date: "2024-01-01", rate: "1.25" },
  ]);
  seedFxRoute(server.dataDir, { base: "CHF", quote: "JPY", priority: 1, steps: [
    { from: "CHF", to: "EUR", provider: "P1" }, { from: "EUR", to: "USD", provider: "P1" }, { from: "USD", to: "JPY", provider: "P2" },
  ] });
  seedFxRoute(server.dataDir, { base: "GBP", quote: "USD", priority: 1, steps: [{ from: "GBP", to: "USD", provider: "PRIMARY" }] });
  seedFxRoute(server.dataDir, { base: "GBP", quote: "USD", priority: 2, steps: [{ from: "GBP", to: "USD", provider: "BACKUP" }] });
});

const convert = (items: unknown[]) => api.post("/fx/currencies/convert", items);

describe("POST /fx/currencies/convert", () => {
  test("each day of the range is converted; backward fill carries the last rate and reports it", async () => {
    const res = await convert([{ from_amount: { code: "EUR", amount: "100" }, to: "USD", date_range: { start: "2024-01-02", end: "2024-01-05" } }]);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.success_count).toBe(4);
    expect(body.results.map((r: any) => [r.conversion_date, r.to_amount.amount, r.backward_fill_info?.days_back ?? 0])).toEqual([
      ["2024-01-02", "110", 0], ["2024-01-03", "110", 1], ["2024-01-04", "110", 2], ["2024-01-05", "120", 0],
    ]);
    expect(body.results[1]).toMatchObject({ rate: "1.1", to_amount: { code: "USD" }, backward_fill_info: { actual_rate_date: "2024-01-02", days_back: 1 } });
    expect(body.results[0].backward_fill_info).toBeUndefined();
  });

  test("a reversed conversion (quote → base) inverts the rate", async () => {
    const body = await (await convert([{ from_amount: { code: "USD", amount: "120" }, to: "EUR", date_range: { start: "2024-01-05" } }])).json();
    expect(body.results[0].to_amount.amount).toBe("100");
  });

  test("a 3-step route multiplies its legs (reversed leg inverted) in both directions", async () => {
    let body = await (await convert([{ from_amount: { code: "CHF", amount: "10" }, to: "JPY", date_range: { start: "2024-01-03" } }])).json();
    // CHF→EUR 0.5, EUR→USD 2, USD→JPY 1/0.25 = 4
    expect(body.results[0]).toMatchObject({ rate: "4", to_amount: { code: "JPY", amount: "40" }, backward_fill_info: { days_back: 2 } });
    body = await (await convert([{ from_amount: { code: "JPY", amount: "40" }, to: "CHF", date_range: { start: "2024-01-03" } }])).json();
    expect(body.results[0].to_amount.amount).toBe("10");
  });

  test("the first route by priority that can convert wins", async () => {
    const body = await (await convert([{ from_amount: { code: "GBP", amount: "1" }, to: "USD", date_range: { start: "2024-01-09", end: "2024-01-10" } }])).json();
    expect(body.results.map((r: any) => r.rate)).toEqual(["1.25", "1.3"]);
  });

  test("same currency converts at rate 1", async () => {
    const body = await (await convert([{ from_amount: { code: "EUR", amount: "5" }, to: "EUR", date_range: { start: "2024-01-01" } }])).json();
    expect(body.results[0]).toMatchObject({ rate: "1", to_amount: { code: "EUR", amount: "5" } });
  });

  test("days before any rate are errors; 404 when every conversion failed", async () => {
    let res = await convert([{ from_amount: { code: "EUR", amount: "1" }, to: "USD", date_range: { start: "2024-01-01", end: "2024-01-02" } }]);
    const body = await res.json();
    expect(body.success_count).toBe(1);
    expect(body.errors[0]).toContain("2024-01-01");
    res = await convert([{ from_amount: { code: "EUR", amount: "1" }, to: "CAD", date_range: { start: "2024-01-01" } }]);
    expect(res.status).toBe(404);
  });
});
