import { beforeAll, describe, expect, test } from "bun:test";
import { ApiClient, expectError } from "../../helpers/client.ts";
import { useApi } from "../../helpers/server.ts";
import { createAsset } from "../transactions/fixtures.ts";
import { expectClose, REF } from "../../plugins/risk/reference.ts";

const api = useApi({ users: ["alice"] });
let alice: ApiClient;
const points = REF.dates.map((date: string, i: number) => ({ date, value: Number(REF.assets[0].closes[i]) }));

beforeAll(() => {
  ({ alice } = api.as);
});

describe("signals over HTTP", () => {
  test("GET /signals/catalog lists 23 signals with parameter schemas; /fx/currencies/signals only the fx ones", async () => {
    const items = (await (await alice.get("/signals/catalog")).json()).items;
    expect(items.length).toBe(23);
    const macd = items.find((i: any) => i.signal_code === "MACD");
    expect(macd).toMatchObject({ outputs: ["macd", "signal", "histogram"], requires_volume: false, domains: ["asset", "fx"] });
    expect(Object.keys(macd.params_schema.properties)).toEqual(["fast", "slow", "signal"]);
    const fx = (await (await alice.get("/fx/currencies/signals")).json()).items.map((i: any) => i.signal_code);
    expect(fx).not.toContain("OBV");
    expect(fx).toContain("RSI");
  });

  test("POST /signals/preview computes each instance; volume signals are refused on points", async () => {
    const res = await alice.post("/signals/preview", {
      domain: "asset", points, signals: [{ instance_id: "r", signal_code: "RSI", params: { period: 14 } }, { instance_id: "o", signal_code: "OBV" }],
    });
    expect(res.status).toBe(200);
    const [rsi, obv] = (await res.json()).signals;
    expect(rsi.status).toBe("ok");
    expect(rsi.outputs.value[13].value).toBeNull();
    expectClose(rsi.outputs.value[100].value, REF.signals.RSI.value[100]);
    expect(obv).toMatchObject({ status: "failed", error: { code: "volume_required" } });
  });

  test("preview: empty points give an empty list; bad bodies are 422, over 2,000 points 413", async () => {
    expect((await (await alice.post("/signals/preview", { domain: "fx", points: [], signals: [{ instance_id: "a", signal_code: "SMA" }] })).json()).signals).toEqual([]);
    await expectError(await alice.post("/signals/preview", { domain: "asset", points: [points[1], points[0]], signals: [] }), 422, "VALIDATION_ERROR");
    await expectError(await alice.post("/signals/preview", { domain: "asset", points, signals: [{ instance_id: "a", signal_code: "sma" }] }), 422);
    const over = await expectError(await alice.post("/signals/preview", { domain: "asset", points: Array.from({ length: 2001 }, (_, i) => ({ date: `2020-01-01`, value: i })), signals: [] }), 413, "LIMIT_EXCEEDED");
    expect(over.detail).toContain("at most 2,000 points per request; this one asks for 2,001");
    await expectError(await api.client().post("/signals/preview", { domain: "asset", points, signals: [] }), 401);
  });

  test("POST /assets/prices/query returns signals beside the prices, with volume when the rows have it", async () => {
    const asset = createAsset(api.dataDir, "EUR");
    await alice.post("/assets/prices", [{ asset_id: asset, prices: points.slice(0, 60).map((p: any, i: number) => ({ date: p.date, close: String(p.value), volume: String(1000 + i) })) }]);
    const res = await alice.post("/assets/prices/query", [{
      asset_id: asset, date_range: { start: REF.dates[0], end: REF.dates[59] },
      signals: [{ instance_id: "s", signal_code: "SMA", params: { period: 20 } }, { instance_id: "m", signal_code: "MFI" }],
    }]);
    expect(res.status).toBe(200);
    const item = (await res.json()).items[0];
    expect(item.prices.length).toBe(60);
    expect(item.signals.map((s: any) => [s.instance_id, s.status])).toEqual([["s", "ok"], ["m", "ok"]]);
    expectClose(item.signals[0].outputs.value[30].value, REF.signals.SMA.value[30]);
    const plain = (await (await alice.post("/assets/prices/query", [{ asset_id: asset, date_range: { start: REF.dates[0], end: REF.dates[5] } }])).json()).items[0];
    expect(plain.signals).toBeUndefined();
  });

  test("POST /fx/currencies/convert items may ask for signals on their daily rates", async () => {
    const rates = points.slice(0, 30).map((p: any) => ({ date: p.date, base: "EUR", quote: "USD", rate: String(p.value / 100) }));
    expect((await alice.post("/fx/currencies/rate", rates)).status).toBeLessThan(300);
    const res = await alice.post("/fx/currencies/convert", [
      { from_amount: { code: "EUR", amount: "1" }, to: "USD", date_range: { start: REF.dates[0], end: REF.dates[29] }, signals: [{ instance_id: "e", signal_code: "EMA", params: { period: 5 } }] },
    ]);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.signals[0].item_index).toBe(0);
    const line = body.signals[0].signals[0].outputs.value;
    expect(line.length).toBe(30);
    expect(line[3].value).toBeNull();
    expect(typeof line[4].value).toBe("number");
  });
});
