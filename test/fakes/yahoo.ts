/**
 * A local fake of Yahoo Finance's chart and search APIs, answering from test/fixtures/yahoo/ the way
 * Yahoo does:
 * - `GET /v8/finance/chart/{symbol}?range=1d&interval=1d` answers `chart-<slug>-1d.json`;
 * - `GET /v8/finance/chart/{symbol}?period1=<unix>&period2=<unix>&interval=1d&events=div,splits` answers
 *   `chart-<slug>-history.json` cut to [period1, period2): bars and events outside are dropped, events
 *   only when `events` asks for them (`div`, `split`), and a window without bars has no `timestamp`
 *   and empty indicators, as Yahoo sends it;
 * - an unknown symbol answers 404 with Yahoo's `{"chart":{"result":null,"error":{"code":"Not Found",...}}}`;
 * - `GET /v1/finance/search?q=...` answers `search-<q>.json`, or Yahoo's empty answer.
 * `behave()` overrides answers per symbol or for search (see `yahooFailures`), or delays every answer.
 * Every request is logged, and the fake keeps the most requests it ever had in flight at once.
 */

const FIXTURES = new URL("../fixtures/yahoo/", import.meta.url);
const KNOWN_SYMBOLS: Readonly<Record<string, string>> = { AAPL: "aapl", "CBA.AX": "cba-ax", "VOD.L": "vod-l" };

export interface YahooRequest {
  path: string;
  query: Record<string, string>;
  userAgent: string | null;
}

type Handler = (req: Request) => Response | Promise<Response>;

export interface YahooBehaviour {
  /** Delay before every answer, in milliseconds. */
  delayMs?: number;
  /** Answer of the search endpoint, whatever the query. */
  search?: Handler;
  /** Answer of the chart endpoint, by symbol. */
  symbols?: Record<string, Handler>;
}

export interface FakeYahoo {
  readonly log: YahooRequest[];
  /** The most requests in flight at the same moment since the last reset. */
  readonly maxInFlight: number;
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  behave(behaviour: YahooBehaviour): void;
  /** Chart requests the fake received for `symbol`. */
  chartRequests(symbol: string): YahooRequest[];
  /** Clears the log, the in-flight mark and the overrides. */
  reset(): void;
  stop(): Promise<void>;
}

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { headers: { "content-type": "application/json;charset=utf-8" }, status });
}

/** Deviations of the real service, for `behave({ symbols: { X: yahooFailures.rateLimited } })`. */
export const yahooFailures = {
  /** Not JSON at all, with a JSON content type (a truncated body). */
  malformed: (() => new Response('{"chart":{"result":[{"meta":{"currency":"USD","sym', { headers: { "content-type": "application/json" } })) as Handler,
  /** An answer that takes 1.5 s, longer than any timeout the tests configure. */
  hang: (async () => {
    await Bun.sleep(1500);
    return json(await fixture("chart-not-found.json"), 404);
  }) as Handler,
  /** Yahoo's throttling answer: 429 with a plain-text body. */
  rateLimited: (() => new Response("Too Many Requests\r\n", { headers: { "content-type": "text/plain" }, status: 429 })) as Handler,
  /** A 500 with Yahoo's error envelope. */
  serverError: (() => json({ chart: { error: { code: "Internal Server Error", description: "Service unavailable" }, result: null } }, 500)) as Handler,
  /** Valid JSON of another shape, as Yahoo answers when it wants a crumb. */
  unexpectedShape: (() => json({ finance: { error: { code: "Unauthorized", description: "Invalid Crumb" }, result: null } })) as Handler,
};

async function fixture(name: string): Promise<any> {
  return Bun.file(new URL(name, FIXTURES)).json();
}

