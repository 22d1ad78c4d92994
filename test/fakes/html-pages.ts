import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * A local web server for the `cssscraper` plugin: `GET /pages/{file}` answers the recorded page
 * test/fixtures/cssscraper/{file} as text/html (404 for unknown files), the way an ordinary website
 * does. `fake.override(pathPrefix, handler)` forces deviations (statuses, delays, other bodies);
 * every request is logged with its headers.
 */
export interface LoggedRequest {
  headers: Headers;
  path: string;
}

type Handler = (request: Request) => Response | Promise<Response>;

export interface FakeHtmlPages {
  readonly log: LoggedRequest[];
  readonly maxInFlight: number;
  readonly url: string;
  override(pathPrefix: string, handler: Handler): void;
  /** The absolute URL of a recorded page, e.g. `page("fund-us.html")`. */
  page(file: string): string;
  reset(): void;
  stop(): void;
}

const FIXTURES = join(import.meta.dir, "..", "fixtures", "cssscraper");

function route(url: URL): Response {
  const file = url.pathname.startsWith("/pages/") ? url.pathname.slice("/pages/".length) : "";
  if (!/^[\w.-]+\.html$/.test(file) || !existsSync(join(FIXTURES, file))) {
    return new Response("<html><body><h1>404 Not Found</h1></body></html>", { headers: { "content-type": "text/html" }, status: 404 });
  }
  return new Response(readFileSync(join(FIXTURES, file), "utf8"), { headers: { "content-type": "text/html; charset=utf-8" } });
}

export function startFakeHtmlPages(): FakeHtmlPages {
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
      log.push({ headers: request.headers, path: url.pathname });
      const started = generation;
      maxInFlight = Math.max(maxInFlight, ++inFlight);
      try {
        const override = [...overrides].find(([prefix]) => url.pathname.startsWith(prefix));
        return await (override ? override[1](request) : route(url));
      } finally {
        if (started === generation) inFlight--;
      }
    },
  });
  const origin = `http://127.0.0.1:${server.port}`;
  return {
    log,
    get maxInFlight() {
      return maxInFlight;
    },
    override: (prefix, handler) => void overrides.set(prefix, handler),
    page: (file) => `${origin}/pages/${file}`,
    reset: () => {
      log.length = 0;
      overrides.clear();
      generation++;
      inFlight = 0;
      maxInFlight = 0;
    },
    stop: () => void server.stop(true),
    url: origin,
  };
}
