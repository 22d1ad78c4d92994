import { beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expectError } from "../../helpers/client.ts";
import { seedAsset } from "../../helpers/seed.ts";
import { useApi } from "../../helpers/server.ts";
import { looseBroker } from "../transactions/fixtures.ts";
import { buildFixturePortfolio, FIXTURE_PERIOD, type FixturePortfolio } from "./fixture-portfolio.ts";

const api = useApi({ users: ["alice", "bob"] });
const GOLDEN = join(import.meta.dir, "../../fixtures/ai-export/golden");
const UPDATE = process.env.UPDATE_GOLDEN === "1";

let fx: FixturePortfolio;
let catalog: any;

beforeAll(async () => {
  fx = await buildFixturePortfolio(api.as.alice, api.dataDir);
  catalog = await (await api.client().get("/ai-export/catalog")).json();
});

function selectionOf(id: string) {
  const d = catalog.datasets.find((x: any) => x.id === id);
  if (d) return { kind: "dataset", id, version: d.version };
  const a = catalog.analyses.find((x: any) => x.id === id);
  return {
    kind: "analysis", id, version: a.version, instruction_template_id: a.instruction_template_id, instruction_template_version: a.instruction_template_version,
    response_contract_id: a.response_contract_id, response_contract_version: a.response_contract_version,
  };
}

function scopeOf(id: string): Record<string, unknown> {
  const domain = id.split(".")[0];
  if (domain === "portfolio") return { domain, broker_ids: [fx.broker] };
  if (domain === "broker") return { domain, broker_id: fx.broker };
  if (domain === "asset") return { domain, asset_id: fx.usdAsset, broker_ids: [fx.broker] };
  return { domain, base_currency: "EUR", quote_currency: "USD", broker_ids: [fx.broker] };
}

async function snapshot(id: string, extra: Record<string, unknown> = {}, client = api.as.alice) {
  return client.post("/ai-export/snapshot", {
    ...scopeOf(id), selection: selectionOf(id), detail_level: "standard", period: FIXTURE_PERIOD, target_currency: "EUR",
    expected_catalog_version: catalog.catalog_version, ...extra,
  });
}

