import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { ConfigSchema, DEFAULT_USER_AGENT } from "../../plugins/justetf/client.ts";
import { justetfPlugin } from "../../plugins/justetf/index.ts";
import type { IsoDateRange, PluginError, QuoteProvider } from "../../sdk/index.ts";
import { createFakeContext, runQuoteProviderContract } from "../../sdk/testing/index.ts";
import { RECORDED_ISIN, startFakeJustEtf } from "../fakes/justetf.ts";

const fake = startFakeJustEtf();
afterAll(() => fake.stop());
afterEach(() => fake.reset());

const NOW = "2024-01-02T18:00:00Z";
const contextWith = (config: Record<string, unknown> = {}) =>
  createFakeContext({ allowedDestinations: [new URL(fake.url).host], config: ConfigSchema.parse({ baseUrl: fake.url, ...config }), now: NOW });
const provider = (config: Record<string, unknown> = {}) => justetfPlugin.create(contextWith(config)) as QuoteProvider;
const range = (from: string, to: string) => ({ from, to }) as IsoDateRange;
const rejection = (promise: Promise<unknown>) => promise.then(() => null, (error: PluginError) => error);
const delayed = (ms: number) => async () => (await Bun.sleep(ms), Response.json({}));

runQuoteProviderContract(justetfPlugin, {
  context: contextWith(),
  sample: { identifiers: [RECORDED_ISIN, "IE00BK5BQT80"], query: "msci world", range: range("2023-12-21", "2023-12-29") },
});

describe("justetf: configuration", () => {
  test("the real host is the default, with a 10 s timeout", () => {
    expect(ConfigSchema.parse({})).toEqual({ baseUrl: "https://www.justetf.com", timeoutMs: 10_000 });
    expect(ConfigSchema.safeParse({ baseUrl: "ftp://example.com" }).success).toBe(false);
  });

  test("requests carry the configured user agent, else a browser's", async () => {
    await provider({ userAgent: "portfolio-tracker-test/1.0" }).getQuotes({ identifiers: [RECORDED_ISIN] });
    await provider().search({ query: "world" });
    expect(fake.log.map((request) => request.headers.get("user-agent"))).toEqual(["portfolio-tracker-test/1.0", DEFAULT_USER_AGENT]);
  });
});

describe("justetf: latest quote", () => {
  test("the quote is latestQuote on latestQuoteDate, an exact decimal in EUR by default", async () => {
    const [outcome] = await provider().getQuotes({ identifiers: [RECORDED_ISIN] });
    expect<unknown>(outcome).toEqual({ ok: true, value: { currency: "EUR", date: "2024-01-02", price: "85.45" } });
    const request = fake.log[0]!;
    expect(request.path).toBe(`/api/etfs/${RECORDED_ISIN}/performance-chart`);
    expect(Object.fromEntries(request.query)).toEqual({
      currency: "EUR", dateFrom: "2023-12-23", dateTo: "2024-01-02", includeDividends: "false", locale: "en",
      reduceData: "false", valuesType: "MARKET_VALUE",
    });
  });

  test("the currency param asks justETF for prices in that currency", async () => {
    const [outcome] = await provider().getQuotes({ identifiers: [RECORDED_ISIN], providerParams: { [RECORDED_ISIN]: { currency: "USD" } } });
    expect<unknown>(outcome).toEqual({ ok: true, value: { currency: "USD", date: "2024-01-02", price: "93.48" } });
    expect(fake.log[0]!.query.get("currency")).toBe("USD");
  });

  test("identifiers are normalised to upper case before the request", async () => {
    const [outcome] = await provider().getQuotes({ identifiers: [` ${RECORDED_ISIN.toLowerCase()} `] });
    expect(outcome!.ok).toBe(true);
  });

  test("one outcome per identifier in request order; a bad one never sinks the batch", async () => {
    const outcomes = await provider().getQuotes({ identifiers: ["IE00BK5BQT80", RECORDED_ISIN, "not-an-isin"] });
    expect(outcomes.map((o) => (o.ok ? String(o.value.price) : o.error.reason))).toEqual(["not-found", "85.45", "invalid-input"]);
  });

  test("a batch keeps at most five requests in flight", async () => {
    fake.override("/api/etfs/", async (request) => {
      await Bun.sleep(30);
      return Response.json({ latestQuote: { raw: 1.5 }, latestQuoteDate: "2024-01-02", series: [], url: request.url });
    });
    const outcomes = await provider().getQuotes({ identifiers: Array.from({ length: 10 }, () => RECORDED_ISIN) });
    expect(outcomes.every((o) => o.ok)).toBe(true);
    expect(fake.maxInFlight).toBe(5);
  });
});

describe("justetf: failures become per-identifier outcomes with the right reason", () => {
  const reasonFor = async (handler: () => Response | Promise<Response>, config: Record<string, unknown> = {}) => {
    fake.override("/api/etfs/", handler);
    const [outcome] = await provider(config).getQuotes({ identifiers: [RECORDED_ISIN] });
    return outcome!.ok ? "ok" : outcome!.error.reason;
  };

  test("HTTP 429 is rate-limited", async () => {
    expect(await reasonFor(() => new Response("slow down", { status: 429 }))).toBe("rate-limited");
  });

  test("HTTP 404 (unknown ISIN) is not-found", async () => {
    const [outcome] = await provider().getQuotes({ identifiers: ["IE00BK5BQT80"] });
    expect(outcome).toMatchObject({ error: { reason: "not-found", retryable: false }, ok: false });
  });

  test("HTTP 5xx is unavailable and retryable", async () => {
    expect(await reasonFor(() => new Response("oops", { status: 503 }))).toBe("unavailable");
  });

  test("a body that is not JSON, or JSON of another shape, is bad-response", async () => {
    expect(await reasonFor(() => new Response("<html>maintenance</html>"))).toBe("bad-response");
    expect(await reasonFor(() => Response.json({ series: [{ date: "2024-01-02", value: { raw: "85,45" } }] }))).toBe("bad-response");
    expect(await reasonFor(() => Response.json({ latestQuote: { raw: 1 }, latestQuoteDate: "02.01.2024", series: [] }))).toBe("bad-response");
  });

  test("a chart without a latest quote is not-found", async () => {
    expect(await reasonFor(() => Response.json({ latestQuote: null, series: [] }))).toBe("not-found");
  });

  test("no answer within the configured timeoutMs is timeout", async () => {
    const started = Date.now();
    expect(await reasonFor(delayed(1000), { timeoutMs: 100 })).toBe("timeout");
    expect(Date.now() - started).toBeLessThan(900);
  });
});

