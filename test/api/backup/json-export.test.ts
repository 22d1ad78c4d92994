import { Database } from "bun:sqlite";
import { beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ApiClient, expectError } from "../../helpers/client.ts";
import { ON_POSTGRES } from "../../helpers/postgres.ts";
import { useApi } from "../../helpers/server.ts";
import { disableScheduler, exportJson } from "./backup-helpers.ts";
import { buildRichPortfolio, type RichPortfolio } from "./rich-portfolio.ts";

// alice (superuser) holds the rich portfolio; carol has a private broker alice cannot see.
const api = useApi({ users: ["alice", "bob", "carol"] });
let alice: ApiClient;
let bob: ApiClient;
let carol: ApiClient;
let p: RichPortfolio;
let carolBroker: number;

beforeAll(async () => {
  ({ alice, bob, carol } = api.as as Record<string, ApiClient>);
  await disableScheduler(alice);
  p = await buildRichPortfolio(alice, bob, { alice: api.users.alice!.id, bob: api.users.bob!.id });
  carolBroker = (await (await carol.post("/brokers", [{ name: "Carol private", initial_balances: [{ code: "EUR", amount: "777.77" }] }])).json()).results[0].broker_id;
}, 60_000);

describe("POST /backup/export format json", () => {
  test("the document is self-describing: format, schema_version, app_version, exported_at, scope, row_counts", async () => {
    const doc = JSON.parse(await exportJson(alice));
    expect(doc).toMatchObject({ format: "portfolio-tracker-export", schema_version: 1, scope: ["all"], include_price_history: false, broker_ids: null });
    expect(doc.app_version).toMatch(/^\d+\.\d+\.\d+/);
    expect(Number.isNaN(Date.parse(doc.exported_at))).toBe(false);
    for (const [name, rows] of Object.entries(doc.sections)) expect(doc.row_counts[name]).toBe((rows as unknown[]).length);
  });

  test("the download is an attachment named portfolio-export_<today>.json", async () => {
    const res = await alice.post("/backup/export", {});
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(res.headers.get("content-disposition")).toContain(`portfolio-export_${new Date().toISOString().slice(0, 10)}.json`);
    await res.text();
  });

  test("everything the caller can read and nothing else: other users' brokers, access rows, ids and emails stay out", async () => {
    const text = await exportJson(alice, { include_price_history: true });
    const doc = JSON.parse(text);
    expect(doc.sections.brokers.map((b: any) => b.name).sort()).toEqual(["Bob Shared", "RT Main", "RT Second"]);
    expect(doc.sections.broker_access).toEqual([
      { broker_id: p.brokers.main, role: "OWNER", share_percentage: "0.600000" },
      { broker_id: p.brokers.second, role: "OWNER", share_percentage: "1.000000" },
      { broker_id: p.brokers.shared, role: "EDITOR", share_percentage: "0.000000" },
    ]);
    expect(doc.sections.transactions.some((t: any) => t.broker_id === carolBroker)).toBe(false);
    expect(text).not.toContain("@example.com");
    expect(text).not.toContain("777.77");
    expect(text).not.toContain("password");
    expect(text).not.toContain("user_id");
  });

  test("the caller's private FX rates travel in fx_private_rates; another user's never do", async () => {
    expect((await carol.post("/fx/currencies/private-rates", [{ date: "2024-01-05", base: "EUR", quote: "CHF", rate: "0.93" }])).status).toBe(200);
    const own = JSON.parse(await exportJson(carol));
    expect(own.sections.fx_private_rates).toEqual([{ base: "CHF", quote: "EUR", date: "2024-01-05", rate: expect.any(String), source: "MANUAL", updated_at: expect.any(String) }]);
    expect(JSON.parse(await exportJson(alice)).sections.fx_private_rates).toEqual([]);
    expect(JSON.parse(await exportJson(bob)).sections.fx_private_rates).toEqual([]);
  });

  test("decimals travel as the exact strings stored", async () => {
    const doc = JSON.parse(await exportJson(alice, { include_price_history: true }));
    expect(doc.sections.transactions.find((t: any) => t.description === "first buy")).toMatchObject({ quantity: "40", amount: "-4057.33", currency: "EUR" });
    const shareRows = doc.sections.prices.filter((r: any) => r.asset_id === p.assets.stock);
    expect(shareRows[1]).toMatchObject({ date: "2024-01-02", close: "100.3700", volume: "1001" });
    expect(doc.sections.fx_rates.every((r: any) => typeof r.rate === "string" && r.base === "EUR" && r.quote === "USD")).toBe(true);
  });

  test("prices only when include_price_history; assets, assignments, events, FX routes and rates always with the assets scope", async () => {
    const without = JSON.parse(await exportJson(alice, { scope: ["assets"] }));
    expect(Object.keys(without.sections)).toEqual(["assets", "provider_assignments", "asset_events", "prices", "fx_routes", "fx_rates", "fx_private_rates"]);
    expect(without.sections.prices).toEqual([]);
    expect(without.sections.assets.map((a: any) => a.name).sort()).toEqual(["RT Bond", "RT Stock EUR", "RT Stock USD"]);
    expect(JSON.parse(without.sections.assets.find((a: any) => a.name === "RT Stock EUR").classification_params))
      .toMatchObject({ geographic_area: { distribution: { DEU: "0.7000", FRA: "0.3000" } } });
    expect(without.sections.provider_assignments).toMatchObject([{ asset_id: p.assets.bond, provider_code: "scheduled_investment" }]);
    expect(without.sections.asset_events.some((e: any) => e.provider_assignment_id !== null)).toBe(true);
    expect(without.sections.asset_events.some((e: any) => e.provider_assignment_id === null)).toBe(true);
    expect(without.sections.fx_rates.length).toBe(110);
    const withPrices = JSON.parse(await exportJson(alice, { scope: ["assets"], include_price_history: true }));
    expect(withPrices.sections.prices.length).toBeGreaterThan(300);
  });

  test("scopes: settings alone is the caller's settings row; transactions bring their brokers and assets", async () => {
    const settings = JSON.parse(await exportJson(bob, { scope: ["settings"] }));
    expect(Object.keys(settings.sections)).toEqual(["user_settings"]);
    expect(settings.sections.user_settings).toHaveLength(1);
    const tx = JSON.parse(await exportJson(alice, { scope: ["transactions"] }));
    expect(Object.keys(tx.sections)).toEqual(["assets", "provider_assignments", "asset_events", "prices", "fx_routes", "fx_rates", "fx_private_rates", "brokers", "broker_access", "transactions"]);
  });

  test("broker_ids narrows the export; a broker without an access row is 404 BROKER_NOT_FOUND", async () => {
    const doc = JSON.parse(await exportJson(bob, { broker_ids: [p.brokers.shared] }));
    expect(doc.sections.brokers.map((b: any) => b.name)).toEqual(["Bob Shared"]);
    expect(new Set(doc.sections.transactions.map((t: any) => t.broker_id))).toEqual(new Set([p.brokers.shared]));
    expect(doc.sections.assets.map((a: any) => a.name)).toEqual(["RT Stock USD"]);
    await expectError(await alice.post("/backup/export", { broker_ids: [carolBroker] }), 404, "BROKER_NOT_FOUND");
    await expectError(await alice.post("/backup/export", { broker_ids: [p.brokers.main, 987654] }), 404, "BROKER_NOT_FOUND");
  });

  test("bad bodies are 422; no session is 401", async () => {
    await expectError(await alice.post("/backup/export", { format: "csv" }), 422, "VALIDATION_ERROR");
    await expectError(await alice.post("/backup/export", { scope: ["everything"] }), 422, "VALIDATION_ERROR");
    await expectError(await alice.post("/backup/export", { scope: [] }), 422, "VALIDATION_ERROR");
    await expectError(await alice.post("/backup/export", { extra: 1 }), 422, "VALIDATION_ERROR");
    await expectError(await api.client().post("/backup/export", {}), 401, "NOT_AUTHENTICATED");
  });

  test("status records the caller's last export", async () => {
    const status = await (await alice.get("/backup/status")).json();
    expect(Number.isNaN(Date.parse(status.last_export_at))).toBe(false);
  });
});

