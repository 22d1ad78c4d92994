import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { ConfigSchema, DEFAULT_USER_AGENT } from "../../plugins/cssscraper/client.ts";
import { cssscraperPlugin } from "../../plugins/cssscraper/index.ts";
import { type IsoDateRange, type QuoteProvider } from "../../sdk/index.ts";
import { createFakeContext, runQuoteProviderContract } from "../../sdk/testing/index.ts";
import { startFakeHtmlPages } from "../fakes/html-pages.ts";

// The real scraper against a local web server answering recorded pages (test/fakes/html-pages.ts).

const fake = startFakeHtmlPages();
afterAll(() => fake.stop());
afterEach(() => fake.reset());

const FUND = fake.page("fund-us.html");
const QUOTE_EU = fake.page("quote-eu.html");
const NAV = { current_css_selector: "[data-testid=nav]", currency: "USD" };
const contextWith = (config: Record<string, unknown> = {}) =>
  createFakeContext({ allowedDestinations: [new URL(fake.url).host], config: ConfigSchema.parse(config), now: "2024-01-02T23:30:00Z" });
const provider = (config: Record<string, unknown> = {}) => cssscraperPlugin.create(contextWith(config)) as QuoteProvider;

/** The outcome of one page, read with `params`: the price, or the failure's reason. */
async function read(url: string, params: Record<string, unknown>, config: Record<string, unknown> = {}): Promise<string> {
  const [outcome] = await provider(config).getQuotes({ identifiers: [url], providerParams: { [url]: params } });
  return outcome!.ok ? String(outcome!.value.price) : outcome!.error.reason;
}

const sampleParams = { [FUND]: NAV, [fake.page("gone.html")]: NAV };
runQuoteProviderContract(cssscraperPlugin, {
  context: contextWith(),
  sample: {
    identifiers: Object.keys(sampleParams), providerParams: sampleParams, query: "anything",
    range: { from: "2023-12-01", to: "2023-12-31" } as IsoDateRange,
  },
});

describe("cssscraper: the price is the text of the element the selector picks", () => {
  test("us format with a currency sign and thousands separators, quoted in the param currency on the fetch day", async () => {
    const [outcome] = await provider().getQuotes({ identifiers: [FUND], providerParams: { [FUND]: NAV } });
    expect<unknown>(outcome).toEqual({ ok: true, value: { currency: "USD", date: "2024-01-02", price: "1234.56" } });
  });

  test("us format: a currency code before the number, several groups, a typographic minus", async () => {
    expect(await read(FUND, { ...NAV, current_css_selector: "[data-testid=aum]" })).toBe("12345678901.25");
    expect(await read(FUND, { ...NAV, current_css_selector: "[data-testid=daily-change]" })).toBe("-0.42");
  });

  test("the first element the selector matches counts; markup inside scripts is no element", async () => {
    expect(await read(FUND, { ...NAV, current_css_selector: ".nav-value" })).toBe("1234.56");
    expect(await read(FUND, { ...NAV, current_css_selector: ".metric .metric__value" })).toBe("1234.56");
  });

  test("eu format: point groups, comma decimals, a sign or code around the number, thin-space groups", async () => {
    const eu = (selector: string) => read(QUOTE_EU, { current_css_selector: selector, currency: "EUR", decimal_format: "eu" });
    expect(await eu("#last")).toBe("1234.56");
    expect(await eu("#previous")).toBe("1222");
    expect(await eu("#bid")).toBe("1234.5");
    expect(await eu("#chf")).toBe("1188.4");
    expect(await eu("#volume")).toBe("12345678");
  });

  test("a page read in the wrong format is a bad response, not a wrong price", async () => {
    expect(await read(QUOTE_EU, { current_css_selector: "#last", currency: "EUR" })).toBe("bad-response");
    expect(await read(FUND, { ...NAV, decimal_format: "eu" })).toBe("bad-response");
  });
});

