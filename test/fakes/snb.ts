/**
 * A local fake of the SNB data portal's cube CSV export, answering from test/fixtures/snb/ the way the
 * portal does:
 * - `GET /api/cube/devkum/data/csv/en?fromDate=YYYY-MM&toDate=YYYY-MM` answers
 *   `devkum-2023-11-2024-03.csv` with its header lines and only the rows of the months asked for (a
 *   window outside the fixture is the header lines alone);
 * - another cube answers 404 with a JSON error, a missing or unreadable month 400.
 * `behave()` replaces every answer (see `snbFailures`) or delays it. Every request is logged.
 */

import { type Handler, type ScriptedUpstream, startScriptedUpstream, type UpstreamBehaviour } from "./scripted-upstream.ts";

const FIXTURE = new URL("../fixtures/snb/devkum-2023-11-2024-03.csv", import.meta.url);

export type SnbBehaviour = UpstreamBehaviour;

export type FakeSnb = ScriptedUpstream<SnbBehaviour>;

function csv(body: string, status = 200): Response {
  return new Response(body, { headers: { "content-type": "text/csv;charset=UTF-8" }, status });
}

function json(body: unknown, status: number): Response {
  return new Response(JSON.stringify(body), { headers: { "content-type": "application/json" }, status });
}

/** Deviations of the real service, for `behave({ handler: snbFailures.rateLimited })`. */
export const snbFailures = {
  /** An answer that takes 1.5 s, longer than any timeout the tests configure. */
  hang: (async () => {
    await Bun.sleep(1500);
    return csv('"CubeId";"devkum"\n');
  }) as Handler,
  /** A maintenance page with status 200 instead of the CSV. */
  htmlPage: (() => new Response("<!DOCTYPE html><html><body><h1>data.snb.ch is under maintenance</h1></body></html>", { headers: { "content-type": "text/html" } })) as Handler,
  /** The CSV with a row cut short. */
  malformed: (() => csv('"CubeId";"devkum"\n\n"Date";"D0";"D1";"Value"\n"2024-01";"M1";"EUR1";"0.9383"\n"2024-02";"M1"')) as Handler,
  rateLimited: (() => json({ message: "Too many requests" }, 429)) as Handler,
  serverError: (() => json({ message: "Internal Server Error" }, 500)) as Handler,
};

async function answer(query: URLSearchParams): Promise<Response> {
  const from = query.get("fromDate") ?? "";
  const to = query.get("toDate") ?? "";
  if (!/^\d{4}-\d{2}$/.test(from) || !/^\d{4}-\d{2}$/.test(to)) return json({ message: "invalid date" }, 400);
  const lines = (await Bun.file(FIXTURE).text()).trimEnd().split("\n");
  const start = lines.findIndex((line) => line.startsWith('"Date"'));
  const rows = lines.slice(start + 1).filter((line) => {
    const month = line.slice(1, 8);
    return month >= from && month <= to;
  });
  return csv([...lines.slice(0, start + 1), ...rows].join("\n") + "\n");
}

/** Starts the fake on a free port of 127.0.0.1. */
export function startFakeSnb(): FakeSnb {
  return startScriptedUpstream<SnbBehaviour>((req, url, behaviour) => {
    if (behaviour.handler) return behaviour.handler(req);
    if (url.pathname !== "/api/cube/devkum/data/csv/en") return json({ message: "cube not found" }, 404);
    return answer(url.searchParams);
  });
}
