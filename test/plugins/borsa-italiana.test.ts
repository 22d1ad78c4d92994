import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { ConfigSchema, DEFAULT_USER_AGENT } from "../../plugins/borsa-italiana/client.ts";
import { borsaItalianaPlugin } from "../../plugins/borsa-italiana/index.ts";
import type { IsoDateRange, PluginError, QuoteProvider } from "../../sdk/index.ts";
import { createFakeContext, runQuoteProviderContract } from "../../sdk/testing/index.ts";
import { RECORDED_COOKIES, RECORDED_ISIN, RECORDED_TOKEN, startFakeBorsaItaliana } from "../fakes/borsa-italiana.ts";

// The real plugin code against a local fake of the site and its chart API (test/fakes/borsa-italiana.ts).

const fake = startFakeBorsaItaliana();
afterAll(() => fake.stop());
afterEach(() => fake.reset());

const UNKNOWN_ISIN = "IT0000000001";
const PRICELESS_ISIN = "IT0000000002";
const HISTORY_PATH = `/api/instruments/${RECORDED_ISIN},XMIL,ISIN/history/period`;
const contextWith = (config: Record<string, unknown> = {}) =>
  createFakeContext({ allowedDestinations: [new URL(fake.url).host], config: ConfigSchema.parse({ baseUrl: fake.url, chartsBaseUrl: fake.url, ...config }), now: "2024-01-02T16:00:00Z" });
const provider = (config: Record<string, unknown> = {}) => borsaItalianaPlugin.create(contextWith(config)) as QuoteProvider;
const range = (from: string, to: string) => ({ from, to }) as IsoDateRange;
const rejection = (promise: Promise<unknown>) => promise.then(() => null, (error: PluginError) => error);

runQuoteProviderContract(borsaItalianaPlugin, {
  context: contextWith(),
  sample: { identifiers: [RECORDED_ISIN, UNKNOWN_ISIN], query: "enel", range: range("2023-12-11", "2023-12-22") },
});

describe("borsa_italiana: configuration", () => {
  test("the real hosts are the defaults, with a 10 s timeout", () => {
    expect(ConfigSchema.parse({})).toEqual({
      baseUrl: "https://www.borsaitaliana.it",
      chartsBaseUrl: "https://grafici.borsaitaliana.it",
      timeoutMs: 10_000,
    });
    expect(ConfigSchema.safeParse({ chartsBaseUrl: "ftp://example.com" }).success).toBe(false);
  });

  test("paramsSchema takes language en or it, default en", () => {
    const schema = provider().paramsSchema!;
    expect([schema.parse({}), schema.parse({ language: "it" })]).toEqual([{ language: "en" }, { language: "it" }]);
    expect(schema.safeParse({ language: "fr" }).success).toBe(false);
  });

  test("identifiers are ISINs and the page is the site's instrument page", () => {
    const instance = provider();
    expect(instance.identifierType).toBe("ISIN");
    expect(instance.pageUrl!(RECORDED_ISIN)).toBe("https://www.borsaitaliana.it/borsa/search/scheda.html?code=IT0003128367&lang=en");
  });
});

