/**
 * Who changes FX data (docs/fx.md "Who changes FX data", docs/security.md "Shared FX data"): the
 * shared routes and rates value every user's portfolio, so only administrators change them; any
 * user keeps private rates that value only their own conversions and reports. Real server.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ApiClient, expectError } from "../../helpers/client.ts";
import { queryDb } from "../../helpers/seed.ts";
import type { TestServer } from "../../helpers/server.ts";
import { commitOk, deposit, looseBroker, share } from "../transactions/fixtures.ts";
import { manualRoute, startFxServer, step } from "./fx-helpers.ts";

let server: TestServer;
let admin: ApiClient;
let alice: ApiClient;
let mallory: ApiClient;
let aliceId: number;
let malloryId: number;
let aliceBroker: number;
let sharedBroker: number;

const PERIOD = { start: "2024-01-01", end: "2024-06-30" };

/** The caller's net worth in NOK over {@link PERIOD}, and the data-quality issues of that report. */
async function nokReport(c: ApiClient, brokerId: number): Promise<{ netWorth: string; issues: any[] }> {
  const res = await c.post("/portfolio/report", { broker_ids: [brokerId], date_range: PERIOD, target_currency: "NOK", include_summary: true });
  expect(res.status).toBe(200);
  const body = await res.json();
  return { netWorth: body.summary.net_worth.amount, issues: body.data_quality.issues };
}

const sharedRates = (base: string, quote: string) =>
  queryDb<{ provider: string; date: string; rate: string }>(server.dataDir,
    `SELECT provider, date, rate FROM fx_rates WHERE base = ? AND quote = ? ORDER BY provider, date`, base, quote);
const privateRates = (userId: number) =>
  queryDb<{ base: string; quote: string; date: string; rate: string }>(server.dataDir,
    `SELECT base, quote, date, rate FROM fx_private_rates WHERE user_id = ? ORDER BY base, quote, date`, userId);
const routesOf = async (base: string, quote: string) =>
  (await (await admin.get("/fx/providers/routes")).json()).filter((r: any) => r.base === base && r.quote === quote);
const convert = (c: ApiClient, code: string, to: string, day: string) =>
  c.post("/fx/currencies/convert", [{ from_amount: { code, amount: "100" }, to, date_range: { start: day } }]);

beforeAll(async () => {
  server = await startFxServer();
  admin = new ApiClient(server.base);
  alice = new ApiClient(server.base);
  mallory = new ApiClient(server.base);
  expect((await admin.signUp("fxadmin")).is_superuser).toBe(true);
  aliceId = (await alice.signUp("fxalice")).id;
  const m = await mallory.signUp("fxmallory");
  expect(m.is_superuser).toBe(false);
  malloryId = m.id;
  // Alice holds 1,000 EUR; the shared EUR-NOK rate (10) and the pair's MANUAL route are the administrator's.
  aliceBroker = await looseBroker(alice, "Alice EUR");
  await commitOk(alice, { creates: [deposit(aliceBroker, "1000", "2024-01-02")] });
  expect((await admin.post("/fx/currencies/rate", [{ date: "2024-01-01", base: "EUR", quote: "NOK", rate: "10" }])).status).toBe(200);
  expect((await admin.post("/fx/providers/routes", [manualRoute("EUR", "NOK")])).status).toBe(201);
  expect((await nokReport(alice, aliceBroker)).netWorth).toBe("10000");
  // A CHF broker of Alice's that Mallory may read; no shared CHF-NOK data exists.
  sharedBroker = await looseBroker(alice, "Alice CHF");
  await commitOk(alice, { creates: [deposit(sharedBroker, "100", "2024-01-02", "CHF")] });
  await share(alice, sharedBroker, malloryId, "VIEWER");
});
afterAll(() => server.stop(true));

