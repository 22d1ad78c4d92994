import { describe, expect, test } from "bun:test";
import type { IsoDate, IsoDateRange } from "../../sdk/index.ts";
import {
  assetTypeOf,
  type ChartResult,
  chartEvents,
  chartMetadata,
  chartPricePoints,
  chartQuote,
  decimalFromNumber,
  marketDayOf,
  parseChartResponse,
  parseSearchResponse,
} from "./parse.ts";

const NEW_YORK = { currency: "USD", exchangeTimezoneName: "America/New_York", gmtoffset: -18000, symbol: "AAPL" };
const WIDE: IsoDateRange = { from: "2000-01-01" as IsoDate, to: "2099-12-31" as IsoDate };
const ts = (iso: string) => Date.parse(iso) / 1000;
const decimal = (value: number): string => decimalFromNumber(value);

function chart(result: Record<string, unknown>): ChartResult {
  return parseChartResponse({ chart: { error: null, result: [{ indicators: { quote: [{}] }, meta: NEW_YORK, ...result }] } }, "AAPL");
}

function reasonOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return (error as { reason?: string }).reason;
  }
  return undefined;
}

describe("decimals come from upstream numbers without binary artefacts", () => {
  test("Yahoo's single-precision prices read as the decimal they stand for", () => {
    expect(decimal(Math.fround(185.64))).toBe("185.64");
    expect(decimal(185.63999938964844)).toBe("185.64");
    expect(decimal(Math.fround(0.24))).toBe("0.24");
    expect(decimal(Math.fround(111.1125))).toBe("111.1125");
  });

  test("double arithmetic artefacts (0.1 + 0.2) read as the clean decimal", () => {
    expect(decimal(0.1 + 0.2)).toBe("0.3");
    expect(decimal(2.1500000000000004)).toBe("2.15");
    expect(decimal(69.86000000000001)).toBe("69.86");
  });

  test("exact values, integers and tiny numbers keep every digit and never use an exponent", () => {
    expect(decimal(0.205)).toBe("0.205");
    expect(decimal(183.885)).toBe("183.885");
    expect(decimal(82488674)).toBe("82488674");
    expect(decimal(1e21)).toBe("1000000000000000000000");
    expect(decimal(0.0001)).toBe("0.0001");
    expect(decimal(-0.5)).toBe("-0.5");
  });

  test("a non-finite number is a bad response", () => {
    expect(reasonOf(() => decimalFromNumber(Number.NaN))).toBe("bad-response");
  });
});

describe("chart responses", () => {
  test("Yahoo's Not Found error body is not-found", () => {
    const body = { chart: { error: { code: "Not Found", description: "No data found, symbol may be delisted" }, result: null } };
    expect(reasonOf(() => parseChartResponse(body, "NOPE"))).toBe("not-found");
  });

  test("any other error body is a bad response", () => {
    const body = { chart: { error: { code: "Bad Request", description: "Invalid input" }, result: null } };
    expect(reasonOf(() => parseChartResponse(body, "AAPL"))).toBe("bad-response");
  });

  test("an empty result is not-found; another shape is a bad response", () => {
    expect(reasonOf(() => parseChartResponse({ chart: { error: null, result: [] } }, "AAPL"))).toBe("not-found");
    expect(reasonOf(() => parseChartResponse({ finance: { result: null } }, "AAPL"))).toBe("bad-response");
    expect(reasonOf(() => parseChartResponse({ chart: { error: null, result: [{ meta: {} }] } }, "AAPL"))).toBe("bad-response");
  });
});

describe("market days", () => {
  test("a bar stamped at the Sydney open (23:00 UTC) belongs to the next calendar day", () => {
    const dayOf = marketDayOf({ exchangeTimezoneName: "Australia/Sydney", gmtoffset: 39600, symbol: "CBA.AX" });
    expect(dayOf(ts("2024-02-20T23:00:00Z"))).toBe("2024-02-21" as IsoDate);
  });

  test("the named exchange zone follows daylight saving where the request-time gmtoffset would not", () => {
    const meta = { exchangeTimezoneName: "Europe/London", gmtoffset: 0, symbol: "EURUSD=X" };
    expect(marketDayOf(meta)(ts("2024-06-30T23:00:00Z"))).toBe("2024-07-01" as IsoDate);
  });

  test("without a known zone the gmtoffset decides, and without either the UTC day", () => {
    expect(marketDayOf({ exchangeTimezoneName: "Mars/Olympus", gmtoffset: 39600, symbol: "X" })(ts("2024-02-20T23:00:00Z"))).toBe(
      "2024-02-21" as IsoDate,
    );
    expect(marketDayOf({ symbol: "X" })(ts("2024-02-20T23:00:00Z"))).toBe("2024-02-20" as IsoDate);
  });
});

