import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { DEFAULT_USER_AGENT, MAX_CONCURRENT_QUOTES, YfinanceConfigSchema } from "../../plugins/yfinance/client.ts";
import { yfinancePlugin } from "../../plugins/yfinance/index.ts";
import type { IsoDateRange, QuoteProvider } from "../../sdk/index.ts";
import { createFakeContext, runQuoteProviderContract } from "../../sdk/testing/index.ts";
import { startFakeYahoo, yahooFailures } from "../fakes/yahoo.ts";

// The real plugin code against a local fake of Yahoo's chart and search APIs (test/fakes/yahoo.ts),
// answering recorded-shape payloads from test/fixtures/yahoo/.

const fake = startFakeYahoo();
afterAll(() => fake.stop());
afterEach(() => fake.reset());

const range = (from: string, to: string) => ({ from, to }) as IsoDateRange;
const AUGUST_2020 = range("2020-08-03", "2020-09-04");

function contextFor(extra: Record<string, unknown> = {}) {
  return createFakeContext({ allowedDestinations: [new URL(fake.url).host], config: YfinanceConfigSchema.parse({ baseUrl: fake.url, searchBaseUrl: fake.url, ...extra }) });
}

async function provider(extra: Record<string, unknown> = {}): Promise<QuoteProvider> {
  return yfinancePlugin.create(contextFor(extra));
}

runQuoteProviderContract(yfinancePlugin, {
  context: contextFor(),
  sample: { identifiers: ["AAPL", "NOPE", "VOD.L"], query: "apple", range: AUGUST_2020 },
});

describe("configuration", () => {
  test("the real Yahoo hosts are the defaults, with a 10 s timeout", () => {
    expect(YfinanceConfigSchema.parse({})).toEqual({
      baseUrl: "https://query1.finance.yahoo.com",
      searchBaseUrl: "https://query2.finance.yahoo.com",
      timeoutMs: 10_000,
    });
    expect(YfinanceConfigSchema.safeParse({ baseUrl: "ftp://example.com" }).success).toBe(false);
  });

  test("identifiers are tickers and the page is Yahoo's quote page", async () => {
    const yahoo = await provider();
    await expect(yahoo.identifierType).toBe("TICKER");
    await expect(yahoo.pageUrl!("AAPL")).toBe("https://finance.yahoo.com/quote/AAPL");
    await expect(yahoo.pageUrl!("^GSPC")).toBe("https://finance.yahoo.com/quote/%5EGSPC");
  });

  test("requests carry the configured user agent, else a browser's", async () => {
    await (await provider({ userAgent: "portfolio-tracker-test/1.0" })).getQuotes({ identifiers: ["AAPL"] });
    await (await provider()).getQuotes({ identifiers: ["VOD.L"] });
    expect(fake.chartRequests("AAPL")[0]!.userAgent).toBe("portfolio-tracker-test/1.0");
    expect(fake.chartRequests("VOD.L")[0]!.userAgent).toBe(DEFAULT_USER_AGENT);
  });
});