describe("the shared FX data is changed by administrators only", () => {
  test("a non-admin's manual rate of the reverse pair is refused 403 FX_ADMIN_REQUIRED; the rates and another user's valuation stay", async () => {
    const body = await expectError(await mallory.post("/fx/currencies/rate", [{ date: "2024-03-01", base: "NOK", quote: "EUR", rate: "100" }]),
      403, "FX_ADMIN_REQUIRED");
    expect(body.detail).toContain("/fx/currencies/private-rates");
    expect(sharedRates("EUR", "NOK")).toEqual([{ provider: "MANUAL", date: "2024-01-01", rate: "10" }]);
    expect((await nokReport(alice, aliceBroker)).netWorth).toBe("10000");
  });

  test("a non-admin's delete of a pair's rates is refused 403 FX_ADMIN_REQUIRED; the rates and another user's valuation stay", async () => {
    await expectError(await mallory.request("DELETE", "/fx/currencies/rate", [{ from: "NOK", to: "EUR", delete_all: true }]), 403, "FX_ADMIN_REQUIRED");
    expect(sharedRates("EUR", "NOK")).toEqual([{ provider: "MANUAL", date: "2024-01-01", rate: "10" }]);
    expect((await nokReport(alice, aliceBroker)).netWorth).toBe("10000");
  });

  test("a non-admin cannot add, replace or delete a route (one through a provider without rates would zero the valuation): 403, routes and valuation stay", async () => {
    const before = await routesOf("EUR", "NOK");
    expect(before).toEqual([expect.objectContaining({ priority: 999, chain_steps: [step("EUR", "NOK", "MANUAL")] })]);
    await expectError(await mallory.post("/fx/providers/routes", [{ base: "EUR", quote: "NOK", priority: 1, chain_steps: [step("EUR", "NOK", "FXA")] }]),
      403, "FX_ADMIN_REQUIRED");
    await expectError(await mallory.post("/fx/providers/routes", [{ base: "NOK", quote: "EUR", priority: 999, chain_steps: [step("NOK", "EUR", "FXA")] }]),
      403, "FX_ADMIN_REQUIRED");
    await expectError(await mallory.request("DELETE", "/fx/providers/routes", [{ base: "EUR", quote: "NOK" }]), 403, "FX_ADMIN_REQUIRED");
    expect(await routesOf("EUR", "NOK")).toEqual(before);
    expect((await nokReport(alice, aliceBroker)).netWorth).toBe("10000");
  });

  test("provider syncs stay open to every user: they store only what the pair's configured providers answer", async () => {
    const res = await mallory.post("/fx/currencies/sync", { pairs: ["EUR-NOK"], start: "2024-01-01", end: "2024-01-31" });
    expect(res.status).toBe(200);
    expect((await res.json()).results[0]).toMatchObject({ pair: "EUR-NOK", status: "skipped" });
    expect(sharedRates("EUR", "NOK")).toEqual([{ provider: "MANUAL", date: "2024-01-01", rate: "10" }]);
  });
});

describe("private manual rates", () => {
  test("a non-admin's private rate converts only their own amounts; others still have no rate", async () => {
    const res = await mallory.post("/fx/currencies/private-rates", [{ date: "2024-01-01", base: "NOK", quote: "CHF", rate: "0.1" }]);
    expect(res.status).toBe(200);
    expect((await res.json()).results).toEqual([{ success: true, action: "inserted", rate: "10", date: "2024-01-01", base: "CHF", quote: "NOK" }]);
    expect(await (await mallory.post("/fx/currencies/private-rates", [{ date: "2024-01-01", base: "CHF", quote: "NOK", rate: "11" }])).json())
      .toMatchObject({ results: [{ action: "updated", rate: "11" }], success_count: 1 });
    const own = await (await convert(mallory, "CHF", "NOK", "2024-02-01")).json();
    expect(own.results).toEqual([{
      from_amount: { code: "CHF", amount: "100" }, to_amount: { code: "NOK", amount: "1100" }, conversion_date: "2024-02-01", rate: "11",
      backward_fill_info: { actual_rate_date: "2024-01-01", days_back: 31 }, private_rate: true,
    }]);
    await expectError(await convert(alice, "CHF", "NOK", "2024-02-01"), 404, "FX_RATE_NOT_FOUND");
    await expectError(await convert(admin, "CHF", "NOK", "2024-02-01"), 404, "FX_RATE_NOT_FOUND");
    expect(sharedRates("CHF", "NOK")).toEqual([]);
    expect((await (await mallory.get("/fx/currencies/private-rates")).json()).items)
      .toEqual([{ base: "CHF", quote: "NOK", date: "2024-01-01", rate: "11", source: "MANUAL" }]);
    expect((await (await alice.get("/fx/currencies/private-rates?base=NOK&quote=CHF")).json()).items).toEqual([]);
  });

  test("the shared data comes first: a private rate fills only the days the shared rates cannot convert, and never moves another user's figure", async () => {
    expect((await mallory.post("/fx/currencies/private-rates", [
      { date: "2023-06-01", base: "EUR", quote: "NOK", rate: "12" }, { date: "2024-02-01", base: "EUR", quote: "NOK", rate: "0.01" },
    ])).status).toBe(200);
    // Before the first shared rate (2024-01-01) only the private one exists; from then on the shared route converts.
    const before = (await (await convert(mallory, "EUR", "NOK", "2023-12-01")).json()).results[0];
    expect(before).toMatchObject({ to_amount: { code: "NOK", amount: "1200" }, private_rate: true });
    const after = (await (await convert(mallory, "EUR", "NOK", "2024-03-01")).json()).results[0];
    expect(after.to_amount).toEqual({ code: "NOK", amount: "1000" });
    expect(after.private_rate).toBeUndefined();
    expect((await nokReport(alice, aliceBroker)).netWorth).toBe("10000");
    expect(sharedRates("EUR", "NOK")).toEqual([{ provider: "MANUAL", date: "2024-01-01", rate: "10" }]);
  });

  test("a shared broker is valued for each viewer with that viewer's own private rates; one viewer's cached report is never served to another", async () => {
    expect((await alice.post("/fx/currencies/private-rates", [{ date: "2024-01-01", base: "CHF", quote: "NOK", rate: "10" }])).status).toBe(200);
    const byAlice = await nokReport(alice, sharedBroker);
    expect(byAlice.netWorth).toBe("1000");
    const byMallory = await nokReport(mallory, sharedBroker);
    expect(byMallory.netWorth).toBe("1100");
    expect((await nokReport(alice, sharedBroker)).netWorth).toBe("1000");
    // The data quality says whose rates valued the figures.
    for (const r of [byAlice, byMallory]) {
      expect(r.issues.filter((i) => i.code === "FX_PRIVATE_RATES_USED")).toEqual([expect.objectContaining({
        severity: "info", affected_fx_pairs: ["CHF-NOK"], cta_action: "navigate_fx", cta_target: "CHF-NOK", message_i18n_key: "dataQuality.fxPrivateRatesUsed",
      })]);
      expect(r.issues.some((i) => i.code === "MISSING_FX_MARKET" || i.code === "MISSING_FX_RATES")).toBe(false);
    }
  });

  test("converts run in the worker pool with the requesting user's id: two users converting at once each get only their own private rate", async () => {
    // Alice keeps CHF-NOK at 10, Mallory at 11 (above); no shared CHF-NOK data exists.
    const range = (c: ApiClient) => c.post("/fx/currencies/convert", [
      { from_amount: { code: "CHF", amount: "100" }, to: "NOK", date_range: { start: "2024-01-01", end: "2024-01-10" } },
      { from_amount: { code: "EUR", amount: "1" }, to: "NOK", date_range: { start: "2024-01-01" } },
    ]);
    const [a, m] = await Promise.all([range(alice), range(mallory)]);
    expect(a.status).toBe(200);
    expect(m.status).toBe(200);
    const [byAlice, byMallory] = [(await a.json()).results, (await m.json()).results];
    for (const [results, amount] of [[byAlice, "1000"], [byMallory, "1100"]] as const) {
      expect(results).toHaveLength(11);
      expect(results.slice(0, 10).every((r: any) => r.to_amount.amount === amount && r.private_rate === true)).toBe(true);
      // The shared EUR-NOK rate converts the second item: not a private day.
      expect(results[10]).toMatchObject({ to_amount: { code: "NOK", amount: "10" } });
      expect(results[10].private_rate).toBeUndefined();
    }
    await expectError(await convert(admin, "CHF", "NOK", "2024-01-05"), 404, "FX_RATE_NOT_FOUND");
  });

  test("deleting private rates removes only the caller's own; the other viewer's valuation stays", async () => {
    const res = await mallory.request("DELETE", "/fx/currencies/private-rates", [{ from: "NOK", to: "CHF", delete_all: true }]);
    expect(res.status).toBe(200);
    expect((await res.json()).results).toEqual([expect.objectContaining({ success: true, base: "CHF", quote: "NOK", deleted_count: 1, existing_count: 1 })]);
    expect(privateRates(malloryId).map((r) => `${r.base}-${r.quote}`)).toEqual(["EUR-NOK", "EUR-NOK"]);
    expect(privateRates(aliceId)).toEqual([{ base: "CHF", quote: "NOK", date: "2024-01-01", rate: "10" }]);
    expect((await nokReport(alice, sharedBroker)).netWorth).toBe("1000");
    // Without rates of her own, Mallory's view of the broker has a gap, and says so.
    const byMallory = await nokReport(mallory, sharedBroker);
    expect(byMallory.netWorth).toBe("0");
    expect(byMallory.issues.map((i) => i.code)).toContain("MISSING_FX_MARKET");
    expect(byMallory.issues.map((i) => i.code)).not.toContain("FX_PRIVATE_RATES_USED");
  });
});