describe("price history", () => {
  const days = ["2024-01-02", "2024-01-03", "2024-01-04", "2024-01-05"].map((d) => ts(`${d}T14:30:00Z`));
  const result = chart({
    indicators: {
      quote: [
        {
          close: [Math.fround(185.64), null, Math.fround(181.91), Math.fround(181.18)],
          high: [Math.fround(188.44), null, 183.0872, null],
          low: [183.885, null, 180.88, 180.17],
          open: [187.15, null, null, 181.99],
          volume: [82488674, null, 71983600, 62303300],
        },
      ],
    },
    timestamp: days,
  });

  test("days whose close is null are absent; other null fields are left out of the point", () => {
    expect(chartPricePoints(result, WIDE)).toEqual([
      { close: "185.64", date: "2024-01-02", high: "188.44", low: "183.885", open: "187.15", volume: "82488674" },
      { close: "181.91", date: "2024-01-04", high: "183.0872", low: "180.88", volume: "71983600" },
      { close: "181.18", date: "2024-01-05", low: "180.17", open: "181.99", volume: "62303300" },
    ] as never);
  });

  test("only days inside the inclusive range are kept", () => {
    const range = { from: "2024-01-03", to: "2024-01-04" } as IsoDateRange;
    expect(chartPricePoints(result, range).map((p) => p.date)).toEqual(["2024-01-04"] as IsoDate[]);
  });

  test("a window without bars (no timestamp) is an empty history", () => {
    expect(chartPricePoints(chart({ indicators: { adjclose: [{}], quote: [{}] } }), WIDE)).toEqual([]);
  });

  test("a live bar on the same day as the daily bar replaces it", () => {
    const live = chart({
      indicators: { quote: [{ close: [118.6, 118.68] }] },
      meta: { ...NEW_YORK, exchangeTimezoneName: "Australia/Sydney" },
      timestamp: [ts("2024-02-22T23:00:00Z"), ts("2024-02-23T05:10:00Z")],
    });
    expect(chartPricePoints(live, WIDE)).toEqual([{ close: "118.68", date: "2024-02-23" }] as never);
  });

  test("prices quoted in pence (GBp) are reported in pounds", () => {
    const pence = chart({
      indicators: { quote: [{ close: [Math.fround(69.86)], volume: [41937221] }] },
      meta: { currency: "GBp", exchangeTimezoneName: "Europe/London", gmtoffset: 0, symbol: "VOD.L" },
      timestamp: [ts("2024-01-02T08:00:00Z")],
    });
    expect(chartPricePoints(pence, WIDE)).toEqual([{ close: "0.6986", date: "2024-01-02", volume: "41937221" }] as never);
  });
});

