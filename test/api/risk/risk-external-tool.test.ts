import { afterAll, beforeAll, expect, test } from "bun:test";
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ApiClient } from "../../helpers/client.ts";
import { OFFLINE_PLUGIN_CONFIG } from "../../helpers/offline-plugins.ts";
import { tempDataDir, useApi } from "../../helpers/server.ts";
import { closes, expectClose, REF } from "../../plugins/risk/reference.ts";
import { seedReferenceAssets } from "./reference-assets.ts";

// A risk tool dropped into PLUGINS_DIR is listed in the catalog and runs in the worker pool, created
// there with its settings from the plugin configuration file (DATA_DIR/plugins.json).
const MULTIPLIER = 1000;
const pluginsDir = mkdtempSync(join(tmpdir(), "pt-risk-plugins-"));
cpSync(join(import.meta.dir, "..", "..", "fixtures", "risk", "plugins", "value-range"), join(pluginsDir, "value-range"), { recursive: true });
const dataDir = tempDataDir();
writeFileSync(join(dataDir, "plugins.json"), JSON.stringify({ ...OFFLINE_PLUGIN_CONFIG, value_range: { multiplier: MULTIPLIER } }));
const api = useApi({ users: ["alice"], env: { PLUGINS_DIR: pluginsDir }, dataDir });
let alice: ApiClient;
let asset: number;

beforeAll(async () => {
  ({ alice } = api.as);
  [asset] = await seedReferenceAssets(api.dataDir, alice, 1);
});
afterAll(() => rmSync(pluginsDir, { recursive: true, force: true }));

test("a PLUGINS_DIR risk tool appears in the catalog and computes on the scope's series with its configured settings", async () => {
  const catalog = (await (await alice.get("/risk/catalog")).json()).items;
  expect(catalog.find((i: any) => i.analytic_code === "value_range")).toMatchObject({ output_kind: "range", supported_scopes: ["asset"] });
  const res = await alice.post("/risk/query", {
    scope: { kind: "asset", asset_id: asset }, date_range: { start: REF.dates[0], end: REF.dates.at(-1) }, mode: "historical",
    analytics: [
      { instance_id: "r", analytic_code: "value_range" },
      { instance_id: "big", analytic_code: "value_range", parameters: { min_points: 100000 } },
    ],
  });
  const items = (await res.json()).items;
  expect(items[0].status).toBe("ok");
  expect(items[0].output.multiplier).toBe(MULTIPLIER);
  expectClose(items[0].output.range, (Math.max(...closes(0)) - Math.min(...closes(0))) * MULTIPLIER);
  expect(items[1]).toMatchObject({ status: "failed", error: { code: "invalid_parameters" } });
});