async function ok(id: string, extra: Record<string, unknown> = {}) {
  const res = await snapshot(id, extra);
  if (res.status !== 200) throw new Error(`${id}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<any>;
}

const PUBLIC_DATASETS = [
  "asset.market_history", "asset.position_and_history", "broker.asset_history", "broker.overview_and_history",
  "fx.market_and_exposure", "fx.market_history", "portfolio.asset_history", "portfolio.overview_and_history",
];

describe("GET /ai-export/catalog", () => {
  test("public: the 8 datasets and 11 analyses, each with an id, a version and the catalog's fields", async () => {
    const res = await api.client().get("/ai-export/catalog");
    expect(res.status).toBe(200);
    expect(catalog.schema_version).toBe(1);
    expect(catalog.datasets.map((d: any) => d.id)).toEqual(PUBLIC_DATASETS);
    expect(catalog.analyses.map((a: any) => a.id).sort()).toEqual([
      "asset.market_analysis", "asset.position_review", "broker.fiscal_lots", "broker.performance_market_drivers", "broker.review",
      "fx.exposure_impact", "fx.pair_analysis", "portfolio.fiscal_lots", "portfolio.pac_planning", "portfolio.performance_market_drivers",
      "portfolio.rebalancing",
    ]);
    for (const d of catalog.datasets) {
      expect(d.kind).toBe("dataset");
      expect(d.version).toBeGreaterThan(0);
      expect(d.supported_detail_levels).toEqual(["compact", "standard", "full"]);
      expect(d.required_component_ids.length).toBeGreaterThan(0);
    }
    const review = catalog.analyses.find((a: any) => a.id === "asset.position_review");
    expect(review).toMatchObject({ applicability_code: "requires_position", instruction_template_id: "asset.position_review.instructions", response_contract_id: "asset.position_review.response" });
  });

  test("the catalogue holds no user data", async () => {
    const text = JSON.stringify(catalog);
    expect(text).not.toContain("alice");
    expect(text).not.toContain("Fixture broker");
  });
});

describe("POST /ai-export/snapshot: versioning", () => {
  test("golden files pin each dataset's output on the fixture portfolio", async () => {
    for (const id of PUBLIC_DATASETS) {
      const body = await ok(id);
      const pinned = { selection: body.selection, catalog_version: body.catalog_version, period: body.period, target_currency: body.target_currency, detail_level: body.detail_level, data: body.data, markdown: body.markdown };
      // ids of the fixture's rows depend on insertion order only; they are the same on every run
      const file = join(GOLDEN, `${id}.json`);
      if (UPDATE || !existsSync(file)) writeFileSync(file, `${JSON.stringify(pinned, null, 2)}\n`);
      expect(pinned).toEqual(JSON.parse(readFileSync(file, "utf8")));
    }
  });

  test("a selection version other than the catalog's is 409 VERSION_MISMATCH", async () => {
    const res = await snapshot("portfolio.overview_and_history", { selection: { kind: "dataset", id: "portfolio.overview_and_history", version: 99 } });
    const body = await expectError(res, 409, "VERSION_MISMATCH");
    expect(body.params).toMatchObject({ field: "selection.version", expected: 1, actual: 99 });
    const a = selectionOf("portfolio.pac_planning");
    await expectError(await snapshot("portfolio.pac_planning", { selection: { ...a, instruction_template_version: 2 } }), 409, "VERSION_MISMATCH");
  });

  test("an expected_catalog_version other than the current one is 409 CATALOG_VERSION_MISMATCH", async () => {
    await expectError(await snapshot("portfolio.overview_and_history", { expected_catalog_version: 0 }), 409, "CATALOG_VERSION_MISMATCH");
  });

  test("unknown selections, a selection of another domain and internal datasets are 422 UNSUPPORTED_SELECTION", async () => {
    await expectError(await snapshot("portfolio.overview_and_history", { selection: { kind: "dataset", id: "portfolio.nope", version: 1 } }), 422, "UNSUPPORTED_SELECTION");
    await expectError(await snapshot("portfolio.overview_and_history", { selection: { kind: "dataset", id: "fx.market_history", version: 1 } }), 422, "UNSUPPORTED_SELECTION");
    await expectError(await snapshot("portfolio.overview_and_history", { selection: { kind: "dataset", id: "portfolio.fifo", version: 1 } }), 422, "UNSUPPORTED_SELECTION");
  });

  test("snapshots need a session", async () => {
    await expectError(await snapshot("portfolio.overview_and_history", {}, api.client()), 401, "NOT_AUTHENTICATED");
  });
});

describe("POST /ai-export/snapshot: numbers come from the engines", () => {
  test("portfolio.summary equals POST /portfolio/report for the same brokers, period and currency", async () => {
    const body = await ok("portfolio.overview_and_history", { detail_level: "full" });
    const report = await (await api.as.alice.post("/portfolio/report", {
      broker_ids: [fx.broker], date_range: FIXTURE_PERIOD, target_currency: "EUR", include_allocation_history: false,
    })).json();
    const s = body.data["portfolio.summary"];
    for (const key of ["net_worth", "market_value", "cash_total", "total_gain_loss", "twrr_percent", "mwrr_annualized_percent", "period_pnl", "open_cost_basis"]) {
      expect(s[key]).toEqual(report.summary[key]);
    }
    const lastReport = report.history.at(-1);
    const lastSnap = body.data["portfolio.history"].at(-1);
    expect(lastSnap.nav).toEqual(lastReport.nav_value);
    expect(body.data["portfolio.history"]).toHaveLength(report.history.length);
    const held = report.summary.holdings.map((h: any) => h.current_value);
    expect(body.data["portfolio.holdings"].map((h: any) => h.value.amount)).toEqual(held);
  });

  test("asset.lots equals the lots analysis for the same asset, brokers and period", async () => {
    const body = await ok("asset.position_and_history", { detail_level: "full", asset_id: fx.eurAsset });
    const lots = await (await api.as.alice.post("/portfolio/lots/analysis", {
      asset_id: fx.eurAsset, broker_ids: [fx.broker], date_range: FIXTURE_PERIOD, target_currency: "EUR", requested_analyses: ["LOT_SUMMARY"],
    })).json();
    const snap = body.data["asset.lots"].lots;
    expect(snap).toHaveLength(lots.lots.length);
    snap.forEach((l: any, i: number) => {
      expect(l.open_quantity).toBe(lots.lots[i].open_quantity);
      expect(l.original_cost.amount).toBe(lots.lots[i].original_cost);
      expect(l.realized_pnl.amount).toBe(lots.lots[i].realized_pnl);
    });
  });

  test("compact fits a small context window: the fixture's markdown stays under 2,000 tokens (8,000 characters)", async () => {
    const body = await ok("portfolio.overview_and_history", { detail_level: "compact" });
    expect(body.markdown.length).toBeLessThan(8000);
    const full = await ok("portfolio.overview_and_history", { detail_level: "full" });
    expect(full.data["portfolio.history"].length).toBeGreaterThan(body.data["portfolio.history"].length);
  });

  test("an analysis snapshot carries its instruction template and response contract in the markdown", async () => {
    const body = await ok("portfolio.pac_planning", { user_notes: "Targets: 60% ETF, 40% stock" });
    expect(body.markdown).toContain("## Instructions");
    expect(body.markdown).toContain("## Response contract");
    expect(body.markdown).toContain("Targets: 60% ETF, 40% stock");
    expect(body.data["portfolio.summary"]).toBeDefined();
  });

  test("an unknown asset is 404; an analysis that needs a position is 422 SELECTION_NOT_APPLICABLE for an asset not held", async () => {
    const res = await api.as.alice.post("/ai-export/snapshot", {
      domain: "asset", asset_id: fx.eurAsset + 1000, broker_ids: [fx.broker], selection: selectionOf("asset.position_review"),
      detail_level: "compact", period: FIXTURE_PERIOD, target_currency: "EUR", expected_catalog_version: 1,
    });
    await expectError(res, 404, "ASSET_NOT_FOUND");
    const neverBought = seedAsset(api.dataDir, { name: "Never bought", currency: "EUR" });
    const notHeld = await api.as.alice.post("/ai-export/snapshot", {
      domain: "asset", asset_id: neverBought, broker_ids: [fx.broker], selection: selectionOf("asset.position_review"),
      detail_level: "compact", period: FIXTURE_PERIOD, target_currency: "EUR", expected_catalog_version: 1,
    });
    const body = await expectError(notHeld, 422, "SELECTION_NOT_APPLICABLE");
    expect(body.params.applicability_code).toBe("requires_position");
    // the same asset's market analysis has no such requirement
    expect((await snapshot("asset.market_analysis", { asset_id: neverBought })).status).toBe(200);
  });
});

describe("POST /ai-export/snapshot: privacy", () => {
  test("a broker without an access row never appears: 404 BROKER_NOT_FOUND", async () => {
    const theirs = await looseBroker(api.as.bob, "Bob's secret broker");
    await expectError(await snapshot("portfolio.overview_and_history", { broker_ids: [theirs] }), 404, "BROKER_NOT_FOUND");
    await expectError(await snapshot("broker.overview_and_history", { broker_id: theirs }), 404, "BROKER_NOT_FOUND");
    // without broker_ids only the caller's brokers are read
    const mine = await ok("portfolio.overview_and_history", { broker_ids: undefined });
    expect(JSON.stringify(mine)).not.toContain("Bob's secret broker");
  });

  test("no user ids, emails or user names in a snapshot", async () => {
    const body = await ok("portfolio.overview_and_history", { detail_level: "full" });
    const text = JSON.stringify(body);
    expect(text).not.toContain("alice");
    expect(text).not.toContain("@example.com");
    expect(text).not.toMatch(/user_?id/i);
  });

  test("mask_amounts leaves shares and percentages only", async () => {
    const body = await ok("portfolio.overview_and_history", { mask_amounts: true, detail_level: "full" });
    const walk = (v: unknown): void => {
      if (Array.isArray(v)) return v.forEach(walk);
      if (v && typeof v === "object") {
        expect("amount" in v && "code" in v).toBe(false);
        for (const [k, x] of Object.entries(v)) {
          expect(k).not.toMatch(/quantity/);
          walk(x);
        }
      }
    };
    walk(body.data);
    expect(body.data["portfolio.summary"].twrr_percent).toBeDefined();
    expect(body.data["portfolio.holdings"][0].weight_percent).toBeDefined();
    expect(body.markdown).toContain("amounts: masked");
    expect(body.markdown).not.toMatch(/\d EUR/);
  });
});
