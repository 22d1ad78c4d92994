import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { EcbConfigSchema } from "../../plugins/ecb/client.ts";
import { ecbPlugin } from "../../plugins/ecb/index.ts";
import type { FxPair, FxProvider, IsoDate } from "../../sdk/index.ts";
import { createFakeContext, runFxProviderContract } from "../../sdk/testing/index.ts";
import { ecbFailures, startFakeEcb } from "../fakes/ecb.ts";

// The real plugin code against a local fake of the ECB Data Portal's SDMX REST API (test/fakes/ecb.ts),
// answering from test/fixtures/ecb/ (CHF, GBP, JPY, USD over 2024-01-02..2024-01-12, TARGET days).

const fake = startFakeEcb();
afterAll(() => fake.stop());
afterEach(() => fake.reset());

const pair = (base: string, quote: string) => ({ base, quote }) as FxPair;
const day = (text: string) => text as IsoDate;
const contextFor = (extra: Record<string, unknown> = {}) =>
  createFakeContext({ allowedDestinations: [new URL(fake.url).host], config: EcbConfigSchema.parse({ baseUrl: fake.url, ...extra }) });
const provider = async (extra: Record<string, unknown> = {}): Promise<FxProvider> => ecbPlugin.create(contextFor(extra));
const FIRST_WEEKS = { from: day("2024-01-01"), to: day("2024-01-09") };

runFxProviderContract(ecbPlugin, {
  context: contextFor(),
  sample: { ...FIRST_WEEKS, pairs: [pair("EUR", "USD"), pair("EUR", "JPY"), pair("USD", "EUR")] },
});

describe("configuration", () => {
  test("the real portal is the default, with a 10 s timeout", () => {
    expect(EcbConfigSchema.parse({})).toEqual({ baseUrl: "https://data-api.ecb.europa.eu", timeoutMs: 10_000 });
    expect(EcbConfigSchema.safeParse({ baseUrl: "ftp://example.com" }).success).toBe(false);
  });

  test("the base is EUR and the targets are the 30 reference-rate currencies", async () => {
    const ecb = await provider();
    expect(ecb.baseCurrencies).toEqual(["EUR"] as never);
    expect(ecb.targetCurrencies.length).toBe(30);
    expect(ecb.targetCurrencies).toContain("USD" as never);
    expect(ecb.targetCurrencies).toContain("ZAR" as never);
    expect(ecb.targetCurrencies).not.toContain("EUR" as never);
  });
});

