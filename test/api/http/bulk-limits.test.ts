import { beforeAll, describe, expect, test } from "bun:test";
import { withTimeout } from "../../../core/async/with-timeout.ts";
import { addDays } from "../../../core/dates/calendar.ts";
import { type ApiClient, expectError } from "../../helpers/client.ts";
import { useApi } from "../../helpers/server.ts";

/**
 * Every bulk route's limits (docs/security.md "Bulk-read limits"): a request just over a limit is
 * refused before any work with 413 `LIMIT_EXCEEDED`, whose message names the limit and the amount
 * asked for and whose params carry both; a request at the limit is served.
 */

const api = useApi({ users: ["lara"] });
let c: ApiClient;
let assets: number[] = [];
let broker = 0;

const n = (x: number) => x.toLocaleString("en-US");
const times = <T>(count: number, make: (i: number) => T): T[] => Array.from({ length: count }, (_, i) => make(i));
const day = (i: number) => addDays("2000-01-01", i);

async function refused(res: Response, limit: number, requested: number, unit: string) {
  const body = await expectError(res, 413, "LIMIT_EXCEEDED");
  const per = / in (one item|the answer)$/.test(unit) ? "" : " per request";
  expect(body.detail).toStartWith(`at most ${n(limit)} ${unit}${per}; this one asks for ${n(requested)}`);
  expect(body.params).toEqual({ limit, requested, unit });
}

/**
 * Awaits a request, but fails with the server's last log lines if it does not answer in time: a
 * request at a limit that hangs (once seen on a loaded PostgreSQL run) is told apart from a slow one,
 * and the file's server is not killed by the test's timeout.
 */
function within<T>(label: string, request: Promise<T>, ms = 90_000): Promise<T> {
  return withTimeout(ms, () => request, () => {
    const tail = api.server.logs().slice(-40).map((l) => JSON.stringify(l)).join("\n");
    return new Error(`${label}: no answer in ${ms / 1000} s; the server's last log lines:\n${tail}`);
  });
}

async function served(res: Response, ...statuses: number[]) {
  if (!(statuses.length ? statuses : [200]).includes(res.status)) throw new Error(`${res.status}: ${(await res.text()).slice(0, 300)}`);
}

beforeAll(async () => {
  c = api.as.lara!;
  // POST /assets at its limit: 1,000 assets in one request (the rest of the file uses them).
  const created = await c.post("/assets", times(1000, (i) => ({ name: `Limit asset ${i}`, currency: "EUR" })));
  expect(created.status).toBe(201);
  assets = (await created.json()).results.map((r: { asset_id: number }) => r.asset_id);
  const b = await c.post("/brokers", [{ name: "Limits" }]);
  expect(b.status).toBe(200);
  broker = (await b.json()).results[0].broker_id;
}, 60_000);

const ids = (key: string, count: number, from: number[] = []) => times(count, (i) => `${key}=${from[i % from.length] ?? i + 1}`).join("&");

describe("assets", () => {
  test("POST /assets: 1,000 items (1,001 refused)", async () => {
    await refused(await c.post("/assets", times(1001, (i) => ({ name: `Over ${i}`, currency: "EUR" }))), 1000, 1001, "items");
  });

  test("PATCH /assets: 1,000 items", async () => {
    await refused(await c.patch("/assets", times(1001, (i) => ({ asset_id: assets[i % 1000], name: `Renamed ${i}` }))), 1000, 1001, "items");
    await served(await c.patch("/assets", assets.map((asset_id, i) => ({ asset_id, name: `Limit asset ${i}` }))));
  });

  test("GET and DELETE /assets, assignments: 1,000 asset ids in the query", async () => {
    for (const path of ["/assets", "/assets/provider/assignments"]) {
      await refused(await c.get(`${path}?${ids("asset_ids", 1001, assets)}`), 1000, 1001, "asset ids");
      await served(await c.get(`${path}?${ids("asset_ids", 1000, assets)}`));
    }
    for (const path of ["/assets", "/assets/provider"]) {
      await refused(await c.delete(`${path}?${ids("asset_ids", 1001, assets)}`), 1000, 1001, "asset ids");
      // Ids that do not exist: each a per-item failure, nothing deleted.
      await served(await c.delete(`${path}?${ids("asset_ids", 1000, times(1000, (i) => 5000 + i))}`));
    }
  });

  test("POST /assets/provider: 1,000 items", async () => {
    const item = (asset_id: number) => ({ asset_id, provider_code: "nosuchprovider", identifier: "X", identifier_type: "TICKER" });
    await refused(await c.post("/assets/provider", times(1001, (i) => item(assets[i % 1000]!))), 1000, 1001, "items");
    await served(await c.post("/assets/provider", assets.map(item)));
  });
});