function cutToPeriod(payload: any, period1: number, period2: number, events: string): any {
  const result = structuredClone(payload.chart.result[0]);
  const inside = (stamp: number) => stamp >= period1 && stamp < period2;
  const keep = (result.timestamp as number[]).map(inside);
  const pick = (values: unknown[]) => values.filter((_, i) => keep[i]);
  if (keep.some(Boolean)) {
    result.timestamp = pick(result.timestamp);
    for (const [key, values] of Object.entries(result.indicators.quote[0])) result.indicators.quote[0][key] = pick(values as unknown[]);
    result.indicators.adjclose[0].adjclose = pick(result.indicators.adjclose[0].adjclose);
  } else {
    delete result.timestamp;
    result.indicators = { adjclose: [{}], quote: [{}] };
  }
  const wanted = { dividends: events.includes("div"), splits: events.includes("split") };
  const kept: Record<string, Record<string, { date: number }>> = {};
  for (const [kind, byStamp] of Object.entries((result.events ?? {}) as Record<string, Record<string, { date: number }>>)) {
    const entries = Object.entries(byStamp).filter(([, event]) => wanted[kind as keyof typeof wanted] && inside(event.date));
    if (entries.length) kept[kind] = Object.fromEntries(entries);
  }
  if (Object.keys(kept).length && keep.some(Boolean)) result.events = kept;
  else delete result.events;
  return { chart: { error: null, result: [result] } };
}

async function chart(symbol: string, query: URLSearchParams): Promise<Response> {
  const slug = KNOWN_SYMBOLS[symbol];
  if (!slug) return json(await fixture("chart-not-found.json"), 404);
  if (query.get("interval") !== "1d") return json({ chart: { error: { code: "Bad Request", description: "Invalid interval" }, result: null } }, 400);
  if (query.get("range") === "1d") return json(await fixture(`chart-${slug}-1d.json`).catch(() => fixture(`chart-${slug}-history.json`)));
  const period1 = Number(query.get("period1"));
  const period2 = Number(query.get("period2"));
  if (!Number.isInteger(period1) || !Number.isInteger(period2) || period1 >= period2) {
    return json({ chart: { error: { code: "Bad Request", description: "Invalid input - start date cannot be after end date" }, result: null } }, 400);
  }
  return json(cutToPeriod(await fixture(`chart-${slug}-history.json`), period1, period2, query.get("events") ?? ""));
}

async function search(query: URLSearchParams): Promise<Response> {
  const text = (query.get("q") ?? "").toLowerCase();
  return json(await fixture(`search-${text}.json`).catch(() => fixture("search-empty.json")));
}

/** Starts the fake on a free port of 127.0.0.1. */
export function startFakeYahoo(): FakeYahoo {
  const log: YahooRequest[] = [];
  let behaviour: YahooBehaviour = {};
  let inFlight = 0;
  let maxInFlight = 0;

  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const url = new URL(req.url);
      log.push({ path: url.pathname, query: Object.fromEntries(url.searchParams), userAgent: req.headers.get("user-agent") });
      maxInFlight = Math.max(maxInFlight, ++inFlight);
      try {
        if (behaviour.delayMs) await Bun.sleep(behaviour.delayMs);
        const chartPath = /^\/v8\/finance\/chart\/([^/]+)$/.exec(url.pathname);
        if (chartPath) {
          const symbol = decodeURIComponent(chartPath[1]!);
          return await (behaviour.symbols?.[symbol]?.(req) ?? chart(symbol, url.searchParams));
        }
        if (url.pathname === "/v1/finance/search") return await (behaviour.search?.(req) ?? search(url.searchParams));
        return new Response("Not Found", { status: 404 });
      } finally {
        inFlight--;
      }
    },
  });

  const url = `http://127.0.0.1:${server.port}`;
  return {
    log,
    get maxInFlight() {
      return maxInFlight;
    },
    url,
    behave(b) {
      behaviour = { ...behaviour, ...b };
    },
    chartRequests: (symbol) => log.filter((r) => r.path === `/v8/finance/chart/${encodeURIComponent(symbol)}`),
    reset() {
      behaviour = {};
      log.length = 0;
      maxInFlight = inFlight;
    },
    async stop() {
      await server.stop(true);
    },
  };
}