describe("administrators keep the shared FX data as before", () => {
  test("an administrator upserts, routes and deletes shared data with the unchanged answers, and every holder's valuation follows", async () => {
    const upsert = await admin.post("/fx/currencies/rate", [{ date: "2024-03-01", base: "NOK", quote: "EUR", rate: "0.2" }]);
    expect(await upsert.json()).toEqual({
      results: [{ success: true, action: "inserted", rate: "5", date: "2024-03-01", base: "EUR", quote: "NOK" }], success_count: 1, errors: [],
    });
    expect((await nokReport(alice, aliceBroker)).netWorth).toBe("5000");
    const route = await admin.post("/fx/providers/routes", [{ base: "EUR", quote: "NOK", priority: 1, chain_steps: [step("EUR", "NOK", "FXA")] }]);
    expect(route.status).toBe(201);
    expect((await route.json()).results[0]).toMatchObject({ success: true, action: "created", base: "EUR", quote: "NOK", priority: 1 });
    expect((await nokReport(alice, aliceBroker)).netWorth).toBe("0");
    const unroute = await admin.request("DELETE", "/fx/providers/routes", [{ base: "EUR", quote: "NOK" }]);
    expect((await unroute.json()).results[0]).toMatchObject({ success: true, deleted_count: 1, manual_reinstated: true });
    expect((await nokReport(alice, aliceBroker)).netWorth).toBe("5000");
    const wipe = await admin.request("DELETE", "/fx/currencies/rate", [{ from: "NOK", to: "EUR", delete_all: true }]);
    expect((await wipe.json()).results[0]).toMatchObject({ success: true, deleted_count: 2, existing_count: 2 });
    expect((await nokReport(alice, aliceBroker)).netWorth).toBe("0");
  });
});