describe("borsa_italiana: latest quote", () => {
  test("the quote is the last price of the latest day the chart API knows, an exact decimal in EUR", async () => {
    const [outcome] = await provider().getQuotes({ identifiers: [RECORDED_ISIN] });
    expect<unknown>(outcome).toEqual({ ok: true, value: { currency: "EUR", date: "2024-01-02", price: "6.782" } });
    const [request] = fake.requests("/api/");
    expect(request!.path).toBe(HISTORY_PATH);
    expect(Object.fromEntries(request!.query)).toEqual({ "add-last-price": "true", adjustment: "true", period: "1M" });
  });

  test("the chart API is called with the page's token, its cookies and a browser's user agent", async () => {
    await provider().getQuotes({ identifiers: [RECORDED_ISIN] });
    const headers = fake.requests("/api/")[0]!.headers;
    expect(headers.get("authorization")).toBe(`Bearer ${RECORDED_TOKEN}`);
    expect(headers.get("cookie")).toBe(RECORDED_COOKIES);
    expect(headers.get("user-agent")).toBe(DEFAULT_USER_AGENT);
  });

  test("the token is fetched once and shared by a batch and later calls", async () => {
    const instance = provider();
    await instance.getQuotes({ identifiers: [RECORDED_ISIN, RECORDED_ISIN, RECORDED_ISIN] });
    await instance.getHistory({ identifier: RECORDED_ISIN, range: range("2023-12-27", "2023-12-29") });
    expect([fake.requests("/interactive-chart/").length, fake.requests("/api/").length]).toEqual([1, 4]);
  });

  test("a revoked token is replaced once and the request repeated", async () => {
    const instance = provider();
    await instance.getQuotes({ identifiers: [RECORDED_ISIN] });
    fake.rotateToken();
    const [outcome] = await instance.getQuotes({ identifiers: [RECORDED_ISIN] });
    expect(outcome!.ok).toBe(true);
    expect(fake.requests("/interactive-chart/")).toHaveLength(2);
    expect(fake.requests("/api/").at(-1)!.headers.get("authorization")).toBe(`Bearer ${fake.token}`);
  });

  test("a token refused even when fresh is bad-response, after a single renewal", async () => {
    fake.override("/api/", () => Response.json({ error: "Unauthorized" }, { status: 401 }));
    const [outcome] = await provider().getQuotes({ identifiers: [RECORDED_ISIN] });
    expect(outcome).toMatchObject({ error: { reason: "bad-response" }, ok: false });
    expect([fake.requests("/interactive-chart/").length, fake.requests("/api/").length]).toEqual([2, 2]);
  });

  test("an ISIN the chart API does not know (no transco) is not-found; so is one without any price", async () => {
    fake.override(`/api/instruments/${PRICELESS_ISIN}`, () => Response.json({ history: { historyDt: [] }, transco: { code: PRICELESS_ISIN } }));
    const outcomes = await provider().getQuotes({ identifiers: [UNKNOWN_ISIN, PRICELESS_ISIN] });
    expect(outcomes.map((o) => !o.ok && o.error.reason)).toEqual(["not-found", "not-found"]);
  });

  test("the currency of the answer wins over EUR when it gives one", async () => {
    fake.override("/api/", () =>
      Response.json({ history: { currency: "USD", historyDt: [{ closePx: 98.15, dt: "20240102", lastPx: 98.2 }] }, transco: { code: "US912810TU25" } }),
    );
    const [outcome] = await provider().getQuotes({ identifiers: ["US912810TU25"] });
    expect<unknown>(outcome).toEqual({ ok: true, value: { currency: "USD", date: "2024-01-02", price: "98.2" } });
  });

  test("one outcome per identifier in order, at most five requests in flight", async () => {
    const identifiers = [...Array.from({ length: 9 }, () => RECORDED_ISIN), "not-an-isin"];
    const outcomes = await provider().getQuotes({ identifiers });
    expect(outcomes.map((o) => (o.ok ? "ok" : o.error.reason))).toEqual([...Array(9).fill("ok"), "invalid-input"]);
    expect(fake.maxInFlight).toBeLessThanOrEqual(5);
  });

  test("invalid params are an invalid-input outcome", async () => {
    const [outcome] = await provider().getQuotes({ identifiers: [RECORDED_ISIN], providerParams: { [RECORDED_ISIN]: { language: "de" } } });
    expect(outcome).toMatchObject({ error: { reason: "invalid-input" }, ok: false });
  });
});

describe("borsa_italiana: failures become per-identifier outcomes with the right reason", () => {
  const reasonFor = async (handler: () => Response | Promise<Response>, config: Record<string, unknown> = {}) => {
    fake.override("/api/", handler);
    const [outcome] = await provider(config).getQuotes({ identifiers: [RECORDED_ISIN] });
    return outcome!.ok ? "ok" : outcome!.error.reason;
  };

  test("HTTP 429, and the firewall's 403, are rate-limited", async () => {
    expect(await reasonFor(() => new Response("", { status: 429 }))).toBe("rate-limited");
    expect(await reasonFor(() => new Response("<html>Access denied</html>", { status: 403 }))).toBe("rate-limited");
  });

  test("HTTP 404 is not-found", async () => {
    expect(await reasonFor(() => new Response("", { status: 404 }))).toBe("not-found");
  });

  test("HTTP 5xx is unavailable", async () => {
    expect(await reasonFor(() => new Response("", { status: 502 }))).toBe("unavailable");
  });

  test("a body that is not JSON, or JSON of another shape, is bad-response", async () => {
    expect(await reasonFor(() => new Response("<html>Incapsula incident</html>"))).toBe("bad-response");
    expect(await reasonFor(() => Response.json({ history: { historyDt: [{ closePx: "6,78", dt: "20240102" }] }, transco: { code: "x" } }))).toBe("bad-response");
    expect(await reasonFor(() => Response.json({ history: { historyDt: [{ closePx: 6.78, dt: "2024-01-02" }] }, transco: { code: "x" } }))).toBe("bad-response");
  });

  test("a chart page without a token is bad-response", async () => {
    fake.override("/interactive-chart/", () => new Response("<html><body><div id=\"chart\"></div></body></html>"));
    const [outcome] = await provider().getQuotes({ identifiers: [RECORDED_ISIN] });
    expect(outcome).toMatchObject({ error: { reason: "bad-response" }, ok: false });
  });

  test("no answer within the configured timeoutMs is timeout", async () => {
    const started = Date.now();
    expect(await reasonFor(async () => (await Bun.sleep(1000), Response.json({})), { timeoutMs: 100 })).toBe("timeout");
    expect(Date.now() - started).toBeLessThan(900);
  });
});

