import { beforeAll, describe, expect, test } from "bun:test";
import { type ApiClient, expectError } from "../../helpers/client.ts";
import { useApi } from "../../helpers/server.ts";
import { runDb } from "../../helpers/test-db.ts";

const api = useApi({ users: ["alice", "bob"] });
let alice: ApiClient;
let bob: ApiClient;
let assetId: number;

beforeAll(async () => {
  ({ alice, bob } = api.as);
  const created = await (await alice.post("/assets", [{ name: "Acme, \"Quoted\" Inc", currency: "EUR", identifier_isin: "DE0001234567" }])).json();
  assetId = created.results[0].asset_id;
  const prices = await alice.post("/assets/prices", [{ asset_id: assetId, prices: [
    { date: "2024-01-03", close: "10.123456789", open: "10", volume: "1500" },
    { date: "2024-01-02", close: "9.5" },
  ] }]);
  expect(prices.status).toBe(200);
  const events = await alice.post("/assets/events", [{ asset_id: assetId, events: [
    { date: "2024-02-01", type: "DIVIDEND", value: { code: "EUR", amount: "0.25" }, notes: "line one, with comma" },
  ] }]);
  expect(events.status).toBe(200);
  const rates = await alice.post("/fx/currencies/rate", [
    { date: "2024-01-02", base: "EUR", quote: "USD", rate: "1.0950" },
    { date: "2024-01-03", base: "USD", quote: "EUR", rate: "0.9" },
  ]);
  expect(rates.status).toBe(200);
});

