/**
 * A local fake of the Bank of England database's CSV export, answering from test/fixtures/boe/ the
 * way the site does:
 * - `GET /boeapps/database/_iadb-fromshowcolumns.asp?csv.x=yes&Datefrom=02/Jan/2024&Dateto=...&SeriesCodes=A,B&CSVF=TN...`
 *   answers `xudl-2024-01.csv` cut to the days from `Datefrom` to `Dateto` and to the requested
 *   series columns, in request order; a range without published days is the header alone;
 * - an unknown series code or an unreadable date answers the site's HTML error page with status 200.
 * `behave()` replaces every answer (see `boeFailures`) or delays it. Every request is logged.
 */

import { type Handler, type ScriptedUpstream, startScriptedUpstream, type UpstreamBehaviour } from "./scripted-upstream.ts";

const FIXTURES = new URL("../fixtures/boe/", import.meta.url);
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

export type BoeBehaviour = UpstreamBehaviour;

export type FakeBoe = ScriptedUpstream<BoeBehaviour, { path: string; query: Record<string, string>; rawQuery: string }>;

async function fixture(name: string): Promise<string> {
  return Bun.file(new URL(name, FIXTURES)).text();
}

async function errorPage(): Promise<Response> {
  return new Response(await fixture("error-page.html"), { headers: { "content-type": "text/html; charset=utf-8" } });
}

function csv(body: string, status = 200): Response {
  return new Response(body, { headers: { "content-type": "text/csv" }, status });
}

/** Deviations of the real service, for `behave({ handler: boeFailures.rateLimited })`. */
export const boeFailures = {
  /** The HTML error page with status 200, as the site answers a request it cannot serve. */
  htmlPage: (() => errorPage()) as Handler,
  /** An answer that takes 1.5 s, longer than any timeout the tests configure. */
  hang: (async () => {
    await Bun.sleep(1500);
    return csv("DATE,XUDLUSS\n");
  }) as Handler,
  /** A CSV cut short mid-row, so a row has too few cells. */
  malformed: (() => csv("DATE,XUDLUSS,XUDLERS\n02 Jan 2024,1.2654,1.1537\n03 Jan 2024,1.26")) as Handler,
  rateLimited: (() => new Response("Too Many Requests", { headers: { "content-type": "text/plain" }, status: 429 })) as Handler,
  serverError: (() => new Response("<html><body>Service Unavailable</body></html>", { headers: { "content-type": "text/html" }, status: 500 })) as Handler,
};

/** `02/Jan/2024` as a sortable `2024-01-02`, or undefined. */
function queryDay(text: string | null): string | undefined {
  const match = /^(\d{2})\/([A-Z][a-z]{2})\/(\d{4})$/.exec(text ?? "");
  const month = match ? MONTHS.indexOf(match[2]!) : -1;
  return match && month >= 0 ? `${match[3]}-${String(month + 1).padStart(2, "0")}-${match[1]}` : undefined;
}

function csvDay(text: string): string {
  const [day, month, year] = text.split(" ");
  return `${year}-${String(MONTHS.indexOf(month!) + 1).padStart(2, "0")}-${day}`;
}

async function answer(query: URLSearchParams): Promise<Response> {
  const from = queryDay(query.get("Datefrom"));
  const to = queryDay(query.get("Dateto"));
  const codes = (query.get("SeriesCodes") ?? "").split(",").filter(Boolean);
  const [header, ...rows] = (await fixture("xudl-2024-01.csv")).trim().split("\n").map((line) => line.split(","));
  const columns = codes.map((code) => header!.indexOf(code));
  if (!from || !to || !codes.length || columns.includes(-1) || query.get("csv.x") !== "yes") return errorPage();
  const inside = rows.filter((row) => csvDay(row[0]!) >= from && csvDay(row[0]!) <= to);
  const pick = (row: string[]) => [row[0], ...columns.map((i) => row[i])].join(",");
  return csv([pick(header!), ...inside.map(pick)].join("\n") + "\n");
}

/** Starts the fake on a free port of 127.0.0.1. */
export function startFakeBoe(): FakeBoe {
  return startScriptedUpstream<BoeBehaviour, FakeBoe["log"][number]>(
    (req, url, behaviour) => {
      if (behaviour.handler) return behaviour.handler(req);
      if (url.pathname !== "/boeapps/database/_iadb-fromshowcolumns.asp") return new Response("Not Found", { status: 404 });
      return answer(url.searchParams);
    },
    (url) => ({ path: url.pathname, query: Object.fromEntries(url.searchParams), rawQuery: url.search.slice(1) }),
  );
}
