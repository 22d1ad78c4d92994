/**
 * A local fake of FRED's graph CSV download, answering from test/fixtures/fred/ the way the site does:
 * - `GET /graph/fredgraph.csv?id=DEXUSEU&cosd=YYYY-MM-DD&coed=YYYY-MM-DD` answers `<id>.csv` (weekdays
 *   of 2024-01-01..2024-01-19, holidays as `.` or an empty value) cut to the days of the range; a
 *   range without rows is the header alone;
 * - a series without a fixture answers 404 with FRED's HTML error page, a missing or unreadable day 400.
 * `behave()` replaces every answer, or only the answers of some series (see `fredFailures`), or
 * delays them. Every request is logged.
 */

import { type Handler, type ScriptedUpstream, startScriptedUpstream, type UpstreamBehaviour } from "./scripted-upstream.ts";

const FIXTURES = new URL("../fixtures/fred/", import.meta.url);

export interface FredBehaviour extends UpstreamBehaviour {
  /** Series id → the handler answering that series alone. */
  series?: Record<string, Handler>;
}

export type FakeFred = ScriptedUpstream<FredBehaviour>;

function csv(body: string, status = 200): Response {
  return new Response(body, { headers: { "content-type": "text/csv" }, status });
}

function html(body: string, status: number): Response {
  return new Response(body, { headers: { "content-type": "text/html; charset=UTF-8" }, status });
}

/** Deviations of the real service, for `behave({ handler: fredFailures.rateLimited })`. */
export const fredFailures = {
  /** An answer that takes 1.5 s, longer than any timeout the tests configure. */
  hang: (async () => {
    await Bun.sleep(1500);
    return csv("observation_date,DEXUSEU\n");
  }) as Handler,
  /** A maintenance page with status 200 instead of the CSV. */
  htmlPage: (() => html("<!DOCTYPE html><html><body><h1>FRED is temporarily unavailable for maintenance</h1></body></html>", 200)) as Handler,
  /** A CSV whose last row is cut short after the day. */
  malformed: (() => csv("observation_date,DEXUSEU\n2024-01-02,1.0956\n2024-01-03")) as Handler,
  rateLimited: (() => new Response("Too Many Requests", { headers: { "content-type": "text/plain" }, status: 429 })) as Handler,
  serverError: (() => html("<html><body><h1>502 Bad Gateway</h1></body></html>", 500)) as Handler,
};

async function answer(query: URLSearchParams): Promise<Response> {
  const id = query.get("id") ?? "";
  const from = query.get("cosd") ?? "";
  const to = query.get("coed") ?? "";
  if (!/^\d{4}-\d{2}-\d{2}$/.test(from) || !/^\d{4}-\d{2}-\d{2}$/.test(to)) return html("<html><body>Bad Request</body></html>", 400);
  const file = Bun.file(new URL(`${id}.csv`, FIXTURES));
  if (!/^[A-Z0-9]+$/.test(id) || !(await file.exists())) return html(await Bun.file(new URL("not-found.html", FIXTURES)).text(), 404);
  const [header, ...rows] = (await file.text()).trimEnd().split("\n");
  const kept = rows.filter((row) => row.slice(0, 10) >= from && row.slice(0, 10) <= to);
  return csv([header!, ...kept].join("\n") + "\n");
}

/** Starts the fake on a free port of 127.0.0.1. */
export function startFakeFred(): FakeFred {
  return startScriptedUpstream<FredBehaviour>((req, url, behaviour) => {
    const forSeries = behaviour.series?.[url.searchParams.get("id") ?? ""];
    if (forSeries) return forSeries(req);
    if (behaviour.handler) return behaviour.handler(req);
    if (url.pathname !== "/graph/fredgraph.csv") return html("<html><body>Page not found</body></html>", 404);
    return answer(url.searchParams);
  });
}
