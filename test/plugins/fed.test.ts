import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { FedConfigSchema } from "../../plugins/fed/client.ts";
import { fedPlugin } from "../../plugins/fed/index.ts";
import type { FxPair, FxProvider, IsoDate } from "../../sdk/index.ts";
import { createFakeContext, runFxProviderContract } from "../../sdk/testing/index.ts";
import { fredFailures, startFakeFred } from "../fakes/fred.ts";

// The real plugin code against a local fake of FRED's graph CSV download (test/fakes/fred.ts),
// answering from test/fixtures/fred/ (DEXUSEU, DEXJPUS, DEXUSUK over the weekdays of 2024-01-01..19).

const fake = startFakeFred();
afterAll(() => fake.stop());
afterEach(() => fake.reset());

const pair = (base: string, quote: string) => ({ base, quote }) as FxPair;
const day = (text: string) => text as IsoDate;
const contextFor = (extra: Record<string, unknown> = {}) =>
  createFakeContext({ allowedDestinations: [new URL(fake.url).host], config: FedConfigSchema.parse({ baseUrl: fake.url, ...extra }) });
const provider = async (extra: Record<string, unknown> = {}): Promise<FxProvider> => fedPlugin.create(contextFor(extra));
const FIRST_WEEK = { from: day("2024-01-01"), to: day("2024-01-05") };

runFxProviderContract(fedPlugin, {
  context: contextFor(),
  sample: { ...FIRST_WEEK, pairs: [pair("USD", "EUR"), pair("USD", "JPY"), pair("EUR", "USD")] },
});

describe("configuration", () => {
  test("the real FRED site is the default, with a 10 s timeout", () => {
    expect(FedConfigSchema.parse({})).toEqual({ baseUrl: "https://fred.stlouisfed.org", timeoutMs: 10_000 });
    expect(FedConfigSchema.safeParse({ baseUrl: "ftp://example.com" }).success).toBe(false);
  });

  test("the base is USD and the targets are the 20 H.10 currencies", async () => {
    const fed = await provider();
    expect(fed.baseCurrencies).toEqual(["USD"] as never);
    expect([...fed.targetCurrencies].sort()).toEqual(
      ["AUD", "BRL", "CAD", "CHF", "CNY", "DKK", "EUR", "GBP", "HKD", "INR", "JPY", "KRW", "MXN", "NOK", "NZD", "SEK", "SGD", "THB", "TWD", "ZAR"] as never,
    );
  });
});

describe("rates", () => {
  test("one CSV request per currency of the batch, over the range", async () => {
    await (await provider()).getRates({ ...FIRST_WEEK, pairs: [pair("USD", "EUR"), pair("USD", "JPY"), pair("USD", "EUR")] });
    expect(fake.log.map((entry) => entry.query).sort((a, b) => (a.id! < b.id! ? -1 : 1))).toEqual([
      { coed: "2024-01-05", cosd: "2024-01-01", id: "DEXJPUS" },
      { coed: "2024-01-05", cosd: "2024-01-01", id: "DEXUSEU" },
    ]);
    expect(new Set(fake.log.map((entry) => entry.path))).toEqual(new Set(["/graph/fredgraph.csv"]));
  });

  test("a foreign-per-USD series (DEXJPUS) is the rate as written; holidays marked '.' are absent", async () => {
    const [jpy] = await (await provider()).getRates({ ...FIRST_WEEK, pairs: [pair("USD", "JPY")] });
    expect(jpy).toEqual({
      ok: true,
      value: [
        { date: "2024-01-02", rate: "141.98" }, { date: "2024-01-03", rate: "143.3" },
        { date: "2024-01-04", rate: "144.6" }, { date: "2024-01-05", rate: "144.69" },
      ],
    } as never);
  });

  test("a USD-per-unit series (DEXUSEU) is inverted to 1 USD in EUR, to 34 significant digits", async () => {
    const [eur] = await (await provider()).getRates({ from: day("2024-01-02"), pairs: [pair("USD", "EUR")], to: day("2024-01-03") });
    // 1 / 1.0956 and 1 / 1.0919
    expect(eur).toEqual({
      ok: true,
      value: [
        { date: "2024-01-02", rate: "0.912741876597298284045271997079226" },
        { date: "2024-01-03", rate: "0.9158347834050737247000641084348384" },
      ],
    } as never);
  });

  test("weekends are absent and a holiday with an empty value (DEXUSUK on MLK day) is skipped", async () => {
    const [gbp] = await (await provider()).getRates({ from: day("2024-01-12"), pairs: [pair("USD", "GBP")], to: day("2024-01-16") });
    expect(gbp.ok && gbp.value.map((rate) => rate.date)).toEqual(["2024-01-12", "2024-01-16"] as never);
  });

  test("a range without published days (the header alone) is an empty list", async () => {
    const fed = await provider();
    const [weekend] = await fed.getRates({ from: day("2024-01-06"), pairs: [pair("USD", "EUR")], to: day("2024-01-07") });
    const [holiday] = await fed.getRates({ from: day("2024-01-15"), pairs: [pair("USD", "JPY")], to: day("2024-01-15") });
    expect(weekend).toEqual({ ok: true, value: [] } as never);
    expect(holiday).toEqual({ ok: true, value: [] } as never);
  });

  test("a pair not based on USD, or an unknown target, fails alone with invalid-input and is not requested", async () => {
    const outcomes = await (await provider()).getRates({ ...FIRST_WEEK, pairs: [pair("EUR", "USD"), pair("USD", "PLN"), pair("USD", "JPY")] });
    expect(outcomes.map((o) => (o.ok ? o.value.length : o.error.reason))).toEqual(["invalid-input", "invalid-input", 4] as never);
    expect(fake.log.map((entry) => entry.query.id)).toEqual(["DEXJPUS"]);
  });

  test("from after to fails every pair with invalid-input", async () => {
    const outcomes = await (await provider()).getRates({ from: day("2024-01-05"), pairs: [pair("USD", "EUR")], to: day("2024-01-01") });
    expect(outcomes).toMatchObject([{ error: { reason: "invalid-input" }, ok: false }]);
  });
});

