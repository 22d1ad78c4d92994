/**
 * The HTTP tier of the portfolio fixtures: one smoke test per report section on a real server
 * (`POST /api/v1/portfolio/report`: session, validation, scope, worker pool, cache, gzip). The
 * same fixture is seeded into the server and in process; each section the server sends must be
 * the engine's in-process answer (fixtures.test.ts runs every fixture that way), and the summary
 * must also meet the fixture's hand-checked expectations.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startInProcess, type InProcessApp } from "../helpers/in-process.ts";
import { startServer, type TestServer } from "../helpers/server.ts";
import { fixture } from "../fixtures/portfolios/two-currencies-two-step-fx-route.ts";
import {
  compareReport, engineReport, formatMismatches, report, requestBody, seed, type Seeded,
} from "./fixture-runner.ts";
import type { ExpectedReport } from "./fixture-types.ts";

let server: TestServer;
let app: InProcessApp;
let overHttp: Seeded;
let inProcess: Seeded;

beforeAll(async () => {
  [server, app] = await Promise.all([startServer(), startInProcess()]);
  overHttp = await seed(fixture, server);
  inProcess = await seed(fixture, app);
}, 60_000);

afterAll(async () => {
  await server?.stop(true);
  await app?.close();
});

const user = fixture.setup.users[0]!;
const NONE = { include_summary: false, include_history: false, include_allocation_history: false, include_breakdown: false, include_positions_contribution: false };

/** The server's and the engine's answer to the fixture's request with only `sections` on. */
async function both(sections: Record<string, boolean>): Promise<{ http: any; engine: any }> {
  expect(overHttp.assetIds).toEqual(inProcess.assetIds);
  expect(overHttp.brokerIds).toEqual(inProcess.brokerIds);
  const body = { ...requestBody(fixture, overHttp), ...NONE, ...sections };
  const http = await report(overHttp.clients[user]!, body);
  const engine = await engineReport(app, inProcess.userIds[user]!, body);
  for (const b of [http, engine]) delete b.metadata.generated_at;
  return { http, engine };
}

test("summary: the server's equals the engine's and meets the fixture", async () => {
  const { http, engine } = await both({ include_summary: true });
  expect(http.summary).not.toBeNull();
  expect(http.history).toBeNull();
  expect(http).toEqual(engine);
  const expected = { ...(fixture.expected as ExpectedReport), history: [] };
  const mismatches = compareReport(http, expected, fixture.request.target_currency, overHttp);
  if (mismatches.length) throw new Error(formatMismatches(fixture.name, user, mismatches));
}, 60_000);

test("history: one point per day, equal to the engine's", async () => {
  const { http, engine } = await both({ include_history: true });
  expect(http.history.length).toBeGreaterThan(1);
  expect(http.history[0].date).toBe((fixture.expected as ExpectedReport).period.start);
  expect(http).toEqual(engine);
}, 60_000);

/** The other sections: present, and equal to the engine's answer. */
const SECTIONS: [string, Record<string, boolean>, (body: any) => boolean][] = [
  ["allocation history", { include_allocation_history: true }, (b) => b.allocation_history !== null],
  ["breakdown (summary.by_broker)", { include_summary: true, include_breakdown: true }, (b) => b.summary.by_broker?.length > 0],
  ["positions contribution", { include_positions_contribution: true }, (b) => b.positions_contribution !== null],
];
for (const [name, sections, present] of SECTIONS) {
  test(`${name}: equal to the engine's`, async () => {
    const { http, engine } = await both(sections);
    expect(present(http)).toBe(true);
    expect(http).toEqual(engine);
  }, 60_000);
}