describe("rates", () => {
  test("one request asks for every currency of the batch over the range, as SDMX-JSON", async () => {
    await (await provider()).getRates({ ...FIRST_WEEKS, pairs: [pair("EUR", "USD"), pair("EUR", "GBP"), pair("EUR", "USD")] });
    expect(fake.log).toEqual([
      { path: "/service/data/EXR/D.USD+GBP.EUR.SP00.A", query: { endPeriod: "2024-01-09", format: "jsondata", startPeriod: "2024-01-01" } },
    ]);
  });

  test("rates are 1 EUR in the currency, as published, on TARGET days only (no holiday, no weekend)", async () => {
    const [usd, gbp] = await (await provider()).getRates({ ...FIRST_WEEKS, pairs: [pair("EUR", "USD"), pair("EUR", "GBP")] });
    expect(usd).toEqual({
      ok: true,
      value: [
        { date: "2024-01-02", rate: "1.0956" }, { date: "2024-01-03", rate: "1.0919" }, { date: "2024-01-04", rate: "1.0953" },
        { date: "2024-01-05", rate: "1.0921" }, { date: "2024-01-08", rate: "1.0946" }, { date: "2024-01-09", rate: "1.0945" },
      ],
    } as never);
    // The JSON number's own text, without a float artefact or a trailing zero lost elsewhere.
    expect(gbp.ok && gbp.value.slice(0, 2)).toEqual([{ date: "2024-01-02", rate: "0.8658" }, { date: "2024-01-03", rate: "0.86505" }] as never);
  });

  test("pairs come back in request order, each with its own series", async () => {
    const outcomes = await (await provider()).getRates({ from: day("2024-01-12"), pairs: [pair("EUR", "JPY"), pair("EUR", "CHF")], to: day("2024-01-12") });
    expect(outcomes).toEqual([
      { ok: true, value: [{ date: "2024-01-12", rate: "159.18" }] },
      { ok: true, value: [{ date: "2024-01-12", rate: "0.9354" }] },
    ] as never);
  });

  test("a range without observations (the portal's 404 No results found) is an empty list", async () => {
    const ecb = await provider();
    const [weekend] = await ecb.getRates({ from: day("2024-01-06"), pairs: [pair("EUR", "USD")], to: day("2024-01-07") });
    const [future] = await ecb.getRates({ from: day("2030-01-01"), pairs: [pair("EUR", "USD"), pair("EUR", "JPY")], to: day("2030-01-31") });
    expect(weekend).toEqual({ ok: true, value: [] } as never);
    expect(future).toEqual({ ok: true, value: [] } as never);
  });

  test("a currency the answer holds no series for is an empty list beside the others", async () => {
    const [usd, sek] = await (await provider()).getRates({ ...FIRST_WEEKS, pairs: [pair("EUR", "USD"), pair("EUR", "SEK")] });
    expect(usd.ok && usd.value.length).toBe(6);
    expect(sek).toEqual({ ok: true, value: [] } as never);
  });

  test("a pair not based on EUR, or an unknown target, fails alone with invalid-input and is not requested", async () => {
    const outcomes = await (await provider()).getRates({ ...FIRST_WEEKS, pairs: [pair("USD", "EUR"), pair("EUR", "XAU"), pair("EUR", "CHF")] });
    expect(outcomes.map((o) => (o.ok ? o.value.length : o.error.reason))).toEqual(["invalid-input", "invalid-input", 6] as never);
    expect(fake.log.map((entry) => entry.path)).toEqual(["/service/data/EXR/D.CHF.EUR.SP00.A"]);
  });

  test("a batch of unsupported pairs only makes no request", async () => {
    const outcomes = await (await provider()).getRates({ ...FIRST_WEEKS, pairs: [pair("GBP", "USD")] });
    expect(outcomes).toMatchObject([{ error: { reason: "invalid-input" }, ok: false }]);
    expect(fake.log).toEqual([]);
  });

  test("from after to fails every pair with invalid-input", async () => {
    const outcomes = await (await provider()).getRates({ from: day("2024-01-09"), pairs: [pair("EUR", "USD")], to: day("2024-01-02") });
    expect(outcomes).toMatchObject([{ error: { reason: "invalid-input" }, ok: false }]);
  });
});

describe("upstream failures fail every supported pair with the request's reason", () => {
  const failures = [
    ["HTTP 429 is rate-limited (retryable)", ecbFailures.rateLimited, "rate-limited", true],
    ["HTTP 500 is unavailable (retryable)", ecbFailures.serverError, "unavailable", true],
    ["an HTML page with status 200 is a bad response", ecbFailures.htmlPage, "bad-response", false],
    ["a JSON body cut short is a bad response", ecbFailures.malformed, "bad-response", false],
    ["no answer within the configured timeout is a timeout", ecbFailures.hang, "timeout", true],
  ] as const;

  for (const [rule, handler, reason, retryable] of failures) {
    test(rule, async () => {
      fake.behave({ handler });
      const outcomes = await (await provider({ timeoutMs: 150 })).getRates({ ...FIRST_WEEKS, pairs: [pair("EUR", "USD"), pair("EUR", "JPY"), pair("USD", "EUR")] });
      expect(outcomes[0]).toMatchObject({ error: { reason, retryable }, ok: false });
      expect(outcomes[1]).toMatchObject({ error: { reason, retryable }, ok: false });
      expect(outcomes[2]).toMatchObject({ error: { reason: "invalid-input" }, ok: false });
    });
  }

  test("a 404 that is not the portal's No results found (a wrong baseUrl) is not-found, not an empty list", async () => {
    const [usd] = await (await provider({ baseUrl: `${fake.url}/wrong` })).getRates({ ...FIRST_WEEKS, pairs: [pair("EUR", "USD")] });
    expect(usd).toMatchObject({ error: { reason: "not-found" }, ok: false });
  });

  test("a caller's abort rejects instead of answering outcomes", async () => {
    fake.behave({ delayMs: 500 });
    const controller = new AbortController();
    const pending = (await provider()).getRates({ ...FIRST_WEEKS, pairs: [pair("EUR", "USD")], signal: controller.signal });
    setTimeout(() => controller.abort(new Error("stop")), 50);
    await expect(pending).rejects.toThrow("stop");
  });
});
