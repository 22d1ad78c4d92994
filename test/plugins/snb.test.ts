import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { SnbConfigSchema } from "../../plugins/snb/client.ts";
import { snbPlugin } from "../../plugins/snb/index.ts";
import type { FxPair, FxProvider, IsoDate } from "../../sdk/index.ts";
import { createFakeContext, runFxProviderContract } from "../../sdk/testing/index.ts";
import { snbFailures, startFakeSnb } from "../fakes/snb.ts";

// The real plugin code against a local fake of the SNB data portal's devkum cube CSV
// (test/fakes/snb.ts), answering from test/fixtures/snb/ (months 2023-11 to 2024-03).

const fake = startFakeSnb();
afterAll(() => fake.stop());
afterEach(() => fake.reset());

const pair = (base: string, quote: string) => ({ base, quote }) as FxPair;
const day = (text: string) => text as IsoDate;
const contextFor = (extra: Record<string, unknown> = {}) =>
  createFakeContext({ allowedDestinations: [new URL(fake.url).host], config: SnbConfigSchema.parse({ baseUrl: fake.url, ...extra }) });
const provider = async (extra: Record<string, unknown> = {}): Promise<FxProvider> => snbPlugin.create(contextFor(extra));
const WINTER = { from: day("2023-12-15"), to: day("2024-02-29") };

runFxProviderContract(snbPlugin, {
  context: contextFor(),
  sample: { ...WINTER, pairs: [pair("CHF", "EUR"), pair("CHF", "JPY"), pair("EUR", "CHF")] },
});

describe("configuration", () => {
  test("the real portal is the default, with a 10 s timeout", () => {
    expect(SnbConfigSchema.parse({})).toEqual({ baseUrl: "https://data.snb.ch", timeoutMs: 10_000 });
  });

  test("the base is CHF and the targets are the 10 currencies of the cube", async () => {
    const snb = await provider();
    expect(snb.baseCurrencies).toEqual(["CHF"] as never);
    expect([...snb.targetCurrencies].sort()).toEqual(["AUD", "CAD", "CNY", "DKK", "EUR", "GBP", "JPY", "NOK", "SEK", "USD"] as never);
  });
});

describe("rates", () => {
  test("one request asks for the months of the range, for every pair", async () => {
    await (await provider()).getRates({ ...WINTER, pairs: [pair("CHF", "EUR"), pair("CHF", "USD")] });
    expect(fake.log).toEqual([{ path: "/api/cube/devkum/data/csv/en", query: { fromDate: "2023-12", toDate: "2024-02" } }]);
  });

  test("month-end values are inverted to 1 CHF in the currency, dated on the last day of their month", async () => {
    const [eur] = await (await provider()).getRates({ ...WINTER, pairs: [pair("CHF", "EUR")] });
    // 1 / 0.9383 (2024-01 month end) to 34 significant digits
    expect(eur.ok && eur.value.map((r) => r.date)).toEqual(["2023-12-31", "2024-01-31", "2024-02-29"] as never);
    expect(eur.ok && eur.value[1]).toEqual({ date: "2024-01-31", rate: "1.065757220505168922519450069274219" } as never);
  });

  test("a per-100 quote (JPY100) is brought to one unit exactly", async () => {
    const [jpy] = await (await provider()).getRates({ from: day("2024-01-01"), pairs: [pair("CHF", "JPY")], to: day("2024-01-31") });
    expect(jpy).toEqual({ ok: true, value: [{ date: "2024-01-31", rate: "171.057133082449538145740677386247" }] } as never);
  });

  test("a month without a month-end value falls back to its monthly average", async () => {
    const [gbp] = await (await provider()).getRates({ from: day("2024-03-01"), pairs: [pair("CHF", "GBP")], to: day("2024-03-31") });
    expect(gbp).toEqual({ ok: true, value: [{ date: "2024-03-31", rate: "0.9134088417975886006576543660942638" }] } as never);
  });

  test("a range holding no month end, or months not yet published, is an empty list", async () => {
    const snb = await provider();
    const [mid] = await snb.getRates({ from: day("2024-01-05"), pairs: [pair("CHF", "USD")], to: day("2024-01-20") });
    const [future] = await snb.getRates({ from: day("2025-01-01"), pairs: [pair("CHF", "USD")], to: day("2025-03-31") });
    expect(mid).toEqual({ ok: true, value: [] } as never);
    expect(future).toEqual({ ok: true, value: [] } as never);
  });

  test("a pair not based on CHF, or an unknown target, fails alone with invalid-input", async () => {
    const outcomes = await (await provider()).getRates({ ...WINTER, pairs: [pair("EUR", "CHF"), pair("CHF", "BRL"), pair("CHF", "SEK")] });
    expect(outcomes.map((o) => (o.ok ? o.value.length : o.error.reason))).toEqual(["invalid-input", "invalid-input", 3] as never);
  });
});

describe("upstream failures fail every supported pair with the request's reason", () => {
  const failures = [
    ["HTTP 429 is rate-limited (retryable)", snbFailures.rateLimited, "rate-limited", true],
    ["HTTP 500 is unavailable (retryable)", snbFailures.serverError, "unavailable", true],
    ["an HTML page with status 200 is a bad response", snbFailures.htmlPage, "bad-response", false],
    ["a CSV row cut short is a bad response", snbFailures.malformed, "bad-response", false],
    ["no answer within the configured timeout is a timeout", snbFailures.hang, "timeout", true],
  ] as const;

  for (const [rule, handler, reason, retryable] of failures) {
    test(rule, async () => {
      fake.behave({ handler });
      const outcomes = await (await provider({ timeoutMs: 150 })).getRates({ ...WINTER, pairs: [pair("CHF", "EUR"), pair("USD", "CHF")] });
      expect(outcomes[0]).toMatchObject({ error: { reason, retryable }, ok: false });
      expect(outcomes[1]).toMatchObject({ error: { reason: "invalid-input" }, ok: false });
    });
  }
});
