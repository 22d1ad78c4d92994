import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import fixture from "../../fixtures/scheduled-investment/monthly-interest-act365.json";
import { queryDb } from "../../helpers/seed.ts";
import { queryRows } from "../../helpers/test-db.ts";
import { currentPrices, type PricesEnv, postJson, startPricesEnv, todayUtc } from "./prices-fixtures.ts";

// A scheduled-investment (parametric) provider: prices from generatePrices, events from generateEvents.
let env: PricesEnv;

function seedScheduledAsset(dataDir: string): { assetId: number; assignmentId: number } {
  const [{ id }] = queryRows<{ id: number }>(dataDir, `INSERT INTO assets (name, currency) VALUES ('Bond', 'EUR') RETURNING id`) as [{ id: number }];
  const [row] = queryRows<{ id: number }>(dataDir, `INSERT INTO asset_provider_assignments (asset_id, provider_code, identifier, identifier_type, provider_params)
      VALUES (?, 'scheduled_investment', ?, 'AUTO_GENERATED', ?) RETURNING id`, [id, crypto.randomUUID(), JSON.stringify(fixture.params)]);
  return { assetId: id, assignmentId: row!.id };
}

beforeAll(async () => { env = await startPricesEnv(); });
afterAll(() => env.stop());

describe("sync of a scheduled-investment provider: generatePrices and generateEvents under the assignment", () => {
  test("generated values become prices and generated events are stored; a re-sync keeps the events' ids", async () => {
    const { assetId, assignmentId } = seedScheduledAsset(env.server.dataDir);
    const sync = () => postJson(env.c, "/assets/prices/sync", [{ asset_id: assetId, date_range: { start: "min", end: fixture.range.to } }]);
    const [first] = (await sync()).results;
    expect(first).toMatchObject({ status: "ok", provider_used: "scheduled_investment", points_fetched: fixture.prices.count, events_fetched: 4, events_changed: 4 });
    const at = (date: string) => queryDb<{ close: string; source_plugin_key: string; provider_assignment_id: number }>(env.server.dataDir,
      `SELECT close, source_plugin_key, provider_assignment_id FROM price_history WHERE asset_id = ? AND date = ?`, assetId, date)[0];
    for (const point of fixture.prices.at) expect(at(point.date)?.close).toBe(point.value);
    expect(at("2024-02-14")).toEqual({ close: "10030.00", source_plugin_key: "scheduled_investment", provider_assignment_id: assignmentId });
    const events = () => queryDb<{ id: number; date: string; type: string; value: string; provider_assignment_id: number }>(env.server.dataDir,
      `SELECT id, date, type, value, provider_assignment_id FROM asset_events WHERE asset_id = ? ORDER BY date, type`, assetId);
    const before = events();
    expect(before.map((e) => [e.date, e.type, e.value])).toEqual(fixture.events.map((e) => [e.date, e.type, e.value]));
    expect(before.every((e) => e.provider_assignment_id === assignmentId)).toBe(true);
    const [second] = (await sync()).results;
    expect(second).toMatchObject({ status: "ok", points_changed: 0, events_changed: 0 });
    expect(events().map((e) => e.id)).toEqual(before.map((e) => e.id));
  });

  test("its current value is today's generated value, with source provider:scheduled_investment", async () => {
    const { assetId } = seedScheduledAsset(env.server.dataDir);
    const [item] = (await currentPrices(env.c, [assetId])).results;
    expect(item).toEqual({ asset_id: assetId, value: "10000.00", currency: "EUR", as_of_date: todayUtc(), source: "provider:scheduled_investment", error: null });
  });
});
