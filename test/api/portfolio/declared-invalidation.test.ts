import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ApiClient } from "../../helpers/client.ts";
import { type PricesEnv, seedPricedAsset, startPricesEnv } from "../assets/prices-fixtures.ts";
import { exportJson, uploadText } from "../backup/backup-helpers.ts";
import { parsed, sample, uploaded } from "../brim/helpers.ts";
import { buy, deposit, looseBroker, transferPair } from "../transactions/fixtures.ts";

/**
 * A write declares what it changed in its own transaction, and that declaration is what empties
 * the cached reports (docs/portfolio.md "Caches"): through every write route, a report cached
 * before the write is not served after it, and the next report reflects the write.
 */
let env: PricesEnv;
let c: ApiClient;
let other: ApiClient;
let otherId = 0;
let broker = 0;
let held = 0;
let usd = 0;

const BODY = { date_range: { start: "2020-01-01" }, include_history: true, include_allocation_history: false, include_breakdown: true };

async function json(res: Response, status = 200): Promise<any> {
  const text = await res.text();
  expect({ status: res.status, url: res.url, body: res.status === status ? null : text }).toEqual({ status, url: res.url, body: null });
  return text ? JSON.parse(text) : null;
}

/** The report as served: `generated_at` tells a kept report (served again) from a recomputed one. */
async function served(client = c): Promise<any> {
  return json(await client.post("/portfolio/report", BODY));
}

/** The report's figures (without the moment it was made). */
function figures(report: any): any {
  return JSON.parse(JSON.stringify(report, (key, value) => (key === "generated_at" ? undefined : value)));
}

/**
 * Caches `client`'s report, runs the write, then checks the cached report is not served after it
 * (the next one is computed again) and (when the write changes the figures) differs from it.
 */
async function invalidates(write: () => Promise<unknown>, opts: { changesFigures?: boolean; client?: ApiClient } = {}): Promise<any> {
  const client = opts.client ?? c;
  const before = await served(client);
  expect((await served(client)).metadata.generated_at).toBe(before.metadata.generated_at);
  await write();
  const after = await served(client);
  expect(after.metadata.generated_at).not.toBe(before.metadata.generated_at);
  if (opts.changesFigures ?? true) expect(JSON.stringify(figures(after))).not.toBe(JSON.stringify(figures(before)));
  return figures(after);
}

/** Caches `client`'s report, runs a write that touches none of its brokers and assets, then checks the same report is served. */
async function keeps(write: () => Promise<unknown>, client = c): Promise<void> {
  const before = await served(client);
  await write();
  expect(await served(client)).toEqual(before);
}

const commit = async (body: Record<string, unknown>) => {
  const out = await json(await c.post("/transactions/commit", body));
  expect(out.committed).toBe(true);
  return out;
};
const newAsset = async (name: string, currency = "EUR"): Promise<number> =>
  (await json(await c.post("/assets", [{ name, currency }]), 201)).results[0].asset_id;

beforeAll(async () => {
  env = await startPricesEnv();
  c = env.c;
  other = new ApiClient(env.server.base);
  otherId = (await other.signUp("declared-viewer")).id;
  broker = await looseBroker(c, "Declared");
  held = await newAsset("Held");
  usd = await newAsset("Dollar asset", "USD");
  await commit({ creates: [deposit(broker, "10000", "2024-01-01"), buy(broker, held, "10", "-1000", "2024-01-02"),
    { broker_id: broker, asset_id: usd, type: "BUY", date: "2024-01-03", quantity: "5", cash: { code: "USD", amount: "-500" } }] });
  await json(await c.post("/assets/prices", [{ asset_id: held, prices: [{ date: "2024-01-02", close: "100" }] }]));
  await json(await c.post("/fx/currencies/rate", [{ date: "2024-01-01", base: "EUR", quote: "USD", rate: "1.1" }]));
}, 60_000);

afterAll(() => env.stop());

