import { beforeAll, expect, test } from "bun:test";
import { ApiClient } from "../../helpers/client.ts";
import { useApi } from "../../helpers/server.ts";
import { createAsset } from "../transactions/fixtures.ts";

// No task may wait for a worker: every analytic is refused at once with worker_busy.
const api = useApi({ users: ["alice"], env: { RISK_MAX_QUEUED_TASKS: "0" } });
let alice: ApiClient;

beforeAll(() => {
  ({ alice } = api.as);
});

test("a saturated worker pool answers worker_busy per analytic instead of queueing without end", async () => {
  const asset = createAsset(api.dataDir, "EUR");
  const res = await alice.post("/risk/query", {
    scope: { kind: "asset", asset_id: asset }, date_range: { start: "2024-01-01" }, mode: "historical",
    analytics: [{ instance_id: "a", analytic_code: "historical_kpi" }, { instance_id: "b", analytic_code: "nope" }],
  });
  expect(res.status).toBe(200);
  const items = (await res.json()).items;
  expect(items.map((i: any) => [i.instance_id, i.status, i.error.code])).toEqual([["a", "failed", "worker_busy"], ["b", "failed", "analytic_not_found"]]);
  expect(items[0].error.details).toEqual({ retryable: true });
});
