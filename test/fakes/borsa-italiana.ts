import { readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * A local fake of www.borsaitaliana.it and grafici.borsaitaliana.it (one server for both), answering
 * with the recorded payloads of test/fixtures/borsa-italiana/:
 * - `GET /interactive-chart/{ISIN}-XMIL`: the chart page embedding the API token (`token="..."`), with
 *   the firewall's cookies;
 * - `GET /api/instruments/{ISIN},XMIL,ISIN/history/period?period=`: 401 without `Bearer <current token>`;
 *   the recorded ENEL history (IT0003128367, Dec 2023 plus today's last price on 2024-01-02), cut to one
 *   month for `1M`; `{}` (no `transco`) for any other ISIN, as the real API answers;
 * - `GET /borsa/searchengine/all/json/search.html?lang=en|it&q=`: the recorded answers for "enel",
 *   empty sections otherwise;
 * - `GET /borsa/search/scheda.html?code=&lang=`: a redirect to the ENEL share page, or to the site
 *   search (no results) for any other code.
 * `fake.rotateToken()` revokes the token; `fake.override(pathPrefix, handler)` forces any deviation.
 */
export const RECORDED_ISIN = "IT0003128367";
export const RECORDED_COOKIES = "visid_incap_2553442=Xq1VhZpKQ9m0; incap_ses_1364_2553442=Tb3kK1nHzW4";

const FIXTURES = join(import.meta.dir, "..", "fixtures", "borsa-italiana");
const text = (name: string) => readFileSync(join(FIXTURES, name), "utf8");
/** The token attribute of the recorded chart page. */
export const RECORDED_TOKEN =
  "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiItMSIsImlhdCI6MTcwMDAwMDAwMCwiZXhwIjo0ODU1NjczNjAwfQ.rec0rdedS1gnatureF0rTests0nly";

export interface LoggedRequest {
  headers: Headers;
  path: string;
  query: URLSearchParams;
}

type Handler = (request: Request) => Response | Promise<Response>;

export interface FakeBorsaItaliana {
  readonly log: LoggedRequest[];
  readonly maxInFlight: number;
  /** The token the chart page hands out now. */
  readonly token: string;
  readonly url: string;
  override(pathPrefix: string, handler: Handler): void;
  /** Log entries whose path starts with `prefix`. */
  requests(prefix: string): LoggedRequest[];
  reset(): void;
  /** Revokes the current token: the API refuses it from now on and the chart page hands out a new one. */
  rotateToken(): void;
  stop(): void;
}

const html = (body: string, status = 200) => new Response(body, { headers: { "content-type": "text/html; charset=utf-8" }, status });
const redirect = (location: string) => new Response(null, { headers: { location }, status: 302 });

function history(spec: string, period: string): Response {
  if (spec !== `${RECORDED_ISIN},XMIL,ISIN`) return Response.json({});
  const answer = JSON.parse(text(`history-${RECORDED_ISIN}.json`));
  if (period === "1M") answer.history.historyDt = answer.history.historyDt.filter((p: { dt: string }) => p.dt >= "20231202");
  return Response.json(answer);
}

function search(query: URLSearchParams): Response {
  const language = query.get("lang") === "it" ? "it" : "en";
  if (query.get("q")?.toLowerCase().includes("enel")) return Response.json(JSON.parse(text(`search-enel-${language}.json`)));
  return Response.json({ documents: [], news: [], pages: [], quotes: [], terms: [] });
}

export function startFakeBorsaItaliana(): FakeBorsaItaliana {
  const log: LoggedRequest[] = [];
  const overrides = new Map<string, Handler>();
  let token = RECORDED_TOKEN;
  let rotations = 0;
  // Requests still running from before a reset() (a slow answer a client gave up on) don't count after it.
  let generation = 0;
  let inFlight = 0;
  let maxInFlight = 0;

  function route(request: Request, url: URL): Response {
    const { pathname: path, searchParams: query } = url;
    if (path.startsWith("/interactive-chart/")) {
      const response = html(text("interactive-chart.html").replace(RECORDED_TOKEN, token));
      for (const cookie of RECORDED_COOKIES.split("; ")) response.headers.append("set-cookie", `${cookie}; path=/; HttpOnly; SameSite=None`);
      return response;
    }
    const api = path.match(/^\/api\/instruments\/([^/]+)\/history\/period$/);
    if (api) {
      if (request.headers.get("authorization") !== `Bearer ${token}`) return Response.json({ error: "Unauthorized" }, { status: 401 });
      return history(decodeURIComponent(api[1]!), query.get("period") ?? "");
    }
    if (path === "/borsa/searchengine/all/json/search.html") return search(query);
    if (path === "/borsa/search/scheda.html") {
      const lang = query.get("lang") ?? "it";
      return query.get("code") === RECORDED_ISIN
        ? redirect(`/borsa/azioni/scheda/${RECORDED_ISIN}.html?lang=${lang}`)
        : redirect(`/borsa/searchengine/search.html?q=${query.get("code")}&lang=${lang}`);
    }
    if (path === `/borsa/azioni/scheda/${RECORDED_ISIN}.html`) return html(text(`scheda-${RECORDED_ISIN}.html`));
    if (path === "/borsa/searchengine/search.html") return html(text("searchengine-no-results.html"));
    return html("<html><body><h1>Page not found</h1></body></html>", 404);
  }

  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const url = new URL(request.url);
      log.push({ headers: request.headers, path: url.pathname, query: url.searchParams });
      const started = generation;
      maxInFlight = Math.max(maxInFlight, ++inFlight);
      try {
        const override = [...overrides].find(([prefix]) => url.pathname.startsWith(prefix));
        return await (override ? override[1](request) : route(request, url));
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
    requests: (prefix) => log.filter((entry) => entry.path.startsWith(prefix)),
    reset: () => {
      log.length = 0;
      overrides.clear();
      generation++;
      inFlight = 0;
      maxInFlight = 0;
      token = RECORDED_TOKEN;
    },
    rotateToken: () => {
      token = `${RECORDED_TOKEN}.rotated${++rotations}`;
    },
    stop: () => void server.stop(true),
    get token() {
      return token;
    },
    url: `http://127.0.0.1:${server.port}`,
  };
}