describe("borsa_italiana: history", () => {
  test("daily OHLCV inside the range, oldest first, as exact decimals", async () => {
    const points = await provider().getHistory({ identifier: RECORDED_ISIN, range: range("2023-12-28", "2024-01-02") });
    expect<unknown>(points).toEqual([
      { close: "6.739", date: "2023-12-28", high: "6.775", low: "6.718", open: "6.757", volume: "15923243" },
      { close: "6.73", date: "2023-12-29", high: "6.763", low: "6.709", open: "6.745", volume: "15922010" },
      { close: "6.782", date: "2024-01-02", high: "6.8", low: "6.712", open: "6.73", volume: "9876543" },
    ]);
  });

  test("the shortest chart period that reaches back to the range's start is asked for", async () => {
    const instance = provider();
    for (const from of ["2023-12-02", "2023-11-30", "2023-10-01", "2023-01-02", "2021-01-02", "2019-01-02", "2015-01-01"]) {
      await instance.getHistory({ identifier: RECORDED_ISIN, range: range(from, "2024-01-02") });
    }
    expect(fake.requests("/api/").map((r) => r.query.get("period"))).toEqual(["1M", "3M", "6M", "1Y", "3Y", "5Y", "MAX"]);
  });

  test("zero prices mean no price: such opens, highs and lows are left out, closeless days skipped", async () => {
    fake.override("/api/", () =>
      Response.json({ history: { historyDt: [
        { closePx: 0, dt: "20231228", lastPx: 0, openPx: 0 },
        { closePx: 101.5, dt: "20231229", highPx: 0, lowPx: 0, openPx: 0, qty: 0 },
      ] }, transco: { code: "IT0005580094" } }),
    );
    const points = await provider().getHistory({ identifier: "IT0005580094", range: range("2023-12-27", "2023-12-29") });
    expect<unknown>(points).toEqual([{ close: "101.5", date: "2023-12-29", volume: "0" }]);
  });

  test("an unknown ISIN is a not-found error; a known one without points in the range is empty", async () => {
    expect((await rejection(provider().getHistory({ identifier: UNKNOWN_ISIN, range: range("2023-12-01", "2023-12-31") })))?.reason).toBe("not-found");
    expect(await provider().getHistory({ identifier: RECORDED_ISIN, range: range("2023-11-01", "2023-11-30") })).toEqual([]);
  });
});

describe("borsa_italiana: search and metadata", () => {
  test("search asks the site search in English and Italian and merges ISIN hits, skipping fund codes", async () => {
    const hits = await provider().search({ query: "Enel" });
    expect(hits).toEqual([
      { identifier: "IT0003128367", name: "Enel" },
      { identifier: "XS2228373671", name: "Enel Tf 0,375% Mg27 Eur" },
      { identifier: "IT0005580094", name: "Enel Tf 4% St32 Eur" },
    ]);
    expect(fake.requests("/borsa/searchengine/").map((r) => [r.query.get("lang"), r.query.get("q")])).toEqual([["en", "Enel"], ["it", "Enel"]]);
  });

  test("search still answers when one language fails, and fails with the reason when both do", async () => {
    fake.override("/borsa/searchengine/", (request) =>
      new URL(request.url).searchParams.get("lang") === "en"
        ? new Response("", { status: 503 })
        : Response.json({ quotes: [{ symbol: "IT0003128367", title: "Enel" }] }),
    );
    expect(await provider().search({ query: "enel" })).toEqual([{ identifier: "IT0003128367", name: "Enel" }]);
    fake.override("/borsa/searchengine/", () => new Response("", { status: 429 }));
    expect((await rejection(provider().search({ query: "enel" })))?.reason).toBe("rate-limited");
  });

  test("a blank search asks nothing; a search without matches is empty", async () => {
    expect(await provider().search({ query: " " })).toEqual([]);
    expect(fake.log).toHaveLength(0);
    expect(await provider().search({ query: "zzz" })).toEqual([]);
  });

  test("metadata is the instrument page's name and, from its path, the asset type, in the assignment's language", async () => {
    const metadata = await provider().getMetadata!({ identifier: RECORDED_ISIN, providerParams: { language: "it" } });
    expect(metadata).toEqual({ assetType: "STOCK", name: "Enel" });
    expect(fake.requests("/borsa/search/scheda.html")[0]!.query.get("lang")).toBe("it");
  });

  test("metadata of a code the site does not know (it lands on the site search) is not-found", async () => {
    expect((await rejection(provider().getMetadata!({ identifier: UNKNOWN_ISIN })))?.reason).toBe("not-found");
  });
});