describe("series exports", () => {
  test("prices are CSV by default with the fixed columns, oldest first, decimals as stored, as an attachment", async () => {
    const res = await bob.get(`/backup/asset/${assetId}/prices`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/csv");
    const today = new Date().toISOString().slice(0, 10);
    expect(res.headers.get("content-disposition")).toContain(`prices_acme-quoted-inc_${today}.csv`);
    const lines = (await res.text()).trimEnd().split("\r\n");
    expect(lines[0]).toBe("date,open,high,low,close,volume,currency,source_plugin_key,fetched_at");
    expect(lines.length).toBe(3);
    expect(lines[1]!.startsWith("2024-01-02,,,,9.5,,EUR,manual,")).toBe(true);
    expect(lines[2]!.startsWith("2024-01-03,10,,,10.123456789,1500,EUR,manual,")).toBe(true);
  });

  test("format=json answers the envelope {scope, entity, exported_at, row_count, rows}", async () => {
    const res = await alice.get(`/backup/asset/${assetId}/prices?format=json`);
    expect(res.headers.get("content-type")).toContain("application/json");
    const body = await res.json();
    expect(body).toMatchObject({ scope: "prices", entity: "acme-quoted-inc", asset_id: assetId, row_count: 2 });
    expect(typeof body.exported_at).toBe("string");
    expect(body.rows[1]).toMatchObject({ date: "2024-01-03", open: "10", high: null, close: "10.123456789", volume: "1500", source_plugin_key: "manual" });
  });

  test("events carry source MANUAL or PROVIDER and quote text with commas", async () => {
    const csv = await (await bob.get(`/backup/asset/${assetId}/events`)).text();
    const lines = csv.trimEnd().split("\r\n");
    expect(lines[0]).toBe("date,type,value,currency,source,provider_assignment_id,notes,created_at,updated_at");
    expect(lines[1]!.startsWith(`2024-02-01,DIVIDEND,0.25,EUR,MANUAL,,"line one, with comma",`)).toBe(true);
    const json = await (await bob.get(`/backup/asset/${assetId}/events?format=json`)).json();
    expect(json).toMatchObject({ scope: "events", row_count: 1, rows: [{ type: "DIVIDEND", value: "0.25", source: "MANUAL", notes: "line one, with comma" }] });
  });

  test("fx rates: the pair is normalised to its stored order and the envelope flags inverted", async () => {
    const straight = await (await alice.get("/backup/fx/EUR/USD/rates?format=json")).json();
    expect(straight).toMatchObject({ scope: "fx_rates", entity: "eur-usd", base: "EUR", quote: "USD", inverted: false, row_count: 2 });
    const turned = await (await alice.get("/backup/fx/usd/eur/rates?format=json")).json();
    expect(turned).toMatchObject({ base: "EUR", quote: "USD", inverted: true, row_count: 2 });
    expect(turned.rows).toEqual(straight.rows);
    expect(turned.rows[0]).toMatchObject({ date: "2024-01-02", base: "EUR", quote: "USD", rate: "1.095", source: "MANUAL" });
    const csv = await (await alice.get("/backup/fx/USD/EUR/rates")).text();
    expect(csv.split("\r\n")[0]).toBe("date,base,quote,rate,source,fetched_at");
  });

  test("refusals: no session 401, unknown asset 404, the same currency twice 400, a bad format 422", async () => {
    await expectError(await api.client().get(`/backup/asset/${assetId}/prices`), 401, "NOT_AUTHENTICATED");
    await expectError(await alice.get("/backup/asset/999999/prices"), 404, "ASSET_NOT_FOUND");
    await expectError(await alice.get("/backup/asset/999999/events"), 404, "ASSET_NOT_FOUND");
    await expectError(await alice.get("/backup/fx/EUR/eur/rates"), 400, "FX_PAIR_INVALID");
    await expectError(await alice.get("/backup/fx/EURO/USD/rates"), 422, "VALIDATION_ERROR");
    await expectError(await alice.get(`/backup/asset/${assetId}/prices?format=xml`), 422, "VALIDATION_ERROR");
  });

  test("a gzip-accepting client gets the stream compressed", async () => {
    const res = await fetch(`${api.base}/backup/asset/${assetId}/prices`, { headers: { cookie: alice.cookie, "accept-encoding": "gzip" }, decompress: false } as RequestInit);
    expect(res.headers.get("content-encoding")).toBe("gzip");
    const text = new TextDecoder().decode(Bun.gunzipSync(new Uint8Array(await res.arrayBuffer())));
    expect(text.startsWith("date,open")).toBe(true);
  });
});

describe("spreadsheet formula injection (OWASP CSV injection)", () => {
  // Each character a spreadsheet reads as the start of a formula, with the cell it must become.
  const DANGEROUS = ["=", "+", "-", "@", "\t", "\r"];
  const cellOf = (text: string) => (/[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);
  let formulaAsset = 0;

  beforeAll(async () => {
    formulaAsset = (await (await alice.post("/assets", [{ name: "Formula asset", currency: "EUR" }])).json()).results[0].asset_id;
    const events = await alice.post("/assets/events", [{ asset_id: formulaAsset, events: [
      ...DANGEROUS.map((c, i) => ({ date: `2024-03-0${i + 1}`, type: "DIVIDEND", value: { code: "EUR", amount: "0.25" }, notes: `${c}SUM(A1)` })),
      { date: "2024-03-09", type: "PRICE_ADJUSTMENT", value: { code: "EUR", amount: "-12.50" }, notes: "plain note" },
    ] }]);
    expect(events.status).toBe(200);
    // Text columns no route lets a user write (a provider key, an FX provider) can still hold such text, e.g. from a restore.
    DANGEROUS.forEach((c, i) => {
      runDb(api.dataDir, `INSERT INTO price_history (asset_id, date, close, volume, currency, source_plugin_key) VALUES (?, ?, ?, ?, 'EUR', ?)`,
        [formulaAsset, `2024-04-0${i + 1}`, "-12.50", "1E+5", `${c}cmd|' /C calc'!A0`]);
      runDb(api.dataDir, `INSERT INTO fx_rates (base, quote, provider, date, rate, source) VALUES ('CHF', 'JPY', ?, ?, '-0.5', 'sync')`,
        [`${c}HYPERLINK("x")`, `2024-05-0${i + 1}`]);
    });
  });

  test("events CSV: notes starting with = + - @ tab or CR get a leading quote; the negative value stays a number", async () => {
    const csv = await (await bob.get(`/backup/asset/${formulaAsset}/events`)).text();
    DANGEROUS.forEach((c, i) => {
      expect(csv).toContain(`2024-03-0${i + 1},DIVIDEND,0.25,EUR,MANUAL,,${cellOf(`'${c}SUM(A1)`)},`);
    });
    expect(csv).toContain("2024-03-09,PRICE_ADJUSTMENT,-12.5,EUR,MANUAL,,plain note,");
    // The JSON envelope is not a spreadsheet: text as stored.
    const json = await (await bob.get(`/backup/asset/${formulaAsset}/events?format=json`)).json();
    expect(json.rows.map((r: any) => r.notes)).toEqual([...DANGEROUS.map((c) => `${c}SUM(A1)`), "plain note"]);
  });

  test("prices CSV: the source column is neutralised; prices and volumes are written as stored, even negative or in exponent form", async () => {
    const csv = await (await bob.get(`/backup/asset/${formulaAsset}/prices`)).text();
    // The volume as the database keeps it: SQLite keeps the text "1E+5", PostgreSQL's numeric reads back 100000.
    const volume = csv.includes(",1E+5,") ? "1E+5" : "100000";
    DANGEROUS.forEach((c, i) => {
      expect(csv).toContain(`2024-04-0${i + 1},,,,-12.50,${volume},EUR,${cellOf(`'${c}cmd|' /C calc'!A0`)},`);
    });
  });

  test("FX CSV: the source (provider) column is neutralised; the rate is written as stored", async () => {
    const csv = await (await bob.get("/backup/fx/CHF/JPY/rates")).text();
    DANGEROUS.forEach((c, i) => {
      expect(csv).toContain(`2024-05-0${i + 1},CHF,JPY,-0.5,${cellOf(`'${c}HYPERLINK("x")`)},`);
    });
  });
});

describe("formats and status", () => {
  test("formats list json for everybody and sqlite for administrators", async () => {
    const body = await (await bob.get("/backup/formats")).json();
    expect(body.items).toContainEqual(expect.objectContaining({ format: "json", available: true, admin_only: false }));
    expect(body.items).toContainEqual(expect.objectContaining({ format: "sqlite", available: true, admin_only: true }));
  });

  test("status is ready, with the caller's last export and restore (null before any)", async () => {
    const body = await (await bob.get("/backup/status")).json();
    expect(body).toMatchObject({ status: "ready", last_export_at: null, last_restore_at: null });
    expect(body.formats.length).toBeGreaterThan(0);
  });
});