describe("cssscraper: failures are per-identifier outcomes, never a throw", () => {
  test("a selector that matches nothing is bad-response", async () => {
    expect(await read(FUND, { ...NAV, current_css_selector: "#no-such-element" })).toBe("bad-response");
  });

  test("text that is not a number, or holds two numbers, is bad-response", async () => {
    const page = fake.page("not-a-price.html");
    expect(await read(page, { ...NAV, current_css_selector: ".price" })).toBe("bad-response");
    expect(await read(page, { ...NAV, current_css_selector: ".range" })).toBe("bad-response");
    expect(await read(page, { ...NAV, current_css_selector: ".status" })).toBe("bad-response");
  });

  test("HTTP 429 is rate-limited, 404 not-found, 5xx unavailable", async () => {
    fake.override("/limited", () => new Response("", { status: 429 }));
    fake.override("/broken", () => new Response("<h1>Bad gateway</h1>", { status: 502 }));
    expect(await read(`${fake.url}/limited`, NAV)).toBe("rate-limited");
    expect(await read(fake.page("gone.html"), NAV)).toBe("not-found");
    expect(await read(`${fake.url}/broken`, NAV)).toBe("unavailable");
  });

  test("a page slower than the assignment's timeout (seconds) or the configured timeoutMs is timeout", async () => {
    fake.override("/slow", async () => (await Bun.sleep(1500), new Response("<p>1</p>")));
    const started = Date.now();
    expect(await read(`${fake.url}/slow`, { ...NAV, current_css_selector: "p", timeout: 0.1 })).toBe("timeout");
    expect(await read(`${fake.url}/slow`, { ...NAV, current_css_selector: "p" }, { timeoutMs: 100 })).toBe("timeout");
    expect(Date.now() - started).toBeLessThan(1400);
  });

  test("a page that starts but stalls within the timeout is timeout too", async () => {
    fake.override("/stalls", () => {
      const body = new ReadableStream({
        async start(controller) {
          controller.enqueue(new TextEncoder().encode("<html><body><p>1"));
          await Bun.sleep(1000);
          controller.close();
        },
      });
      return new Response(body, { headers: { "content-type": "text/html" } });
    });
    expect(await read(`${fake.url}/stalls`, { ...NAV, current_css_selector: "p", timeout: 0.2 })).toBe("timeout");
  });

  test("one outcome per identifier in order; missing params and non-URLs are invalid-input", async () => {
    const outcomes = await provider().getQuotes({
      identifiers: [FUND, "ftp://example.com/x", fake.page("quote-eu.html"), "not a url"],
      providerParams: { [FUND]: NAV, "ftp://example.com/x": NAV, "not a url": NAV },
    });
    expect(outcomes.map((o) => (o.ok ? String(o.value.price) : o.error.reason))).toEqual(["1234.56", "invalid-input", "invalid-input", "invalid-input"]);
  });

  test("a batch fetches at most five pages at once", async () => {
    fake.override("/pages/", async () => (await Bun.sleep(30), new Response('<p data-testid="nav">1</p>')));
    const identifiers = Array.from({ length: 12 }, (_, i) => fake.page(`p${i}.html`));
    const outcomes = await provider().getQuotes({ identifiers, providerParams: Object.fromEntries(identifiers.map((id) => [id, NAV])) });
    expect(outcomes.every((o) => o.ok)).toBe(true);
    expect(fake.maxInFlight).toBe(5);
  });
});

describe("cssscraper: parameters", () => {
  const schema = () => provider().paramsSchema!;
  const issues = (params: unknown) => schema().safeParse(params).error?.issues.map((issue) => issue.path.join(".")) ?? [];

  test("current_css_selector and currency are required; decimal_format defaults to us", () => {
    expect(issues({ currency: "USD" })).toEqual(["current_css_selector"]);
    expect(issues({ current_css_selector: "#p" })).toEqual(["currency"]);
    expect(schema().parse({ current_css_selector: " #p ", currency: "USD" })).toEqual({ current_css_selector: "#p", currency: "USD", decimal_format: "us" });
  });

  test("a blank or unparseable selector, an unknown format, a lower-case currency and a zero timeout are refused", () => {
    expect(issues({ ...NAV, current_css_selector: "  " })).toEqual(["current_css_selector"]);
    expect(issues({ ...NAV, current_css_selector: "div[[" })).toEqual(["current_css_selector"]);
    expect(issues({ ...NAV, decimal_format: "ch" })).toEqual(["decimal_format"]);
    expect(issues({ ...NAV, currency: "usd" })).toEqual(["currency"]);
    expect(issues({ ...NAV, timeout: 0 })).toEqual(["timeout"]);
  });

  test("the user_agent param is sent, else a browser's", async () => {
    await read(FUND, { ...NAV, user_agent: "MyScraper/2.0" });
    await read(FUND, NAV);
    expect(fake.log.map((entry) => entry.headers.get("user-agent"))).toEqual(["MyScraper/2.0", DEFAULT_USER_AGENT]);
  });

  test("current price only: history and search are empty and ask nothing; the identifier is the page", async () => {
    const instance = provider();
    expect(await instance.getHistory({ identifier: FUND, range: { from: "2023-01-01", to: "2023-12-31" } as IsoDateRange })).toEqual([]);
    expect(await instance.search({ query: "fund" })).toEqual([]);
    expect(fake.log).toHaveLength(0);
    expect([instance.identifierType, instance.pageUrl!(FUND)]).toEqual(["URL", FUND]);
  });
});