describe("prices", () => {
  test("POST /assets/prices: 1,000 items and 200,000 price points", async () => {
    await refused(await c.post("/assets/prices", times(1001, (i) => ({ asset_id: assets[i % 1000], prices: [{ date: "2024-01-02", close: "1" }] }))), 1000, 1001, "items");
    await served(await c.post("/assets/prices", assets.map((asset_id) => ({ asset_id, prices: [{ date: "2024-01-02", close: "1" }] }))));
    const points = (count: number) => times(count, (i) => ({ date: day(i), close: "10.5" }));
    await refused(await c.post("/assets/prices", [{ asset_id: assets[0], prices: points(100_000) }, { asset_id: assets[1], prices: points(100_001) }]),
      200_000, 200_001, "price points");
    await served(await c.post("/assets/prices", [{ asset_id: assets[0], prices: points(100_000) }, { asset_id: assets[1], prices: points(100_000) }]));
  }, 60_000);

  test("DELETE /assets/prices: 1,000 items and 10,000 date ranges", async () => {
    const range = (i: number) => ({ start: day(i), end: day(i) });
    await refused(await c.request("DELETE", "/assets/prices", times(1001, (i) => ({ asset_id: assets[i % 1000], date_ranges: [range(0)] }))), 1000, 1001, "items");
    await served(await c.request("DELETE", "/assets/prices", assets.map((asset_id) => ({ asset_id, date_ranges: [range(99_999)] }))));
    await refused(await c.request("DELETE", "/assets/prices", [{ asset_id: assets[2], date_ranges: times(10_001, range) }]), 10_000, 10_001, "date ranges");
    await served(await c.request("DELETE", "/assets/prices", [{ asset_id: assets[2], date_ranges: times(10_000, range) }]));
  });

  test("POST /assets/prices/query: 1,000 items, 32 signals an item and 200,000 day-series", async () => {
    const item = (asset_id: number, days = 1, signals = 0) => ({
      asset_id, date_range: { start: day(0), end: day(days - 1) },
      ...(signals ? { signals: times(signals, (i) => ({ instance_id: `s${i}`, signal_code: "SMA" })) } : {}),
    });
    await refused(await c.post("/assets/prices/query", times(1001, (i) => item(assets[i % 1000]!))), 1000, 1001, "items");
    await served(await c.post("/assets/prices/query", assets.map((a) => item(a))));
    await refused(await c.post("/assets/prices/query", [item(assets[0]!, 1, 33)]), 32, 33, "signals in one item");
    await served(await c.post("/assets/prices/query", [item(assets[0]!, 1, 32)]));
    // 100,000 days of one asset and 50,000 of another with one signal: 100,000 + 50,000 × 2 day-series, every day priced.
    const points = (count: number) => times(count, (i) => ({ date: day(i), close: "10.5" }));
    await served(await c.post("/assets/prices", [{ asset_id: assets[3], prices: points(100_000) }, { asset_id: assets[4], prices: points(50_000) }]));
    await refused(await c.post("/assets/prices/query", [item(assets[3]!, 100_001), item(assets[4]!, 50_000, 1)]), 200_000, 200_001, "day-series");
    const res = await c.post("/assets/prices/query", [item(assets[3]!, 100_000), item(assets[4]!, 50_000, 1)]);
    await served(res);
    const body = await res.json();
    expect(body.items.map((i: { prices: unknown[] }) => i.prices.length)).toEqual([100_000, 50_000]);
    expect(body.items[1].signals[0].outputs.value).toHaveLength(50_000);
  }, 60_000);

  test("POST /assets/prices/current and /sync: 1,000 items", async () => {
    await served(await within("POST /assets/prices/current", c.post("/assets/prices/current", assets)));
    await refused(await within("POST /assets/prices/sync (1,001)", c.post("/assets/prices/sync", times(1001, (i) => ({ asset_id: assets[i % 1000], date_range: { start: "resume" } })))), 1000, 1001, "items");
    await served(await within("POST /assets/prices/sync", c.post("/assets/prices/sync", assets.map((asset_id) => ({ asset_id, date_range: { start: "resume" } })))));
  }, 120_000);
});

