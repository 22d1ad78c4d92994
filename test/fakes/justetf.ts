import { readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * A local fake of www.justetf.com, answering with the recorded payloads of test/fixtures/justetf/:
 * - `GET /api/etfs/{isin}/performance-chart?currency=EUR|USD&dateFrom=&dateTo=&...`: the chart of the
 *   recorded ISIN (IE00B4L5Y983) in EUR or USD, series cut to [dateFrom, dateTo] as the site does;
 *   404 for any other ISIN;
 * - `GET /api/etfs/cards?isin=...`: the recorded card, `{"etfs": []}` for unknown ISINs;
 * - `POST /servlet/etfs-table` (form `etfsParams=query=...`): recorded screener rows whose name, ISIN
 *   or ticker contains every word of the query.
 * A test forces any deviation with `fake.override(pathPrefix, handler)`; every request is logged.
 */
export const RECORDED_ISIN = "IE00B4L5Y983";

const FIXTURES = join(import.meta.dir, "..", "fixtures", "justetf");
const fixture = (name: string) => JSON.parse(readFileSync(join(FIXTURES, name), "utf8"));

export interface LoggedRequest {
  body: string;
  headers: Headers;
  method: string;
  path: string;
  query: URLSearchParams;
}

type Handler = (request: Request) => Response | Promise<Response>;

export interface FakeJustEtf {
  readonly log: LoggedRequest[];
  /** The most requests that were ever in flight at once. */
  readonly maxInFlight: number;
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** Answer requests whose path starts with `pathPrefix` with `handler` instead, until `reset()`. */
  override(pathPrefix: string, handler: Handler): void;
  reset(): void;
  stop(): void;
}

interface SeriesPoint {
  date: string;
}

function chart(isin: string, query: URLSearchParams): Response {
  if (isin !== RECORDED_ISIN) return Response.json({ errorCode: "ETF_NOT_FOUND" }, { status: 404 });
  const currency = query.get("currency") === "USD" ? "USD" : "EUR";
  const body = fixture(`performance-chart-${RECORDED_ISIN}-${currency}.json`);
  const from = query.get("dateFrom") ?? "0000-00-00";
  const to = query.get("dateTo") ?? "9999-99-99";
  body.series = body.series.filter((point: SeriesPoint) => point.date >= from && point.date <= to);
  return Response.json(body);
}

function search(form: URLSearchParams): Response {
  const table = fixture("etfs-table-msci-world.json");
  const words = (new URLSearchParams(form.get("etfsParams") ?? "").get("query") ?? "").toLowerCase().split(/\s+/).filter(Boolean);
  const rows = table.data.filter((row: Record<string, string>) =>
    words.every((word) => [row.name, row.isin, row.ticker].some((field) => field?.toLowerCase().includes(word))),
  );
  return Response.json({ ...table, data: rows, recordsFiltered: rows.length, recordsTotal: rows.length });
}

async function route(request: Request, url: URL, body: string): Promise<Response> {
  const chartPath = url.pathname.match(/^\/api\/etfs\/([^/]+)\/performance-chart$/);
  if (request.method === "GET" && chartPath) return chart(decodeURIComponent(chartPath[1]!), url.searchParams);
  if (request.method === "GET" && url.pathname === "/api/etfs/cards") {
    return url.searchParams.get("isin") === RECORDED_ISIN ? Response.json(fixture(`cards-${RECORDED_ISIN}.json`)) : Response.json({ etfs: [] });
  }
  if (request.method === "POST" && url.pathname === "/servlet/etfs-table") return search(new URLSearchParams(body));
  return new Response("<html><body>Page not found</body></html>", { status: 404, headers: { "content-type": "text/html" } });
}

export function startFakeJustEtf(): FakeJustEtf {
  const log: LoggedRequest[] = [];
  const overrides = new Map<string, Handler>();
  // Requests still running from before a reset() (a slow answer a client gave up on) don't count after it.
  let generation = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const url = new URL(request.url);
      const body = request.method === "POST" ? await request.clone().text() : "";
      log.push({ body, headers: request.headers, method: request.method, path: url.pathname, query: url.searchParams });
      const started = generation;
      maxInFlight = Math.max(maxInFlight, ++inFlight);
      try {
        const override = [...overrides].find(([prefix]) => url.pathname.startsWith(prefix));
        return await (override ? override[1](request) : route(request, url, body));
      } finally {
        if (started === generation) inFlight--;
      }
    },
  });
  return {
    log,
    get maxInFlight() {
      return maxInFlight;
    },
    override: (prefix, handler) => void overrides.set(prefix, handler),
    reset: () => {
      log.length = 0;
      overrides.clear();
      generation++;
      inFlight = 0;
      maxInFlight = 0;
    },
    stop: () => void server.stop(true),
    url: `http://127.0.0.1:${server.port}`,
  };
}