// The sqlite format copies the SQLite database file: on PostgreSQL there is none (409, tested below).
describe.skipIf(ON_POSTGRES)("POST /backup/export format sqlite", () => {
  test("is for administrators only (403 ADMIN_REQUIRED)", async () => {
    await expectError(await bob.post("/backup/export", { format: "sqlite" }), 403, "ADMIN_REQUIRED");
  });

  test("is a consistent snapshot of the whole database taken while writes continue", async () => {
    const writes = Array.from({ length: 6 }, (_, i) => carol.post("/transactions/commit", { creates: [
      { broker_id: carolBroker, type: "DEPOSIT", date: "2024-05-01", quantity: "0", cash: { code: "EUR", amount: "100" } },
      { broker_id: carolBroker, type: "FX_CONVERSION", date: "2024-05-02", quantity: "0", cash: { code: "EUR", amount: "-10" }, link_uuid: `s${i}` },
      { broker_id: carolBroker, type: "FX_CONVERSION", date: "2024-05-02", quantity: "0", cash: { code: "USD", amount: "11" }, link_uuid: `s${i}` },
    ] }));
    const res = await alice.post("/backup/export", { format: "sqlite" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toContain(".sqlite");
    const bytes = new Uint8Array(await res.arrayBuffer());
    await Promise.all(writes);
    const dir = mkdtempSync(join(tmpdir(), "pt-sqlite-export-"));
    try {
      const file = join(dir, "copy.sqlite");
      writeFileSync(file, bytes);
      const db = new Database(file, { readonly: true });
      expect(db.query("PRAGMA integrity_check").get()).toEqual({ integrity_check: "ok" });
      expect((db.query("SELECT count(*) AS n FROM brokers").get() as any).n).toBe(4);
      expect((db.query("SELECT count(*) AS n FROM users").get() as any).n).toBe(3);
      // Whole batches only: every conversion leg has its partner, and each batch's deposit came with it.
      const legs = db.query("SELECT id, related_transaction_id FROM transactions WHERE type = 'FX_CONVERSION' AND broker_id = ?").all(carolBroker) as any[];
      const ids = new Set(legs.map((l) => l.id));
      expect(legs.every((l) => ids.has(l.related_transaction_id))).toBe(true);
      const deposits = (db.query("SELECT count(*) AS n FROM transactions WHERE broker_id = ? AND date = '2024-05-01'").get(carolBroker) as any).n;
      expect(legs.length).toBe(deposits * 2);
      db.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect((await import("node:fs")).readdirSync(api.dataDir).filter((f) => f.startsWith(".backup-"))).toEqual([]);
  });
});

describe.if(ON_POSTGRES)("POST /backup/export format sqlite on PostgreSQL", () => {
  test("is 409 EXPORT_FORMAT_UNAVAILABLE for an administrator and still 403 for others", async () => {
    await expectError(await alice.post("/backup/export", { format: "sqlite" }), 409, "EXPORT_FORMAT_UNAVAILABLE");
    await expectError(await bob.post("/backup/export", { format: "sqlite" }), 403, "ADMIN_REQUIRED");
  });
});

describe("downloads are byte-exact, compressed or not", () => {
  // A SQLite file's pages (SQLite only, see above).
  test.skipIf(ON_POSTGRES)("the sqlite file is a valid database with and without gzip", async () => {
    for (const encoding of ["identity", "gzip"]) {
      const res = await fetch(`${api.base}/backup/export`, {
        method: "POST", headers: { cookie: alice.cookie, "content-type": "application/json", "accept-encoding": encoding },
        body: JSON.stringify({ format: "sqlite" }), decompress: false,
      } as RequestInit);
      expect(res.headers.get("x-streamed-body")).toBeNull();
      let bytes = new Uint8Array(await res.arrayBuffer());
      if (encoding === "gzip") bytes = Bun.gunzipSync(bytes);
      const pageSize = (bytes[16]! << 8) | bytes[17]!;
      const pages = new DataView(bytes.buffer, bytes.byteOffset).getUint32(28);
      expect({ encoding, length: bytes.length }).toEqual({ encoding, length: pageSize * pages });
    }
  });

  test("text outside ASCII survives the stream (a name with €, accents and an emoji)", async () => {
    const name = "Société Générale € 📈";
    const created = await (await alice.post("/assets", [{ name, currency: "EUR" }])).json();
    const id = created.results[0].asset_id;
    await alice.post("/assets/prices", [{ asset_id: id, prices: Array.from({ length: 900 }, (_, d) => ({ date: `20${String(10 + Math.floor(d / 300)).padStart(2, "0")}-${String(1 + Math.floor((d % 300) / 28)).padStart(2, "0")}-${String(1 + (d % 28)).padStart(2, "0")}`, close: "1.5" })) }]);
    const events = await alice.post("/assets/events", [{ asset_id: id, events: [{ date: "2011-01-01", type: "DIVIDEND", value: { code: "EUR", amount: "0.1" }, notes: `${name} — dividende` }] }]);
    expect(events.status).toBe(200);
    const json = await (await alice.get(`/backup/asset/${id}/events?format=json`)).json();
    expect(json.rows[0].notes).toBe(`${name} — dividende`);
    const res = await alice.get(`/backup/asset/${id}/prices`);
    expect(decodeURIComponent(res.headers.get("content-disposition")!.split("filename*=UTF-8''")[1]!)).toMatch(/^prices_societe-generale_/);
    expect((await res.text()).split("\r\n").filter(Boolean)).toHaveLength(901);
  });
});
