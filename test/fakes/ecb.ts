/**
 * A local fake of the ECB Data Portal's SDMX REST API, answering from test/fixtures/ecb/ the way the
 * portal does:
 * - `GET /service/data/EXR/D.USD+JPY.EUR.SP00.A?format=jsondata&startPeriod=&endPeriod=` answers the
 *   recorded SDMX-JSON (CHF, GBP, JPY, USD over 2024-01-02..2024-01-12, TARGET days only) cut to the
 *   currencies of the key and the days of the range, with the CURRENCY and TIME_PERIOD values and the
 *   indices of series keys and observations rebuilt as the portal numbers them;
 * - a key or range without observations answers 404 with the text "No results found.", another
 *   dataflow 404 with an HTML page, a key of another shape 400.
 * `behave()` replaces every answer (see `ecbFailures`) or delays it. Every request is logged.
 */

import { type Handler, type ScriptedUpstream, startScriptedUpstream, type UpstreamBehaviour } from "./scripted-upstream.ts";

const FIXTURES = new URL("../fixtures/ecb/", import.meta.url);
const RECORDED = "exr-d-chf-gbp-jpy-usd-2024-01-02-2024-01-12.json";

export type EcbBehaviour = UpstreamBehaviour;

export type FakeEcb = ScriptedUpstream<EcbBehaviour>;

interface Dimension {
  id: string;
  values: Array<{ id: string }>;
}

interface Recorded {
  dataSets: Array<{ series: Record<string, { observations: Record<string, unknown[]> }> }>;
  structure: { dimensions: { observation: Dimension[]; series: Dimension[] } };
}

function text(body: string, status: number, type = "text/plain;charset=UTF-8"): Response {
  return new Response(body, { headers: { "content-type": type }, status });
}

async function noResults(): Promise<Response> {
  return text(await Bun.file(new URL("no-results.txt", FIXTURES)).text(), 404);
}

/** Deviations of the real service, for `behave({ handler: ecbFailures.rateLimited })`. */
export const ecbFailures = {
  /** An answer that takes 1.5 s, longer than any timeout the tests configure. */
  hang: (async () => {
    await Bun.sleep(1500);
    return noResults();
  }) as Handler,
  /** A maintenance page with status 200 instead of the JSON. */
  htmlPage: (() => text("<!DOCTYPE html><html><body><h1>ECB Data Portal: scheduled maintenance</h1></body></html>", 200, "text/html")) as Handler,
  /** The SDMX-JSON cut short mid-document. */
  malformed: (() => text('{"header":{"id":"x"},"dataSets":[{"action":"Replace","series":{"0:0:0:0:0":{"observations":{"0":[1.09', 200, "application/json")) as Handler,
  rateLimited: (() => text("Too Many Requests", 429)) as Handler,
  serverError: (() => text("Internal Server Error", 500)) as Handler,
};

/** The recorded answer cut to `currencies` and `from`..`to`, or undefined when nothing is left. */
async function cut(currencies: readonly string[], from: string, to: string): Promise<Recorded | undefined> {
  const recorded = (await Bun.file(new URL(RECORDED, FIXTURES)).json()) as Recorded;
  const [freq, currency, ...rest] = recorded.structure.dimensions.series;
  const [time] = recorded.structure.dimensions.observation;
  const kept: Array<{ currency: { id: string }; entry: object; observations: Array<[string, unknown[]]> }> = [];
  for (const [key, entry] of Object.entries(recorded.dataSets[0]!.series)) {
    const value = currency!.values[Number(key.split(":")[1])]!;
    if (!currencies.includes(value.id)) continue;
    const observations = Object.entries(entry.observations)
      .map(([index, obs]): [string, unknown[]] => [time!.values[Number(index)]!.id, obs])
      .filter(([day]) => day >= from && day <= to);
    if (observations.length) kept.push({ currency: value, entry, observations });
  }
  if (!kept.length) return undefined;
  const days = [...new Set(kept.flatMap((k) => k.observations.map(([day]) => day)))].sort();
  const series = Object.fromEntries(
    kept.map((k, i) => [
      `0:${i}:0:0:0`,
      { ...k.entry, observations: Object.fromEntries(k.observations.map(([day, obs]) => [String(days.indexOf(day)), obs])) },
    ]),
  );
  return {
    ...recorded,
    dataSets: [{ ...recorded.dataSets[0]!, series }],
    structure: {
      ...recorded.structure,
      dimensions: {
        observation: [{ ...time!, values: time!.values.filter((v) => days.includes(v.id)) }],
        series: [freq!, { ...currency!, values: kept.map((k) => k.currency) }, ...rest],
      },
    },
  };
}

async function answer(url: URL): Promise<Response> {
  const match = /^\/service\/data\/EXR\/D\.([A-Z]{3}(?:\+[A-Z]{3})*)\.EUR\.SP00\.A$/.exec(url.pathname);
  if (!url.pathname.startsWith("/service/data/EXR/")) return text("<html><body>Not Found</body></html>", 404, "text/html");
  if (!match) return text("Syntax error: invalid series key", 400);
  const from = url.searchParams.get("startPeriod") ?? "0000-00-00";
  const to = url.searchParams.get("endPeriod") ?? "9999-99-99";
  const body = await cut(match[1]!.split("+"), from, to);
  if (!body) return noResults();
  return text(JSON.stringify(body), 200, "application/json");
}

/** Starts the fake on a free port of 127.0.0.1. */
export function startFakeEcb(): FakeEcb {
  return startScriptedUpstream<EcbBehaviour>((req, url, behaviour) => (behaviour.handler ? behaviour.handler(req) : answer(url)));
}