describe("a cached report is invalidated by every write route, and the next report reflects the write", () => {
  let txId = 0;

  test("transactions: a create through the batch commit", async () => {
    const out = await invalidates(() => commit({ creates: [buy(broker, held, "1", "-100", "2024-02-01")] }));
    expect(out.summary).toBeDefined();
    txId = (await json(await c.get(`/transactions?broker_id=${broker}&limit=100`))).find((t: any) => t.date === "2024-02-01").id;
  });

  test("transactions: an update through the batch commit", () =>
    invalidates(() => commit({ updates: [{ id: txId, quantity: "3", cash: { code: "EUR", amount: "-300" } }] })));

  test("transactions: a delete through the batch commit", () => invalidates(() => commit({ deletes: [txId] })));

  test("brokers: a create with an initial balance", () =>
    invalidates(async () => json(await c.post("/brokers", [{ name: "Second", initial_balances: [{ code: "EUR", amount: "500" }], opened_at: "2024-01-05" }]))));

  test("brokers: an update", () =>
    invalidates(async () => json(await c.request("PATCH", `/brokers/${broker}`, { name: "Declared renamed" })), { changesFigures: false }));

  test("brokers: a delete", async () => {
    const doomed = await looseBroker(c, "Doomed");
    await commit({ creates: [deposit(doomed, "777", "2024-01-04")] });
    await invalidates(async () => json(await c.delete(`/brokers/${doomed}`), 200));
  });

  test("access: a grant, a change and a revoke, each seen by the user they concern", async () => {
    await invalidates(async () => json(await c.post(`/brokers/${broker}/access`, { user_id: otherId, role: "VIEWER" }), 201), { client: other });
    await invalidates(async () => json(await c.request("PATCH", `/brokers/${broker}/access/${otherId}`, { role: "EDITOR" })), { client: other, changesFigures: false });
    await invalidates(async () => json(await c.delete(`/brokers/${broker}/access/${otherId}`), 200), { client: other });
  });

  test("assets: a create, an update and a delete", async () => {
    let created = 0;
    // An asset no scope holds is in no report: creating and deleting it leave the cached report.
    await keeps(async () => { created = await newAsset("Fresh"); });
    await invalidates(async () => json(await c.request("PATCH", "/assets", [{ asset_id: held, name: "Held renamed" }])), { changesFigures: false });
    await keeps(async () => json(await c.delete(`/assets?asset_ids=${created}`)));
  });

  test("assets: a merge moves the source's transactions to the target", async () => {
    const source = await newAsset("Merged away");
    await commit({ creates: [buy(broker, source, "2", "-50", "2024-01-10")] });
    await json(await c.post("/assets/prices", [{ asset_id: source, prices: [{ date: "2024-01-10", close: "40" }] }]));
    await invalidates(async () => json(await c.post("/assets/merge", { source_asset_id: source, target_asset_id: held })));
  });

  test("prices: an add and a delete", async () => {
    await invalidates(async () => json(await c.post("/assets/prices", [{ asset_id: held, prices: [{ date: "2024-03-01", close: "130" }] }])));
    await invalidates(async () => json(await c.request("DELETE", "/assets/prices", [{ asset_id: held, date_ranges: [{ start: "2024-03-01", end: "2024-03-01" }] }])));
  });

  test("prices: a provider sync and a market-data wipe", async () => {
    const { assetId } = seedPricedAsset(env.server.dataDir, { symbol: "DECL" });
    await commit({ creates: [buy(broker, assetId, "4", "-40", "2024-01-02")] });
    env.upstream.history.set("DECL", [{ date: "2024-01-02", open: "10", high: "20", low: "5", close: "25", volume: "100" }]);
    await invalidates(async () => {
      const out = await json(await c.post("/assets/prices/sync", [{ asset_id: assetId, date_range: { start: "2024-01-01", end: "2024-01-31" } }]));
      expect(out.results[0].points_changed).toBe(1);
    });
    await invalidates(async () => json(await c.post(`/assets/${assetId}/market-data/wipe`, {})));
  });

  // A split changes figures only through its linked ADJUSTMENT rows; the event alone still empties the cache.
  test("events: an upsert and a delete", async () => {
    await invalidates(async () => json(await c.post("/assets/events", [{ asset_id: held, events: [{ date: "2024-04-01", type: "SPLIT", value: { code: "EUR", amount: "2" } }] }])),
      { changesFigures: false });
    const events = await json(await c.post("/assets/events/query", [{ asset_id: held, date_range: { start: "2024-04-01", end: "2024-04-01" } }]));
    const split = events.items[0].events[0].id;
    await invalidates(async () => json(await c.delete(`/assets/events?ids=${split}`)), { changesFigures: false });
  });

  test("FX: a shared rate add and delete, a route create and delete, a private rate add and delete", async () => {
    await invalidates(async () => json(await c.post("/fx/currencies/rate", [{ date: "2024-02-01", base: "EUR", quote: "USD", rate: "1.3" }])));
    await invalidates(async () => json(await c.request("DELETE", "/fx/currencies/rate", [{ from: "EUR", to: "USD", date_range: { start: "2024-02-01", end: "2024-02-01" } }])));
    const route = { base: "EUR", quote: "SEK", priority: 999, chain_steps: [{ from: "EUR", to: "SEK", provider: "MANUAL" }] };
    await invalidates(async () => json(await c.post("/fx/providers/routes", [route]), 201), { changesFigures: false });
    await invalidates(async () => json(await c.request("DELETE", "/fx/providers/routes", [{ base: "EUR", quote: "SEK" }])), { changesFigures: false });
    // CHF cash is valued only through the user's private rate (no shared CHF data).
    await commit({ creates: [deposit(broker, "1000", "2024-01-06", "CHF")] });
    await invalidates(async () => json(await c.post("/fx/currencies/private-rates", [{ base: "CHF", quote: "EUR", date: "2024-01-01", rate: "0.95" }])));
    await invalidates(async () => json(await c.request("DELETE", "/fx/currencies/private-rates", [{ from: "CHF", to: "EUR", delete_all: true }])));
  });

  test("settings: the base currency a report defaults to", async () => {
    const before = await served();
    await json(await c.put("/settings/user", { base_currency: "USD" }));
    const after = await served();
    expect(after.summary.net_worth.code).toBe("USD");
    expect(before.summary.net_worth.code).toBe("EUR");
    await json(await c.put("/settings/user", { base_currency: "EUR" }));
  });

  test("import: a broker report file committed server-side", async () => {
    const target = await looseBroker(c, "Imported");
    const file = await uploaded(c, target, "Account.csv", sample("degiro", "Account.csv"));
    const parse = await parsed(c, file.file_id, target);
    const choices = parse.asset_mappings.map((m: any) => ({ fake_asset_id: m.fake_asset_id, action: "create" }));
    await invalidates(async () => {
      const out = await json(await c.post(`/brokers/import/files/${file.file_id}/commit`, { dry_run: false, edits: [], skips: [], asset_choices: choices }));
      expect(out.committed).toBe(true);
    });
  });

  test("restore: a backup (replacing what exists) brings a deleted transaction back", async () => {
    const fileId = await uploadText(c, await exportJson(c));
    const rows = await json(await c.get(`/transactions?broker_id=${broker}&limit=100`));
    const doomed = rows.find((t: any) => t.type === "BUY" && t.related_transaction_id == null && t.date === "2024-01-10");
    await commit({ deletes: [doomed.id] });
    await invalidates(async () => {
      const out = await json(await c.post("/backup/restore", { file_id: fileId, overwrite_existing: true }));
      expect(out).toBeDefined();
    });
  });
});

