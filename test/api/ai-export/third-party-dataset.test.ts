import { afterAll, describe, expect, test } from "bun:test";
import { cpSync } from "node:fs";
import { join } from "node:path";
import { expectError } from "../../helpers/client.ts";
import { useApi } from "../../helpers/server.ts";
import { pluginsDirWith } from "../../plugins-host/fixture-dir.ts";
import { buildFixturePortfolio, FIXTURE_PERIOD } from "./fixture-portfolio.ts";

const plugins = pluginsDirWith([]);
for (const name of ["ai-dataset-extra", "ai-dataset-broken"]) {
  cpSync(join(import.meta.dir, "../../fixtures/tool-plugins", name), join(plugins.dir, name), { recursive: true });
}
afterAll(() => plugins.remove());
const api = useApi({ users: ["alice"], env: { PLUGINS_DIR: plugins.dir } });

describe("a third-party ai-export-dataset plugin", () => {
  test("dropped into PLUGINS_DIR it appears in the catalog with its own version", async () => {
    const catalog = await (await api.client().get("/ai-export/catalog")).json();
    const entry = catalog.datasets.find((d: any) => d.id === "portfolio.cash_only");
    expect(entry).toMatchObject({ kind: "dataset", version: 3, domain: "portfolio", supported_detail_levels: ["compact"], required_component_ids: ["portfolio.summary"] });
    expect(catalog.datasets).toHaveLength(10);
  });

  test("it builds a snapshot from host components, and refuses a detail level it does not support", async () => {
    const fx = await buildFixturePortfolio(api.as.alice, api.dataDir);
    const body = {
      domain: "portfolio", broker_ids: [fx.broker], selection: { kind: "dataset", id: "portfolio.cash_only", version: 3 },
      detail_level: "compact", period: FIXTURE_PERIOD, target_currency: "EUR", expected_catalog_version: 1,
    };
    const res = await api.as.alice.post("/ai-export/snapshot", body);
    expect(res.status).toBe(200);
    const snap = await res.json();
    expect(snap.data["extra.cash"].cash_total).toEqual({ code: "EUR", amount: "10277.4311926606" });
    await expectError(await api.as.alice.post("/ai-export/snapshot", { ...body, detail_level: "full" }), 422, "UNSUPPORTED_SELECTION");
  });

  test("a dataset whose build fails is 503 SNAPSHOT_SOURCE_FAILURE without its message", async () => {
    const res = await api.as.alice.post("/ai-export/snapshot", {
      domain: "portfolio", selection: { kind: "dataset", id: "portfolio.broken", version: 1 },
      detail_level: "compact", period: FIXTURE_PERIOD, target_currency: "EUR", expected_catalog_version: 1,
    });
    const body = await expectError(res, 503, "SNAPSHOT_SOURCE_FAILURE");
    expect(body.params).toMatchObject({ dataset_id: "portfolio.broken", retryable: true });
    expect(JSON.stringify(body)).not.toContain("exploded");
  });
});