describe("events", () => {
  const events = (count: number, from = 0) => times(count, (i) => ({ date: day(from + i), type: "DIVIDEND", value: { code: "EUR", amount: "0.5" } }));

  test("POST /assets/events: 1,000 items, 10,000 events an item, 100,000 events in all", async () => {
    await refused(await c.post("/assets/events", times(1001, (i) => ({ asset_id: assets[i % 1000], events: events(1) }))), 1000, 1001, "items");
    await served(await c.post("/assets/events", assets.map((asset_id) => ({ asset_id, events: events(1) }))));
    await refused(await c.post("/assets/events", [{ asset_id: assets[0], events: events(10_001) }]), 10_000, 10_001, "events in one item");
    await refused(await c.post("/assets/events", [...times(9, (i) => ({ asset_id: assets[i], events: events(10_000) })), { asset_id: assets[9], events: events(10_001).slice(1) }, { asset_id: assets[10], events: events(1) }]),
      100_000, 100_001, "events");
    await served(await c.post("/assets/events", times(10, (i) => ({ asset_id: assets[i], events: events(10_000) }))));
  }, 120_000);

  test("POST /assets/events/query: 1,000 items, 100,000 events in one answer", async () => {
    const item = (asset_id: number, days = 10_000) => ({ asset_id, date_range: { start: day(0), end: day(days - 1) } });
    await refused(await c.post("/assets/events/query", times(1001, (i) => item(assets[i % 1000]!, 1))), 1000, 1001, "items");
    await served(await c.post("/assets/events/query", assets.map((a) => item(a, 1))));
    // Assets 0–9 hold 10,000 events each (above); asset 10 holds one on the first day.
    const res = await c.post("/assets/events/query", times(10, (i) => item(assets[i]!)));
    await served(res);
    expect((await res.json()).items.reduce((k: number, i: { events: unknown[] }) => k + i.events.length, 0)).toBe(100_000);
    await refused(await c.post("/assets/events/query", times(11, (i) => item(assets[i]!))), 100_000, 100_001, "events in the answer");
  }, 60_000);
});