describe("events", () => {
  const withEvents = (meta: Record<string, unknown> = NEW_YORK) =>
    chart({
      events: {
        dividends: { [ts("2020-08-07T13:30:00Z")]: { amount: 0.205, date: ts("2020-08-07T13:30:00Z") } },
        splits: {
          [ts("2020-08-31T13:30:00Z")]: { date: ts("2020-08-31T13:30:00Z"), denominator: 1, numerator: 4, splitRatio: "4:1" },
          [ts("2014-06-09T13:30:00Z")]: { date: ts("2014-06-09T13:30:00Z"), denominator: 1, numerator: 7, splitRatio: "7:1" },
        },
      },
      meta,
    });

  test("dividends are per-share DIVIDEND events in the quote currency; splits are SPLIT events with the ratio", () => {
    expect(chartEvents(withEvents(), WIDE)).toEqual([
      { date: "2014-06-09", type: "SPLIT", value: "7" },
      { currency: "USD", date: "2020-08-07", type: "DIVIDEND", value: "0.205" },
      { date: "2020-08-31", type: "SPLIT", value: "4" },
    ] as never);
  });

  test("a 3:2 split is 1.5 and a 1:10 reverse split is 0.1", () => {
    const split = (numerator: number, denominator: number) =>
      chartEvents(chart({ events: { splits: { "1": { date: ts("2024-01-02T14:30:00Z"), denominator, numerator } } } }), WIDE)[0]!.value;
    expect(split(3, 2)).toBe("1.5" as never);
    expect(split(1, 10)).toBe("0.1" as never);
  });

  test("events outside the range are dropped", () => {
    const range = { from: "2020-01-01", to: "2020-08-30" } as IsoDateRange;
    expect(chartEvents(withEvents(), range).map((e) => e.type)).toEqual(["DIVIDEND"]);
  });

  test("dividends of a pence-quoted share are in pounds", () => {
    const [dividend] = chartEvents(withEvents({ currency: "GBp", gmtoffset: 0, symbol: "VOD.L" }), WIDE).filter((e) => e.type === "DIVIDEND");
    expect(dividend).toEqual({ currency: "GBP", date: "2020-08-07", type: "DIVIDEND", value: "0.00205" } as never);
  });
});

describe("quotes and metadata", () => {
  test("the quote is regularMarketPrice on the market day of regularMarketTime", () => {
    const result = chart({ meta: { ...NEW_YORK, regularMarketPrice: 185.64, regularMarketTime: ts("2024-01-02T21:00:00Z") } });
    expect(chartQuote(result)).toEqual({ currency: "USD", date: "2024-01-02", price: "185.64" } as never);
  });

  test("without regularMarketPrice the last non-null close is the quote", () => {
    const result = chart({ indicators: { quote: [{ close: [180.5, null] }] }, timestamp: [ts("2024-01-02T14:30:00Z"), ts("2024-01-03T14:30:00Z")] });
    expect(chartQuote(result)).toEqual({ currency: "USD", date: "2024-01-02", price: "180.5" } as never);
  });

  test("no price at all is not-found; no usable currency is a bad response", () => {
    expect(reasonOf(() => chartQuote(chart({})))).toBe("not-found");
    const noCurrency = chart({ meta: { ...NEW_YORK, currency: null, regularMarketPrice: 1, regularMarketTime: 1 } });
    expect(reasonOf(() => chartQuote(noCurrency))).toBe("bad-response");
  });

  test("quote types map to asset types, anything else is OTHER", () => {
    const types = ["EQUITY", "ETF", "MUTUALFUND", "CRYPTOCURRENCY", "INDEX", "CURRENCY", "FUTURE", undefined].map(assetTypeOf);
    expect(types).toEqual(["STOCK", "ETF", "FUND", "CRYPTO", "INDEX", "OTHER", "OTHER", "OTHER"]);
  });

  test("metadata is the long name (else the short name), the currency and the asset type", () => {
    const meta = { ...NEW_YORK, instrumentType: "ETF", longName: "Vanguard FTSE All-World", shortName: "VANGUARD FTSE" };
    expect(chartMetadata(chart({ meta }))).toEqual({ assetType: "ETF", currency: "USD", name: "Vanguard FTSE All-World" } as never);
    expect(chartMetadata(chart({ meta: { ...meta, longName: null } })).name).toBe("VANGUARD FTSE");
  });
});

describe("search responses", () => {
  test("hits keep Yahoo's order, skip entries without a Yahoo quote and fall back from long to short name", () => {
    const body = {
      count: 3,
      quotes: [
        { isYahooFinance: true, longname: "Apple Inc.", quoteType: "EQUITY", shortname: "Apple Inc.", symbol: "AAPL" },
        { isYahooFinance: false, name: "Apple Bank", permalink: "apple-bank-for-savings" },
        { isYahooFinance: true, quoteType: "EQUITY", shortname: "APPLE INC", symbol: "APC.DE" },
      ],
    };
    expect(parseSearchResponse(body)).toEqual([
      { identifier: "AAPL", name: "Apple Inc." },
      { identifier: "APC.DE", name: "APPLE INC" },
    ]);
  });

  test("a body without a quotes list is a bad response", () => {
    expect(reasonOf(() => parseSearchResponse({ finance: { error: { code: "Unauthorized" } } }))).toBe("bad-response");
  });
});