describe("a write clears only the cached reports of the scopes it touches", () => {
  let a = 0;
  let b = 0;
  let onlyInA = 0;
  let inB = 0;
  let theirs = 0;
  const scoped = (brokerId: number) => ({ ...BODY, broker_ids: [brokerId] });
  const servedOf = async (body: object, client = c) => json(await client.post("/portfolio/report", body));

  beforeAll(async () => {
    a = await looseBroker(c, "Scoped A");
    b = await looseBroker(c, "Scoped B");
    onlyInA = await newAsset("Only in A");
    inB = await newAsset("In B");
    // Creating a broker is an undated change of every scope: done before the reports are cached.
    theirs = await looseBroker(other, "Someone else's");
    await commit({ creates: [deposit(a, "1000", "2024-01-01"), buy(a, onlyInA, "2", "-20", "2024-01-02"), deposit(b, "1000", "2024-01-01"), buy(b, inB, "3", "-30", "2024-01-02")] });
  });

  test("a commit on broker A, a price of an asset only A holds and another user's write leave broker B's cached report; a commit on B does not", async () => {
    const reportA = await servedOf(scoped(a));
    const reportB = await servedOf(scoped(b));
    await commit({ creates: [buy(a, onlyInA, "1", "-10", "2024-02-01")] });
    expect((await servedOf(scoped(a))).metadata.generated_at).not.toBe(reportA.metadata.generated_at);
    expect(await servedOf(scoped(b))).toEqual(reportB);
    await json(await c.post("/assets/prices", [{ asset_id: onlyInA, prices: [{ date: "2024-02-02", close: "12" }] }]));
    expect(await servedOf(scoped(b))).toEqual(reportB);
    await json(await other.post("/transactions/commit", { creates: [deposit(theirs, "50", "2024-01-01")] }));
    expect(await servedOf(scoped(b))).toEqual(reportB);
    // The user's report of all brokers holds A: recomputed after a write there.
    const all = await served();
    await commit({ creates: [buy(a, onlyInA, "1", "-10", "2024-02-03")] });
    expect((await served()).metadata.generated_at).not.toBe(all.metadata.generated_at);
    await commit({ creates: [buy(b, inB, "1", "-10", "2024-02-01")] });
    const after = await servedOf(scoped(b));
    expect(after.metadata.generated_at).not.toBe(reportB.metadata.generated_at);
    expect(after.summary.holdings.find((h: any) => h.asset_id === inB).quantity).toBe("4");
  });

  test("a transfer between A and B, and an edit of its leg on A alone, clear both brokers' cached reports (the partner leg's broker is named)", async () => {
    const pair = transferPair(a, b, onlyInA, "1", crypto.randomUUID());
    let reportB = await servedOf(scoped(b));
    await commit({ creates: pair });
    let after = await servedOf(scoped(b));
    expect(after.metadata.generated_at).not.toBe(reportB.metadata.generated_at);
    expect(after.summary.holdings.find((h: any) => h.asset_id === onlyInA).quantity).toBe("1");
    reportB = after;
    const rows = await json(await c.get(`/transactions?broker_id=${a}&limit=100`));
    const outLeg = rows.find((t: any) => t.type === "TRANSFER");
    await commit({ updates: [{ id: outLeg.id, date: "2024-02-05" }] });
    after = await servedOf(scoped(b));
    expect(after.metadata.generated_at).not.toBe(reportB.metadata.generated_at);
  });
});