describe("justetf: history", () => {
  test("history is the chart series inside the range, oldest first, as exact decimals", async () => {
    const points = await provider().getHistory({ identifier: RECORDED_ISIN, range: range("2023-12-21", "2023-12-28") });
    expect<unknown>(points).toEqual([
      { close: "85.93", date: "2023-12-21" },
      { close: "86.12", date: "2023-12-22" },
      { close: "86.4", date: "2023-12-27" },
      { close: "86.105", date: "2023-12-28" },
    ]);
    expect([fake.log[0]!.query.get("dateFrom"), fake.log[0]!.query.get("dateTo")]).toEqual(["2023-12-21", "2023-12-28"]);
  });

  test("points outside the range, duplicates and unordered days are cleaned up", async () => {
    const value = (raw: number) => ({ localized: String(raw), raw });
    fake.override("/api/etfs/", () =>
      Response.json({ series: [
        { date: "2023-12-29", value: value(3) }, { date: "2023-12-27", value: value(1) },
        { date: "2023-12-29", value: value(4) }, { date: "2024-01-05", value: value(9) },
      ] }),
    );
    const points = await provider().getHistory({ identifier: RECORDED_ISIN, range: range("2023-12-27", "2023-12-31") });
    expect<unknown>(points).toEqual([{ close: "1", date: "2023-12-27" }, { close: "4", date: "2023-12-29" }]);
  });

  test("the currency param applies to history too", async () => {
    const points = await provider().getHistory({
      identifier: RECORDED_ISIN, providerParams: { currency: "USD" }, range: range("2024-01-02", "2024-01-02"),
    });
    expect<unknown>(points).toEqual([{ close: "93.48", date: "2024-01-02" }]);
  });

  test("history failures throw a PluginError with the reason", async () => {
    fake.override("/api/etfs/", () => new Response("", { status: 500 }));
    const error = await rejection(provider().getHistory({ identifier: RECORDED_ISIN, range: range("2023-12-21", "2023-12-28") }));
    expect([error?.name, error?.reason]).toEqual(["PluginError", "unavailable"]);
  });
});

describe("justetf: parameters", () => {
  test("paramsSchema defaults currency to EUR and accepts only EUR, USD, CHF and GBP", () => {
    const schema = (provider().paramsSchema)!;
    expect(schema.parse({})).toEqual({ currency: "EUR" });
    expect(schema.parse({ currency: "CHF" })).toEqual({ currency: "CHF" });
    expect(schema.safeParse({ currency: "JPY" }).success).toBe(false);
  });

  test("invalid params are an invalid-input outcome, and no request is made", async () => {
    const [outcome] = await provider().getQuotes({ identifiers: [RECORDED_ISIN], providerParams: { [RECORDED_ISIN]: { currency: "usd" } } });
    expect(outcome).toMatchObject({ error: { reason: "invalid-input" }, ok: false });
    expect(fake.log).toHaveLength(0);
  });
});

describe("justetf: search, metadata, page", () => {
  test("search posts the query to the ETF screener and returns ISIN hits", async () => {
    const hits = await provider().search({ query: "msci world" });
    expect<unknown>(hits).toEqual([
      { identifier: "IE00B4L5Y983", name: "iShares Core MSCI World UCITS ETF USD (Acc)" },
      { identifier: "LU0274208692", name: "Xtrackers MSCI World UCITS ETF 1C" },
    ]);
    const form = new URLSearchParams(fake.log[0]!.body);
    expect([fake.log[0]!.method, fake.log[0]!.path, form.get("etfsParams"), form.get("lang")]).toEqual([
      "POST", "/servlet/etfs-table", "query=msci+world", "en",
    ]);
  });

  test("a blank search makes no request", async () => {
    expect(await provider().search({ query: "  " })).toEqual([]);
    expect(fake.log).toHaveLength(0);
  });

  test("metadata gives the ETF's name and the currency its prices come in", async () => {
    const metadata = await provider().getMetadata!({ identifier: RECORDED_ISIN, providerParams: { currency: "GBP" } });
    expect<unknown>(metadata).toEqual({ currency: "GBP", name: "iShares Core MSCI World UCITS ETF USD (Acc)" });
    expect(fake.log[0]!.query.get("currency")).toBe("GBP");
  });

  test("metadata of an ISIN justETF does not know is not-found", async () => {
    expect((await rejection(provider().getMetadata!({ identifier: "IE00BK5BQT80" })))?.reason).toBe("not-found");
  });

  test("pageUrl is the justETF profile page and the identifier type is ISIN", () => {
    const instance = provider();
    expect(instance.pageUrl!(RECORDED_ISIN)).toBe("https://www.justetf.com/en/etf-profile.html?isin=IE00B4L5Y983");
    expect(instance.identifierType).toBe("ISIN");
  });
});
