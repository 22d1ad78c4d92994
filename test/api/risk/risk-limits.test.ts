import { beforeAll, expect, test } from "bun:test";
import { ApiClient } from "../../helpers/client.ts";
import { useApi } from "../../helpers/server.ts";
import { REF } from "../../plugins/risk/reference.ts";
import { seedReferenceAssets } from "./reference-assets.ts";

// A 1 ms budget per analytic: a 20,000-path simulation cannot finish in it, so the worker is stopped.
const api = useApi({ users: ["alice"], env: { RISK_ANALYTIC_TIMEOUT_MS: "1" } });
let alice: ApiClient;
let asset: number;

beforeAll(async () => {
  ({ alice } = api.as);
  [asset] = await seedReferenceAssets(api.dataDir, alice, 1);
});

test("an analytic over its time budget answers execution_timeout; the server keeps serving", async () => {
  const res = await alice.post("/risk/query", {
    scope: { kind: "asset", asset_id: asset }, date_range: { start: REF.dates[0], end: REF.dates.at(-1) }, mode: "current_composition",
    composition_policy: "current_buy_and_hold", target_currency: "EUR",
    analytics: [{ instance_id: "m", analytic_code: "simulation", parameters: { paths: 20000, horizon_days: 252 } }],
  });
  expect(res.status).toBe(200);
  const [item] = (await res.json()).items;
  expect(item).toMatchObject({ status: "failed", output: null, error: { code: "execution_timeout", details: { timeout_ms: 1 } } });
  expect((await api.client().get("/system/health")).status).toBe(200);
});
