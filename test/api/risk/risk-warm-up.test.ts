import { beforeAll, expect, test } from "bun:test";
import os from "node:os";
import { ApiClient } from "../../helpers/client.ts";
import { useApi } from "../../helpers/server.ts";
import { expectClose, REF } from "../../plugins/risk/reference.ts";
import { seedReferenceAssets } from "./reference-assets.ts";

// After start-up, every pool thread is warmed for risk queries in the background (docs/risk.md
// "Performance"), on a synthetic ledger: the caller's data and answers are untouched.
const api = useApi({ users: ["alice"], env: { RISK_WARM_UP: "1" } });
let alice: ApiClient;
let asset: number;

beforeAll(async () => {
  ({ alice } = api.as);
  [asset] = await seedReferenceAssets(api.dataDir, alice, 1);
});

test("the risk warm-up runs once on every pool thread after start, and queries answer from the caller's data", async () => {
  const warmed = await Promise.race([api.server.waitForLog("risk workers warmed"), api.server.waitForLog("risk worker warm-up failed")]);
  expect({ msg: warmed.msg, reason: warmed.reason }).toEqual({ msg: "risk workers warmed", reason: undefined });
  // The general pool: one thread per core but one (host/workers/pool.ts).
  expect(warmed.threads).toBe(Math.max(1, os.availableParallelism() - 1));
  const res = await alice.post("/risk/query", {
    scope: { kind: "asset", asset_id: asset }, date_range: { start: REF.dates[0], end: REF.dates.at(-1) }, mode: "historical",
    analytics: [{ instance_id: "k", analytic_code: "historical_kpi", parameters: { risk_free_rate: REF.risk_free_rate } }],
  });
  const [item] = (await res.json()).items;
  expect(item.status).toBe("ok");
  for (const k of ["annualized_return", "annualized_volatility", "sharpe_ratio", "max_drawdown"]) expectClose(item.output.metrics[k], REF.kpi.Alpha[k]);
  expect(item.metadata).toMatchObject({ observations_start: REF.dates[0], observations_end: REF.dates.at(-1) });
});

test("the report thread is warmed after start on the synthetic ledger, and a report answers from the caller's data only", async () => {
  const warmed = await Promise.race([api.server.waitForLog("report worker warmed"), api.server.waitForLog("report worker warm-up failed")]);
  expect({ msg: warmed.msg, reason: warmed.reason, history_points: warmed.history_points })
    .toEqual({ msg: "report worker warmed", reason: undefined, history_points: 730 });
  const res = await alice.post("/portfolio/report", {
    target_currency: "EUR", include_summary: true, include_history: false, include_allocation_history: false,
  });
  expect(res.status).toBe(200);
  const body = await res.json();
  // Alice has no broker: nothing of the warm-up's two brokers and eight assets shows.
  expect(JSON.stringify(body)).not.toContain("Warm-up");
  expect(body.summary.net_worth.amount).toMatch(/^0(\.0+)?$/);
});
