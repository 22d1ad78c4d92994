import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { BoeConfigSchema } from "../../plugins/boe/client.ts";
import { boePlugin } from "../../plugins/boe/index.ts";
import type { FxPair, FxProvider, IsoDate } from "../../sdk/index.ts";
import { createFakeContext, runFxProviderContract } from "../../sdk/testing/index.ts";
import { boeFailures, startFakeBoe } from "../fakes/boe.ts";

// The real plugin code against a local fake of the Bank of England database CSV export
// (test/fakes/boe.ts), answering from test/fixtures/boe/ (early January 2024, London business days).

const fake = startFakeBoe();
afterAll(() => fake.stop());
afterEach(() => fake.reset());

const pair = (base: string, quote: string) => ({ base, quote }) as FxPair;
const day = (text: string) => text as IsoDate;
const contextFor = (extra: Record<string, unknown> = {}) =>
  createFakeContext({ allowedDestinations: [new URL(fake.url).host], config: BoeConfigSchema.parse({ baseUrl: fake.url, ...extra }) });
const provider = async (extra: Record<string, unknown> = {}): Promise<FxProvider> => boePlugin.create(contextFor(extra));
const FIRST_WEEK = { from: day("2024-01-01"), to: day("2024-01-09") };

runFxProviderContract(boePlugin, {
  context: contextFor(),
  sample: { ...FIRST_WEEK, pairs: [pair("GBP", "USD"), pair("GBP", "JPY"), pair("EUR", "USD")] },
});

describe("configuration", () => {
  test("the real site is the default, with a 10 s timeout", () => {
    expect(BoeConfigSchema.parse({})).toEqual({ baseUrl: "https://www.bankofengland.co.uk", timeoutMs: 10_000 });
    expect(BoeConfigSchema.safeParse({ baseUrl: "ftp://example.com" }).success).toBe(false);
  });

  test("the base is GBP and the targets are the 15 published currencies", async () => {
    const boe = await provider();
    expect(boe.baseCurrencies).toEqual(["GBP"] as never);
    expect([...boe.targetCurrencies].sort()).toEqual(
      ["AUD", "CAD", "CHF", "CNY", "DKK", "EUR", "HKD", "INR", "JPY", "NOK", "NZD", "SEK", "SGD", "USD", "ZAR"] as never,
    );
  });
});

describe("rates", () => {
  test("one request carries every series, with the site's date format and CSV options", async () => {
    await (await provider()).getRates({ ...FIRST_WEEK, pairs: [pair("GBP", "USD"), pair("GBP", "EUR"), pair("GBP", "USD")] });
    expect(fake.log).toHaveLength(1);
    expect(fake.log[0]!.path).toBe("/boeapps/database/_iadb-fromshowcolumns.asp");
    expect(fake.log[0]!.rawQuery).toBe(
      "csv.x=yes&Datefrom=01/Jan/2024&Dateto=09/Jan/2024&SeriesCodes=XUDLUSS,XUDLERS&CSVF=TN&UsingCodes=Y&VPD=Y&VFD=N",
    );
  });

  test("rates are units per 1 GBP as decimal strings; the New Year holiday and the weekend are absent", async () => {
    const [usd] = await (await provider()).getRates({ ...FIRST_WEEK, pairs: [pair("GBP", "USD")] });
    expect(usd).toEqual({
      ok: true,
      value: [
        { date: "2024-01-02", rate: "1.2654" },
        { date: "2024-01-03", rate: "1.265" },
        { date: "2024-01-04", rate: "1.2657" },
        { date: "2024-01-05", rate: "1.2653" },
        { date: "2024-01-08", rate: "1.2649" },
        { date: "2024-01-09", rate: "1.2656" },
      ],
    } as never);
  });

  test("a day a series was not published (blank cell) is absent from that series only", async () => {
    const [inr, hkd] = await (await provider()).getRates({
      from: day("2024-01-03"), pairs: [pair("GBP", "INR"), pair("GBP", "HKD")], to: day("2024-01-05"),
    });
    expect(inr.ok && inr.value.map((r) => r.date)).toEqual(["2024-01-03", "2024-01-05"] as never);
    expect(hkd.ok && hkd.value.map((r) => r.date)).toEqual(["2024-01-03", "2024-01-04", "2024-01-05"] as never);
  });

  test("a range without published days (a weekend) is an empty list", async () => {
    const [usd] = await (await provider()).getRates({ from: day("2024-01-06"), pairs: [pair("GBP", "USD")], to: day("2024-01-07") });
    expect(usd).toEqual({ ok: true, value: [] } as never);
  });

  test("a pair not based on GBP, or an unpublished target, fails alone with invalid-input and is not requested", async () => {
    const outcomes = await (await provider()).getRates({
      ...FIRST_WEEK, pairs: [pair("USD", "GBP"), pair("GBP", "BRL"), pair("GBP", "CHF")],
    });
    expect(outcomes.map((o) => (o.ok ? "ok" : o.error.reason))).toEqual(["invalid-input", "invalid-input", "ok"]);
    expect(fake.log[0]!.query.SeriesCodes).toBe("XUDLSFS");
    fake.reset();
    await (await provider()).getRates({ ...FIRST_WEEK, pairs: [pair("EUR", "USD")] });
    expect(fake.log).toHaveLength(0);
  });
});

describe("upstream failures fail every supported pair with the request's reason", () => {
  const failures = [
    ["HTTP 429 is rate-limited (retryable)", boeFailures.rateLimited, "rate-limited", true],
    ["HTTP 500 is unavailable (retryable)", boeFailures.serverError, "unavailable", true],
    ["an HTML page with status 200 is a bad response", boeFailures.htmlPage, "bad-response", false],
    ["a CSV cut short is a bad response", boeFailures.malformed, "bad-response", false],
    ["no answer within the configured timeout is a timeout", boeFailures.hang, "timeout", true],
  ] as const;

  for (const [rule, handler, reason, retryable] of failures) {
    test(rule, async () => {
      fake.behave({ handler });
      const outcomes = await (await provider({ timeoutMs: 150 })).getRates({ ...FIRST_WEEK, pairs: [pair("GBP", "USD"), pair("CHF", "USD")] });
      expect(outcomes[0]).toMatchObject({ error: { reason, retryable }, ok: false });
      expect(outcomes[1]).toMatchObject({ error: { reason: "invalid-input" }, ok: false });
    });
  }

  test("a caller's abort rejects with the caller's reason", async () => {
    fake.behave({ delayMs: 200 });
    const controller = new AbortController();
    const pending = (await provider()).getRates({ ...FIRST_WEEK, pairs: [pair("GBP", "USD")], signal: controller.signal });
    controller.abort(new Error("user went away"));
    await expect(pending).rejects.toThrow("user went away");
  });
});
