import { beforeAll, describe, expect, test } from "bun:test";
import fixture from "../../fixtures/scheduled-investment/monthly-interest-act365.json";
import { expectError } from "../../helpers/client.ts";
import { queryDb } from "../../helpers/seed.ts";
import { useApi } from "../../helpers/server.ts";

// No silent rounding in a scheduled investment either: every amount and rate of its provider_params
// stays within the supported range of decimals (docs/errors.md), or the assignment is refused with 422.

const api = useApi({ users: ["alice"] });
const AMOUNT_LIMIT = "outside the supported range of amounts: at most 16 digits before the decimal point, 18 after and 30 in all";
const RATE_LIMIT = "outside the supported range of rates: at most 16 digits before the decimal point, 18 after and 30 in all";
const TOO_LONG = "12345678901234567"; // 17 digits before the point: one too many
const TOO_FINE_RATE = `0.${"0".repeat(18)}1`; // 19 decimals: one too many
const LARGEST = "9999999999999999"; // 16 digits before the point
const FINEST_RATE = "0.035000000000000001"; // 18 decimals
const c = () => api.as.alice!;

let assets: number[] = [];

beforeAll(async () => {
  const res = await c().post("/assets", [1, 2, 3].map((n) => ({ name: `Bond ${n}`, currency: "EUR" })));
  assets = (await res.json()).results.map((r: { asset_id: number }) => r.asset_id);
});

type Params = Omit<typeof fixture.params, "asset_events"> & { asset_events: unknown[]; late_interest?: unknown };
const params = (change: (p: Params) => void): Params => {
  const copy = structuredClone(fixture.params) as Params;
  change(copy);
  return copy;
};
const item = (assetId: number, providerParams: Params) => ({
  asset_id: assetId, provider_code: "scheduled_investment", identifier: "", identifier_type: "AUTO_GENERATED", provider_params: providerParams,
});
const assignments = () => queryDb<{ asset_id: number; provider_params: string }>(api.dataDir,
  "SELECT asset_id, provider_params FROM asset_provider_assignments ORDER BY asset_id");

/** Expects 422 VALIDATION_ERROR whose one issue is `limit` at `loc` (type out_of_range), and nothing written. */
async function refused(res: Response, loc: (string | number)[], limit: string) {
  const body = await expectError(res, 422, "VALIDATION_ERROR");
  expect(body.detail).toEqual([{ loc, msg: limit, type: "out_of_range" }]);
  expect(assignments()).toEqual([]);
}

describe("scheduled-investment provider_params outside the supported range of decimals are refused with 422", () => {
  test("an initial_value.amount with 17 integer digits", async () => {
    const res = await c().post("/assets/provider", [item(assets[0]!, params((p) => { p.initial_value.amount = TOO_LONG; }))]);
    await refused(res, ["body", 0, "provider_params", "initial_value", "amount"], AMOUNT_LIMIT);
  });

  test("a schedule annual_rate with 19 decimals", async () => {
    const res = await c().post("/assets/provider", [item(assets[0]!, params((p) => { p.schedule[0]!.annual_rate = TOO_FINE_RATE; }))]);
    await refused(res, ["body", 0, "provider_params", "schedule", 0, "annual_rate"], RATE_LIMIT);
  });

  test("a late_interest rate and an asset event amount; one bad item refuses the whole batch", async () => {
    const huge = `1${"0".repeat(40)}`; // the amount: 41 digits
    const res = await c().post("/assets/provider", [
      item(assets[0]!, fixture.params as Params),
      item(assets[1]!, params((p) => {
        p.late_interest = { annual_rate: `0.${"1".repeat(30)}` };
        p.asset_events = [{ date: "2024-02-15", type: "DIVIDEND", value: { code: "EUR", amount: huge } }];
      })),
    ]);
    const body = await expectError(res, 422, "VALIDATION_ERROR");
    const byLoc = (a: { loc: unknown }, b: { loc: unknown }) => JSON.stringify(a.loc).localeCompare(JSON.stringify(b.loc));
    expect([...body.detail].sort(byLoc)).toEqual([
      { loc: ["body", 1, "provider_params", "asset_events", 0, "value", "amount"], msg: AMOUNT_LIMIT, type: "out_of_range" },
      { loc: ["body", 1, "provider_params", "late_interest", "annual_rate"], msg: RATE_LIMIT, type: "out_of_range" },
    ]);
    expect(assignments()).toEqual([]);
  });

  test("the largest supported values (16 integer digits, 18 decimals) are accepted and stored as sent", async () => {
    const largest = params((p) => {
      p.initial_value.amount = LARGEST;
      p.schedule[0]!.annual_rate = FINEST_RATE;
      p.late_interest = { annual_rate: `0.${"9".repeat(18)}` };
      p.asset_events = [{ date: "2024-02-15", type: "DIVIDEND", value: { code: "EUR", amount: `${"9".repeat(12)}.${"9".repeat(18)}` } }];
    });
    const res = await c().post("/assets/provider", [item(assets[2]!, largest)]);
    expect(res.status).toBe(200);
    expect((await res.json()).results.map((r: any) => [r.asset_id, r.success])).toEqual([[assets[2], true]]);
    const [stored] = assignments();
    expect(stored?.asset_id).toBe(assets[2]!);
    const back = JSON.parse(stored!.provider_params);
    expect([back.initial_value.amount, back.schedule[0].annual_rate, back.late_interest.annual_rate, back.asset_events[0].value.amount])
      .toEqual([LARGEST, FINEST_RATE, `0.${"9".repeat(18)}`, `${"9".repeat(12)}.${"9".repeat(18)}`]);
  });
});
