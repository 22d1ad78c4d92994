import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ApiClient } from "../../helpers/client.ts";
import { startServer, type TestServer, useApi } from "../../helpers/server.ts";
import { snapshotOf, type Snapshot } from "./compare.ts";
import { buildRichPortfolio } from "./rich-portfolio.ts";
import { disableScheduler, exportJson, uploadText } from "./backup-helpers.ts";

// Server A holds the rich portfolio; alice's export is restored into a fresh server B by a new alice.
// Both schedulers are off, so each holds exactly what was written through the API and the restore (docs/backup.md "Restore and the scheduler").
const api = useApi({ users: ["alice", "bob"] });
let before: Snapshot;
let exported: string;
let fresh: TestServer;
let restoredBy: ApiClient;
let answer: any;

beforeAll(async () => {
  await disableScheduler(api.as.alice!);
  await buildRichPortfolio(api.as.alice!, api.as.bob!, { alice: api.users.alice!.id, bob: api.users.bob!.id });
  before = await snapshotOf(api.as.alice!);
  exported = await exportJson(api.as.alice!, { scope: ["all"], include_price_history: true });
  fresh = await startServer();
  restoredBy = new ApiClient(fresh.base);
  await restoredBy.signUp("alice");
  // Off on both servers, before the restore: the restored bond has a scheduled-investment provider, and a
  // scheduler left on would book today's price at its next minute, which the source (off) never did.
  await disableScheduler(restoredBy);
  const fileId = await uploadText(restoredBy, exported, "alice-export.json");
  const res = await restoredBy.post("/backup/restore", { file_id: fileId });
  answer = await res.json();
  expect(res.status).toBe(200);
}, 60_000);

afterAll(async () => { await fresh?.stop(true); });

describe("a JSON export restored into a fresh server reproduces what the user reads", () => {
  test("the restore counts every row it wrote; only the new account's own settings row is kept (no overwrite asked)", () => {
    expect(answer.skipped).toEqual({ ...Object.fromEntries(Object.keys(answer.restored).map((k) => [k, 0])), user_settings: 1 });
    expect(answer.restored).toMatchObject({ assets: 3, provider_assignments: 1, brokers: 3, broker_access: 3, transactions: 18, user_settings: 0 });
    expect(answer.restored.prices).toBeGreaterThan(300);
    expect(answer.restored.asset_events).toBeGreaterThan(2);
    expect(answer.restored.fx_rates).toBe(110);
    expect(answer.warnings).toEqual([]);
  });

  test("reports, lots analyses, broker summaries and every list endpoint are equal field by field", async () => {
    const after = await snapshotOf(restoredBy);
    // The comparison is not vacuous: the portfolio has value, history, lots and all its rows.
    const source = before as any;
    expect(Number(source.report.summary.net_worth.amount)).toBeGreaterThan(1000);
    expect(source.report.history.length).toBeGreaterThan(100);
    expect(source.transactions.length).toBe(18);
    expect(Object.keys(source).filter((k) => k.startsWith("lots_") && source[k].lots?.length > 0).length).toBe(3);
    // By design: the restorer becomes OWNER of every broker; an EDITOR (scale 1) becomes OWNER at share 1.
    const expected = structuredClone(before) as any;
    const promoted = [...expected.brokers.items, ...Object.keys(expected).filter((k) => k.startsWith("broker_summary_")).map((k) => expected[k])];
    for (const b of promoted) {
      if (b.user_role !== "OWNER") Object.assign(b, { user_role: "OWNER", user_share_percentage: "1.000000" });
    }
    expect(Object.keys(after).sort()).toEqual(Object.keys(expected).sort());
    for (const key of Object.keys(expected)) expect({ key, value: after[key] }).toEqual({ key, value: expected[key] });
  });
});

describe("text a spreadsheet would run survives the round trip unchanged", () => {
  test('"=SUM(A1)" is restored as stored (the JSON export is never neutralised); only a CSV cell carries the leading quote', async () => {
    const fee = (await (await restoredBy.get("/transactions?limit=1000")).json()).find((t: any) => t.type === "FEE");
    expect(fee.description).toBe("=SUM(A1)");
    const usd = (await (await restoredBy.get("/assets/all")).json()).find((a: any) => a.name === "RT Stock USD");
    const events = await (await restoredBy.post("/assets/events/query", [{ asset_id: usd.id, date_range: { start: "2024-01-01", end: "2024-12-31" } }])).json();
    expect(events.items[0].events.find((e: any) => e.type === "DIVIDEND").notes).toBe("=SUM(A1)");
    expect(await (await restoredBy.get(`/backup/asset/${usd.id}/events`)).text()).toContain(",'=SUM(A1),");
  });
});