describe("a failing series fails only its own pairs", () => {
  test("a series FRED does not know (404 page) is not-found beside answered pairs", async () => {
    const outcomes = await (await provider()).getRates({ ...FIRST_WEEK, pairs: [pair("USD", "CHF"), pair("USD", "EUR")] });
    expect(outcomes[0]).toMatchObject({ error: { reason: "not-found" }, ok: false });
    expect(outcomes[1]).toMatchObject({ ok: true });
  });

  const failures = [
    ["HTTP 429 is rate-limited (retryable)", fredFailures.rateLimited, "rate-limited", true],
    ["HTTP 500 is unavailable (retryable)", fredFailures.serverError, "unavailable", true],
    ["an HTML page with status 200 is a bad response", fredFailures.htmlPage, "bad-response", false],
    ["a CSV row cut short is a bad response", fredFailures.malformed, "bad-response", false],
    ["no answer within the configured timeout is a timeout", fredFailures.hang, "timeout", true],
  ] as const;

  for (const [rule, handler, reason, retryable] of failures) {
    test(rule, async () => {
      fake.behave({ series: { DEXUSEU: handler } });
      const pairs = [pair("USD", "EUR"), pair("USD", "JPY"), pair("GBP", "USD")];
      const outcomes = await (await provider({ timeoutMs: 150 })).getRates({ ...FIRST_WEEK, pairs });
      expect(outcomes[0]).toMatchObject({ error: { reason, retryable }, ok: false });
      expect(outcomes[1]).toMatchObject({ ok: true });
      expect(outcomes[2]).toMatchObject({ error: { reason: "invalid-input" }, ok: false });
    });
  }

  test("a CSV of another series than the one asked for is a bad response", async () => {
    fake.behave({ series: { DEXJPUS: () => new Response("observation_date,DEXUSEU\n2024-01-02,1.0956\n") } });
    const [jpy] = await (await provider()).getRates({ ...FIRST_WEEK, pairs: [pair("USD", "JPY")] });
    expect(jpy).toMatchObject({ error: { reason: "bad-response" }, ok: false });
  });

  test("a caller's abort rejects instead of answering outcomes", async () => {
    fake.behave({ delayMs: 500 });
    const controller = new AbortController();
    const pending = (await provider()).getRates({ ...FIRST_WEEK, pairs: [pair("USD", "EUR")], signal: controller.signal });
    setTimeout(() => controller.abort(new Error("stop")), 50);
    await expect(pending).rejects.toThrow("stop");
  });
});