describe("history", () => {
  test("daily OHLCV arrives as decimal strings, free of Yahoo's single-precision artefacts", async () => {
    const points = await (await provider()).getHistory({ identifier: "AAPL", range: range("2020-08-05", "2020-08-07") });
    expect(points).toEqual([
      { close: "110.0625", date: "2020-08-05", high: "111.94", low: "108.74", open: "110.72", volume: "121776800" },
      { close: "113.9025", date: "2020-08-06", high: "115.16", low: "111.63", open: "112.99", volume: "202428800" },
      { close: "111.1125", date: "2020-08-07", high: "113.01", low: "109.78", open: "111.78", volume: "198045600" },
    ] as never);
  });

  test("a day whose indicators are null is absent, and a null open is left out", async () => {
    const points = await (await provider()).getHistory({ identifier: "AAPL", range: range("2020-08-11", "2020-08-13") });
    expect(points.map((p) => p.date)).toEqual(["2020-08-11", "2020-08-13"] as never);
    expect(points[1]).toEqual({ close: "115.01", date: "2020-08-13", high: "116.97", low: "113.63", volume: "210082000" } as never);
  });

  test("the request covers the range with a day's margin before and two after, and the answer stays inside it", async () => {
    const points = await (await provider()).getHistory({ identifier: "AAPL", range: range("2020-08-10", "2020-08-14") });
    expect(fake.chartRequests("AAPL")[0]!.query).toEqual({
      events: "div,splits",
      interval: "1d",
      period1: String(Date.parse("2020-08-09T00:00:00Z") / 1000),
      period2: String(Date.parse("2020-08-16T00:00:00Z") / 1000),
    });
    expect(points.map((p) => p.date)).toEqual(["2020-08-10", "2020-08-11", "2020-08-13", "2020-08-14"] as never);
  });

  test("dates are the exchange's market days: Sydney bars stamped 23:00 UTC belong to the next day", async () => {
    const points = await (await provider()).getHistory({ identifier: "CBA.AX", range: range("2024-02-14", "2024-02-23") });
    expect(points.map((p) => p.date)).toEqual(
      ["2024-02-14", "2024-02-15", "2024-02-16", "2024-02-19", "2024-02-20", "2024-02-21", "2024-02-22", "2024-02-23"] as never,
    );
    expect(points.at(-1)).toMatchObject({ close: "118.68", date: "2024-02-23" }); // the live bar replaces the day's bar
  });

  test("a window without trading (Yahoo sends no timestamp) is an empty history with no events", async () => {
    const yahoo = await provider();
    expect(await yahoo.getHistory({ identifier: "AAPL", range: range("2019-01-01", "2019-01-10") })).toEqual([]);
    expect(await yahoo.getEvents!({ identifier: "AAPL", range: range("2019-01-01", "2019-01-10") })).toEqual([]);
  });
});

describe("events", () => {
  test("a dividend is a per-share DIVIDEND in the quote currency and a 4:1 split is a SPLIT of value 4", async () => {
    const events = await (await provider()).getEvents!({ identifier: "AAPL", range: AUGUST_2020 });
    expect(events).toEqual([
      { currency: "USD", date: "2020-08-07", type: "DIVIDEND", value: "0.205" },
      { date: "2020-08-31", type: "SPLIT", value: "4" },
    ] as never);
  });

  test("a dividend sent as 2.1500000000000004 is 2.15, dated on the Sydney market day", async () => {
    const events = await (await provider()).getEvents!({ identifier: "CBA.AX", range: range("2024-02-14", "2024-02-23") });
    expect(events).toEqual([{ currency: "AUD", date: "2024-02-21", type: "DIVIDEND", value: "2.15" }] as never);
  });
});

describe("quotes", () => {
  test("a quote is regularMarketPrice on the market day of regularMarketTime", async () => {
    const [aapl] = await (await provider()).getQuotes({ identifiers: ["AAPL"] });
    expect(aapl).toEqual({ ok: true, value: { currency: "USD", date: "2024-01-02", price: "185.64" } } as never);
    expect(fake.chartRequests("AAPL")[0]!.query).toEqual({ interval: "1d", range: "1d" });
  });

  test("a price in pence (GBp, sent as 69.86000000000001) is quoted in pounds", async () => {
    const [vod] = await (await provider()).getQuotes({ identifiers: ["VOD.L"] });
    expect(vod).toEqual({ ok: true, value: { currency: "GBP", date: "2024-01-02", price: "0.6986" } } as never);
  });

  test("one outcome per identifier in request order; an unknown symbol fails alone; repeats are fetched once", async () => {
    const outcomes = await (await provider()).getQuotes({ identifiers: ["AAPL", "NOPE", "VOD.L", "AAPL"] });
    expect(outcomes.map((o) => (o.ok ? o.value.price : o.error.reason))).toEqual(["185.64", "not-found", "0.6986", "185.64"] as never);
    expect(outcomes[1]).toMatchObject({ error: { message: expect.stringContaining('"NOPE"'), retryable: false } });
    expect(fake.chartRequests("AAPL")).toHaveLength(1);
  });

  test(`never more than ${MAX_CONCURRENT_QUOTES} chart requests are in flight at once`, async () => {
    fake.behave({ delayMs: 40 });
    const identifiers = ["AAPL", "VOD.L", "CBA.AX", ...Array.from({ length: 9 }, (_, i) => `MISSING${i}`)];
    const outcomes = await (await provider()).getQuotes({ identifiers });
    expect(outcomes).toHaveLength(12);
    expect(fake.log).toHaveLength(12);
    expect(fake.maxInFlight).toBe(MAX_CONCURRENT_QUOTES);
  });

  test("metadata is the name, the currency and the asset type from the quote type", async () => {
    const yahoo = await provider();
    expect(await yahoo.getMetadata!({ identifier: "AAPL" })).toEqual({ assetType: "STOCK", currency: "USD", name: "Apple Inc." } as never);
    expect(await yahoo.getMetadata!({ identifier: "VOD.L" })).toMatchObject({ currency: "GBP", name: "Vodafone Group Public Limited Company" });
  });
});