describe("fx", () => {
  const convert = (days: number, signals = 0) => ({
    from_amount: { code: "EUR", amount: "1" }, to: "EUR", date_range: { start: day(0), end: day(days - 1) },
    ...(signals ? { signals: times(signals, (i) => ({ instance_id: `s${i}`, signal_code: "SMA" })) } : {}),
  });

  test("POST /fx/currencies/convert: 1,000 items, 32 signals an item, 200,000 day-series", async () => {
    await refused(await c.post("/fx/currencies/convert", times(1001, () => convert(1))), 1000, 1001, "items");
    await served(await c.post("/fx/currencies/convert", times(1000, () => convert(1))));
    await refused(await c.post("/fx/currencies/convert", [convert(1, 33)]), 32, 33, "signals in one item");
    await served(await c.post("/fx/currencies/convert", [convert(1, 32)]));
    // Five items of 36,600 days (the longest one item may span) and one of 17,001.
    await refused(await c.post("/fx/currencies/convert", [...times(5, () => convert(36_600)), convert(17_001)]), 200_000, 200_001, "day-series");
    const res = await c.post("/fx/currencies/convert", [...times(5, () => convert(36_600)), convert(17_000)]);
    await served(res);
    expect((await res.json()).success_count).toBe(200_000);
  }, 60_000);

  test("POST and DELETE /fx/currencies/rate: 10,000 rates, 1,000 deletions", async () => {
    const rate = (i: number) => ({ date: day(i), base: "EUR", quote: "CHF", rate: "0.95" });
    await refused(await c.post("/fx/currencies/rate", times(10_001, rate)), 10_000, 10_001, "items");
    await served(await c.post("/fx/currencies/rate", times(10_000, rate)));
    const del = (i: number) => ({ from: "EUR", to: "CHF", date_range: { start: day(i), end: day(i) } });
    await refused(await c.request("DELETE", "/fx/currencies/rate", times(1001, del)), 1000, 1001, "items");
    await served(await c.request("DELETE", "/fx/currencies/rate", times(1000, del)));
  }, 60_000);

  test("POST /fx/currencies/sync: 200 pairs", async () => {
    const pairs = (count: number) => times(count, (i) => `EUR-${String.fromCharCode(65 + Math.floor(i / 26) % 26, 65 + (i % 26), 65 + Math.floor(i / 676))}`);
    const body = (count: number) => ({ pairs: pairs(count), start: "2024-01-01", end: "2024-01-02" });
    await refused(await c.post("/fx/currencies/sync", body(201)), 200, 201, "pairs");
    await served(await c.post("/fx/currencies/sync", body(200)));
  });

  test("POST and DELETE /fx/providers/routes: 1,000 items", async () => {
    const route = { base: "EUR", quote: "NOK", priority: 999, chain_steps: [{ from: "EUR", to: "NOK", provider: "MANUAL" }] };
    await refused(await c.post("/fx/providers/routes", times(1001, () => route)), 1000, 1001, "items");
    await served(await c.post("/fx/providers/routes", times(1000, () => route)), 200, 201);
    await refused(await c.request("DELETE", "/fx/providers/routes", times(1001, () => ({ base: "EUR", quote: "NOK" }))), 1000, 1001, "items");
    await served(await c.request("DELETE", "/fx/providers/routes", times(1000, () => ({ base: "EUR", quote: "NOK" }))));
  });
});

describe("brokers and import", () => {
  test("POST /brokers: 100 items", async () => {
    await refused(await c.post("/brokers", times(101, (i) => ({ name: `Over ${i}` }))), 100, 101, "items");
    await served(await c.post("/brokers", times(100, (i) => ({ name: `Broker ${i}` }))));
  });

  test("POST /brokers/import/asset-candidates: 1,000 hints", async () => {
    const hints = (count: number) => ({ items: times(count, (i) => ({ extracted_name: `Limit asset ${i}` })) });
    await refused(await c.post("/brokers/import/asset-candidates", hints(1001)), 1000, 1001, "hints");
    const res = await c.post("/brokers/import/asset-candidates", hints(1000));
    await served(res);
    expect((await res.json()).items[7].candidates[0]).toMatchObject({ name: "Limit asset 7", match_confidence: "medium" });
  });

  test("POST /brokers/import/duplicates: 100,000 rows (counted by the worker that reads the body)", async () => {
    const rows = (count: number) => ({ broker_id: broker, transactions: times(count, (i) => ({ type: "DEPOSIT", date: day(i % 5000), cash: { code: "EUR", amount: "1" } })) });
    await refused(await c.post("/brokers/import/duplicates", rows(100_001)), 100_000, 100_001, "transactions");
    await served(await c.post("/brokers/import/duplicates", rows(100_000)));
  }, 60_000);

  test("GET /brokers/import/files: 1,000 broker ids", async () => {
    await refused(await c.get(`/brokers/import/files?${ids("broker_ids", 1001)}`), 1000, 1001, "broker ids");
    await served(await c.get(`/brokers/import/files?${ids("broker_ids", 1000)}`));
  });
});

