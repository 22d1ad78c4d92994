import { beforeAll, describe, expect, test } from "bun:test";
import { ApiClient } from "../../helpers/client.ts";
import { seedFxRates } from "../../helpers/fake-fx-server.ts";
import { queryDb } from "../../helpers/seed.ts";
import { type TestServer, useApi } from "../../helpers/server.ts";

const started = useApi();
let server: TestServer;
let api: ApiClient;

beforeAll(async () => {
  server = started.server;
  api = new ApiClient(server.base);
  await api.signUp("fxrates");
});

const stored = (base: string, quote: string) =>
  queryDb<{ date: string; rate: string; provider: string; source: string }>(server.dataDir,
    `SELECT date, rate, provider, source FROM fx_rates WHERE base = ? AND quote = ? ORDER BY date, provider`, base, quote);

describe("POST/DELETE /fx/currencies/rate", () => {
  test("a rate posted in alphabetical order is stored as is under MANUAL; a second post updates it", async () => {
    let res = await api.post("/fx/currencies/rate", [{ date: "2024-01-02", base: "EUR", quote: "USD", rate: "1.10" }]);
    expect(res.status).toBe(200);
    let body = await res.json();
    expect(body.results[0]).toMatchObject({ success: true, action: "inserted", base: "EUR", quote: "USD", rate: "1.1" });
    res = await api.post("/fx/currencies/rate", [{ date: "2024-01-02", base: "EUR", quote: "USD", rate: 1.2, source: "bank" }]);
    body = await res.json();
    expect(body.results[0]).toMatchObject({ success: true, action: "updated", rate: "1.2" });
    expect(stored("EUR", "USD")).toEqual([{ date: "2024-01-02", rate: "1.2", provider: "MANUAL", source: "bank" }]);
  });

  test("a rate posted the other way round is stored alphabetically as 1/rate (34 significant digits)", async () => {
    const res = await api.post("/fx/currencies/rate", [{ date: "2024-01-03", base: "USD", quote: "CHF", rate: "3" }]);
    const body = await res.json();
    expect(body.results[0]).toMatchObject({ success: true, base: "CHF", quote: "USD", rate: "0.3333333333333333333333333333333333" });
    expect(stored("CHF", "USD")).toEqual([{ date: "2024-01-03", rate: "0.3333333333333333333333333333333333", provider: "MANUAL", source: "MANUAL" }]);
  });

  test("a zero or negative rate is refused (schema, 422)", async () => {
    const res = await api.post("/fx/currencies/rate", [{ date: "2024-01-03", base: "EUR", quote: "USD", rate: "0" }]);
    expect(res.status).toBe(422);
  });

  test("400 only when every item failed (same currency twice)", async () => {
    const res = await api.post("/fx/currencies/rate", [{ date: "2024-01-03", base: "EUR", quote: "EUR", rate: "1" }]);
    expect(res.status).toBe(400);
  });

  test("delete by date range removes the pair's rows of every provider in range; delete_all removes the rest", async () => {
    seedFxRates(server.dataDir, [
      { base: "GBP", quote: "JPY", provider: "MANUAL", date: "2024-01-01", rate: "180" },
      { base: "GBP", quote: "JPY", provider: "ECB", date: "2024-01-02", rate: "181" },
      { base: "GBP", quote: "JPY", provider: "MANUAL", date: "2024-01-05", rate: "182" },
    ]);
    let res = await api.request("DELETE", "/fx/currencies/rate", [{ from: "JPY", to: "GBP", date_range: { start: "2024-01-01", end: "2024-01-02" } }]);
    expect(res.status).toBe(200);
    let body = await res.json();
    expect(body.results[0]).toMatchObject({ success: true, base: "GBP", quote: "JPY", deleted_count: 2, existing_count: 3 });
    expect(body.total_deleted).toBe(2);
    expect(stored("GBP", "JPY").map((r) => r.date)).toEqual(["2024-01-05"]);
    res = await api.request("DELETE", "/fx/currencies/rate", [{ from: "GBP", to: "JPY", delete_all: true }]);
    body = await res.json();
    expect(body.results[0]).toMatchObject({ deleted_count: 1, existing_count: 1 });
    expect(stored("GBP", "JPY")).toEqual([]);
  });

  test("delete needs date_range or delete_all (422)", async () => {
    const res = await api.request("DELETE", "/fx/currencies/rate", [{ from: "GBP", to: "JPY" }]);
    expect(res.status).toBe(422);
  });
});