describe("upstream failures become PluginErrors", () => {
  const failures = [
    ["HTTP 429 is rate-limited (retryable)", yahooFailures.rateLimited, "rate-limited", true],
    ["HTTP 500 is unavailable (retryable)", yahooFailures.serverError, "unavailable", true],
    ["a body that isn't JSON is a bad response", yahooFailures.malformed, "bad-response", false],
    ["JSON of another shape is a bad response", yahooFailures.unexpectedShape, "bad-response", false],
    ["no answer within the configured timeout is a timeout", yahooFailures.hang, "timeout", true],
  ] as const;

  for (const [rule, answer, reason, retryable] of failures) {
    test(`${rule}: getQuotes fails that symbol only, single calls throw`, async () => {
      fake.behave({ search: answer, symbols: { AAPL: answer } });
      const yahoo = await provider({ timeoutMs: 150 });
      const [aapl, vod] = await yahoo.getQuotes({ identifiers: ["AAPL", "VOD.L"] });
      expect(aapl).toMatchObject({ error: { reason, retryable }, ok: false });
      expect(vod).toMatchObject({ ok: true, value: { price: "0.6986" } });
      await expect(yahoo.getHistory({ identifier: "AAPL", range: AUGUST_2020 })).rejects.toMatchObject({ name: "PluginError", reason });
      await expect(yahoo.search({ query: "apple" })).rejects.toMatchObject({ name: "PluginError", reason });
    });
  }

  test("HTTP 404 with Yahoo's Not Found body is not-found for every call", async () => {
    const yahoo = await provider();
    await expect(yahoo.getHistory({ identifier: "NOPE", range: AUGUST_2020 })).rejects.toMatchObject({ reason: "not-found" });
    await expect(yahoo.getEvents!({ identifier: "NOPE", range: AUGUST_2020 })).rejects.toMatchObject({ reason: "not-found" });
    await expect(yahoo.getMetadata!({ identifier: "NOPE" })).rejects.toMatchObject({ reason: "not-found" });
  });

  test("an empty ticker is invalid input and reaches no upstream", async () => {
    const yahoo = await provider();
    const [blank] = await yahoo.getQuotes({ identifiers: [" "] });
    expect(blank).toMatchObject({ error: { reason: "invalid-input" }, ok: false });
    expect(await yahoo.search({ query: "  " })).toEqual([]);
    expect(fake.log).toHaveLength(0);
  });

  test("a caller's abort cancels the call with the caller's reason", async () => {
    fake.behave({ delayMs: 200 });
    const controller = new AbortController();
    const pending = (await provider()).getHistory({ identifier: "AAPL", range: AUGUST_2020, signal: controller.signal });
    controller.abort(new Error("user went away"));
    await expect(pending).rejects.toThrow("user went away");
  });
});

describe("search", () => {
  test("hits are Yahoo's quotes in order, by symbol and name, without entries outside Yahoo Finance", async () => {
    const hits = await (await provider()).search({ query: "apple" });
    expect(hits).toEqual([
      { identifier: "AAPL", name: "Apple Inc." },
      { identifier: "APC.DE", name: "APPLE INC" },
      { identifier: "APLE", name: "Apple Hospitality REIT, Inc." },
      { identifier: "AAPL.NE", name: "Apple Inc." },
    ]);
    // find it rather than take log[0]: an aborted request of the previous test may reach the fake late
    expect(fake.log.find((e) => e.path === "/v1/finance/search")).toMatchObject({ query: { newsCount: "0", q: "apple", quotesCount: "10" } });
  });

  test("a query without matches is an empty list", async () => {
    expect(await (await provider()).search({ query: "zzzz no such thing" })).toEqual([]);
  });
});