describe("transactions, portfolio, signals, settings", () => {
  test("POST /transactions/validate: 10,000 rows a list", async () => {
    await served(await c.post("/transactions/validate", { deletes: times(10_000, (i) => 900_000 + i) }));
  });

  test("POST /transactions/events/suggest and /promote-suggest: 1,000 rows", async () => {
    const suggest = (i: number) => ({ asset_id: assets[i % 1000], date: day(i), type: "DIVIDEND" });
    await refused(await c.post("/transactions/events/suggest", times(1001, suggest)), 1000, 1001, "items");
    await served(await c.post("/transactions/events/suggest", times(1000, suggest)));
    const promote = (i: number) => ({ id: -(i + 1), type: "WITHDRAWAL", broker_id: broker, date: day(i) });
    await refused(await c.post("/transactions/promote-suggest", times(1001, promote)), 1000, 1001, "items");
    await served(await c.post("/transactions/promote-suggest", times(1000, promote)));
  });

  test("POST /portfolio/wac: 20 queries; /portfolio/report and /lots/analysis: 1,000 broker ids, 10,000 lots", async () => {
    await served(await c.post("/portfolio/wac", { queries: times(20, () => ({ broker_id: broker, asset_id: assets[0] })) }));
    const brokers = (count: number) => times(count, () => broker);
    await refused(await c.post("/portfolio/report", { broker_ids: brokers(1001) }), 1000, 1001, "broker ids");
    await served(await c.post("/portfolio/report", { broker_ids: brokers(1000), include_history: false, include_allocation_history: false }));
    const lots = (extra: Record<string, unknown>) => ({ asset_id: assets[0], requested_analyses: ["LOT_SUMMARY"], ...extra });
    await refused(await c.post("/portfolio/lots/analysis", lots({ broker_ids: brokers(1001) })), 1000, 1001, "broker ids");
    await served(await c.post("/portfolio/lots/analysis", lots({ broker_ids: brokers(1000) })));
    await refused(await c.post("/portfolio/lots/analysis", lots({ selected_lot_ids: times(10_001, (i) => i + 1) })), 10_000, 10_001, "selected lot ids");
    await served(await c.post("/portfolio/lots/analysis", lots({ selected_lot_ids: times(10_000, (i) => i + 1) })));
  });

  test("POST /signals/preview: 2,000 points, 32 signals", async () => {
    const body = (points: number, signals: number) => ({
      domain: "asset", points: times(points, (i) => ({ date: day(i), value: 100 + (i % 7) })),
      signals: times(signals, (i) => ({ instance_id: `s${i}`, signal_code: "SMA" })),
    });
    await served(await c.post("/signals/preview", body(2000, 32)));
    await refused(await c.post("/signals/preview", body(2000, 33)), 32, 33, "signals");
  });

  test("PATCH /settings/global/bulk: 100 settings", async () => {
    const body = (count: number) => ({ items: times(count, () => ({ key: "max_file_upload_mb", value: "10" })) });
    await refused(await c.patch("/settings/global/bulk", body(101)), 100, 101, "settings");
    await served(await c.patch("/settings/global/bulk", body(100)));
  });

  test("a request without a session is 401 before any limit is counted", async () => {
    await expectError(await api.client().post("/fx/currencies/convert", times(1001, () => ({}))), 401, "NOT_AUTHENTICATED");
  });

  test("the limits are in the OpenAPI description with a 413", async () => {
    const doc = await (await api.client().get("/openapi.json")).json();
    const op = doc.paths["/api/v1/fx/currencies/convert"].post;
    expect(op.description).toContain("at most 200,000 day-series per request");
    expect(op.responses["413"]).toBeDefined();
    expect(op.requestBody.content["application/json"].schema.$ref).toBe("#/components/schemas/ConvertRequest");
    expect(doc.components.schemas.ConvertRequest.maxItems).toBe(1000);
  });
});
