import { beforeAll, describe, expect, test } from "bun:test";
import { type ApiClient, expectError } from "../../helpers/client.ts";
import { queryDb } from "../../helpers/seed.ts";
import { useApi } from "../../helpers/server.ts";
import { buildZip, compressRepeated } from "../../helpers/archives.ts";
import { disableScheduler, exportJson, uploadText } from "./backup-helpers.ts";
import { buildRichPortfolio, type RichPortfolio } from "./rich-portfolio.ts";

// alice holds the rich portfolio (bob co-owns RT Main and shares Bob Shared with her); dave starts empty.
const api = useApi({ users: ["alice", "bob", "dave", "erin"] });
let alice: ApiClient;
let bob: ApiClient;
let dave: ApiClient;
let erin: ApiClient;
let p: RichPortfolio;
let exported: string;

const counts = () => Object.fromEntries(["assets", "brokers", "broker_access", "transactions", "asset_events", "price_history", "fx_rates",
  "asset_provider_assignments", "user_settings"].map((t) => [t, queryDb<{ n: number }>(api.dataDir, `SELECT count(*) AS n FROM ${t}`)[0]!.n]));

async function restore(c: ApiClient, text: string, body: Record<string, unknown> = {}) {
  const fileId = await uploadText(c, text);
  return c.post("/backup/restore", { file_id: fileId, ...body });
}

beforeAll(async () => {
  ({ alice, bob, dave, erin } = api.as as Record<string, ApiClient>);
  await disableScheduler(alice);
  p = await buildRichPortfolio(alice, bob, { alice: api.users.alice!.id, bob: api.users.bob!.id });
  exported = await exportJson(alice, { include_price_history: true });
}, 60_000);

describe("refused documents write nothing", () => {
  test("a file that is not an export is 400 BACKUP_NOT_AN_EXPORT", async () => {
    const before = counts();
    await expectError(await restore(dave, "date,close\r\n2024-01-01,1\r\n"), 400, "BACKUP_NOT_AN_EXPORT");
    await expectError(await restore(dave, JSON.stringify({ items: [] })), 400, "BACKUP_NOT_AN_EXPORT");
    expect(counts()).toEqual(before);
  });

  test("a compressed export (gzip, ZIP, or a gzip bomb) is 400 BACKUP_NOT_AN_EXPORT saying so, never unpacked; nothing is written", async () => {
    const before = counts();
    const { compressed: bomb } = await compressRepeated("[", "0,".repeat(512), 200_000, "0]", "gzip"); // 200 MB of JSON in ~200 KB
    for (const [name, bytes] of [
      ["export.json.gz", Bun.gzipSync(new TextEncoder().encode(exported))],
      ["export.zip", buildZip([{ name: "export.json", data: exported }])],
      ["bomb.json.gz", bomb],
    ] as const) {
      const form = new FormData();
      form.append("file", new File([bytes as Uint8Array<ArrayBuffer>], name));
      const upload = await dave.post("/uploads", form);
      expect(upload.status).toBe(201);
      const res = await dave.post("/backup/restore", { file_id: (await upload.json()).id });
      const body = await expectError(res, 400, "BACKUP_NOT_AN_EXPORT");
      expect(body.detail).toStartWith("The file is compressed (gzip or ZIP): restore reads the JSON export itself, uncompressed");
    }
    expect(counts()).toEqual(before);
  });

  test("a newer schema_version is 400 BACKUP_SCHEMA_TOO_NEW", async () => {
    const doc = JSON.parse(exported);
    doc.schema_version = 99;
    const body = await expectError(await restore(dave, JSON.stringify(doc)), 400, "BACKUP_SCHEMA_TOO_NEW");
    expect(body.params).toEqual({ schema_version: 99, supported: 1 });
  });

  test("a row that fails its section's rules (a float amount, JSON text that does not parse) is 422 BACKUP_ROWS_INVALID naming it", async () => {
    const before = counts();
    const float = JSON.parse(exported);
    float.sections.transactions[3].amount = -4057.33;
    const body = await expectError(await restore(dave, JSON.stringify(float)), 422, "BACKUP_ROWS_INVALID");
    expect(body.detail).toEqual([expect.objectContaining({ loc: ["file", "sections", "transactions", 3, "amount"], type: "invalid_type" })]);
    const badJson = JSON.parse(exported);
    const tagged = badJson.sections.transactions.findIndex((t: any) => t.tags !== null);
    badJson.sections.transactions[tagged].tags = "[core";
    expect((await expectError(await restore(dave, JSON.stringify(badJson)), 422, "BACKUP_ROWS_INVALID")).detail[0].loc)
      .toEqual(["file", "sections", "transactions", tagged, "tags"]);
    expect(counts()).toEqual(before);
  });

  test("a corrupt document (cut short, a dangling reference, a wrong row count, a repeated unique key) is 400 BACKUP_DOCUMENT_CORRUPT", async () => {
    const before = counts();
    await expectError(await restore(dave, exported.slice(0, Math.floor(exported.length / 2))), 400, "BACKUP_DOCUMENT_CORRUPT");
    const dangling = JSON.parse(exported);
    dangling.sections.transactions[0].broker_id = 99999;
    await expectError(await restore(dave, JSON.stringify(dangling)), 400, "BACKUP_DOCUMENT_CORRUPT");
    const short = JSON.parse(exported);
    short.sections.transactions.pop();
    await expectError(await restore(dave, JSON.stringify(short)), 400, "BACKUP_DOCUMENT_CORRUPT");
    // A row repeating its table's unique key (a price of the same asset and day, a rate of the same pair, provider and day).
    for (const section of ["prices", "fx_rates"]) {
      const repeated = JSON.parse(exported);
      expect(repeated.sections[section].length).toBeGreaterThan(0);
      repeated.sections[section].push({ ...repeated.sections[section][0] });
      repeated.row_counts[section]++;
      const body = await expectError(await restore(dave, JSON.stringify(repeated)), 400, "BACKUP_DOCUMENT_CORRUPT");
      expect(body.params).toMatchObject({ section, index: repeated.sections[section].length - 1 });
    }
    expect(counts()).toEqual(before);
  });

  test("someone else's upload is 404 UPLOAD_NOT_FOUND; an unknown id too; bad bodies 422", async () => {
    const fileId = await uploadText(alice, exported);
    await expectError(await dave.post("/backup/restore", { file_id: fileId }), 404, "UPLOAD_NOT_FOUND");
    await expectError(await dave.post("/backup/restore", { file_id: 987654 }), 404, "UPLOAD_NOT_FOUND");
    await expectError(await dave.post("/backup/restore", { file_id: fileId, overwrite_existing: "yes" }), 422, "VALIDATION_ERROR");
  });

  test("an asset that exists in another currency is 409 BACKUP_ASSET_CONFLICT and nothing is written", async () => {
    const doc = JSON.parse(exported);
    doc.sections.brokers.forEach((b: any) => { b.name = `${b.name} (conflict)`; });
    doc.sections.assets.find((a: any) => a.name === "RT Stock USD").currency = "GBP";
    doc.sections.prices = doc.sections.prices.filter((r: any) => r.asset_id !== p.assets.usd);
    doc.row_counts.prices = doc.sections.prices.length;
    const before = counts();
    await expectError(await restore(dave, JSON.stringify(doc)), 409, "BACKUP_ASSET_CONFLICT");
    expect(counts()).toEqual(before);
  });
});

describe("restoring into a server that holds data", () => {
  test("ids are remapped: dave gets new brokers as OWNER and new transactions whose pair links point at each other", async () => {
    const res = await restore(dave, exported);
    expect(res.status).toBe(200);
    const body = await res.json();
    // The assets exist (matched by ISIN, ticker, name): reused, not duplicated.
    expect(body.restored).toMatchObject({ brokers: 3, transactions: 18, assets: 0 });
    expect(body.skipped).toMatchObject({ assets: 3, prices: body.skipped.prices, fx_rates: 110 });
    const brokers = (await (await dave.get("/brokers")).json()).items;
    expect(brokers.map((b: any) => [b.name, b.user_role, b.user_share_percentage]).sort()).toEqual([
      ["Bob Shared", "OWNER", "1.000000"], ["RT Main", "OWNER", "0.600000"], ["RT Second", "OWNER", "1.000000"],
    ]);
    expect(brokers.every((b: any) => ![p.brokers.main, p.brokers.second, p.brokers.shared].includes(b.id))).toBe(true);
    const txs = await (await dave.get("/transactions?limit=1000")).json();
    expect(txs).toHaveLength(18);
    const byId = new Map(txs.map((t: any) => [t.id, t]));
    for (const t of txs.filter((t: any) => ["TRANSFER", "FX_CONVERSION"].includes(t.type))) {
      expect((byId.get(t.related_transaction_id) as any).related_transaction_id).toBe(t.id);
    }
    const assets = new Set(txs.map((t: any) => t.asset_id).filter(Boolean));
    expect(assets).toEqual(new Set([p.assets.stock, p.assets.usd, p.assets.bond]));
    // Linked events are the stored ones of the matched assets.
    const split = txs.find((t: any) => t.type === "ADJUSTMENT");
    expect(queryDb<any>(api.dataDir, "SELECT type, asset_id FROM asset_events WHERE id = ?", split.asset_event_id)).toEqual([{ type: "SPLIT", asset_id: p.assets.stock }]);
    // The access rows of the others are untouched; only dave was added.
    expect(queryDb<any>(api.dataDir, "SELECT DISTINCT user_id FROM broker_access WHERE broker_id IN (SELECT broker_id FROM broker_access WHERE user_id = ?)", api.users.dave!.id))
      .toEqual([{ user_id: api.users.dave!.id }]);
  });

  test("duplicates are skipped when overwrite_existing is false: a second restore changes nothing", async () => {
    const before = counts();
    const body = await (await restore(dave, exported)).json();
    expect(body.restored).toEqual(Object.fromEntries(Object.keys(body.restored).map((k) => [k, 0])));
    expect(body.skipped).toMatchObject({ brokers: 3, transactions: 18, assets: 3, fx_rates: 110, user_settings: 1 });
    expect(counts()).toEqual(before);
  });

  test("duplicates are replaced when overwrite_existing is true: a broker gets the export's transactions back", async () => {
    const main = (await (await dave.get("/brokers")).json()).items.find((b: any) => b.name === "RT Second");
    const own = await (await dave.get(`/transactions?broker_id=${main.id}`)).json();
    const sell = own.find((t: any) => t.type === "SELL");
    const tax = own.find((t: any) => t.type === "TAX");
    const deleted = await (await dave.post("/transactions/commit", { deletes: [sell.id, tax.id] })).json();
    expect(deleted.committed).toBe(true);
    const body = await (await restore(dave, exported, { overwrite_existing: true })).json();
    expect(body.restored).toMatchObject({ brokers: 3, transactions: 18 });
    const after = await (await dave.get(`/transactions?broker_id=${main.id}`)).json();
    expect(after.map((t: any) => [t.type, t.date, t.quantity, t.cash?.amount ?? null]).sort())
      .toEqual(own.map((t: any) => [t.type, t.date, t.quantity, t.cash?.amount ?? null]).sort());
    expect((await (await dave.get("/transactions?limit=1000")).json())).toHaveLength(18);
  });

  test("the keeper's overwrite replaces the asset's market data; another user's leaves it as stored (docs/assets.md)", async () => {
    const assetsOnly = await exportJson(alice, { scope: ["assets"], include_price_history: true });
    const price = () => queryDb<any>(api.dataDir, "SELECT close FROM price_history WHERE asset_id = ? AND date = '2024-01-02'", p.assets.stock)[0];
    expect((await alice.post("/assets/prices", [{ asset_id: p.assets.stock, prices: [{ date: "2024-01-02", close: "1" }] }])).status).toBe(200);
    const byDave = await (await restore(dave, assetsOnly, { overwrite_existing: true })).json();
    expect(byDave.restored).toMatchObject({ assets: 0, prices: 0, asset_events: 0 });
    expect(byDave.warnings).toContain('Asset "RT Stock EUR" is kept by another user: it and its market data were left as stored');
    expect(price()).toEqual({ close: "1" });
    const byAlice = await (await restore(alice, assetsOnly, { overwrite_existing: true })).json();
    expect(byAlice.restored.assets).toBe(3);
    expect(byAlice.warnings).toEqual([]);
    expect(price()).toEqual({ close: "100.3700" });
  });

  test("a transaction linked to an event that only the asset's keeper could add is refused (403) and nothing is written", async () => {
    const doc = JSON.parse(exported);
    const split = doc.sections.asset_events.find((e: any) => e.type === "SPLIT");
    split.date = "2024-03-02";
    const link = doc.sections.transactions.find((t: any) => t.asset_event_id === split.id);
    link.date = "2024-03-02";
    for (const b of doc.sections.brokers) b.name = `${b.name} (split test)`;
    const before = counts();
    const body = await expectError(await restore(dave, JSON.stringify(doc)), 403, "ASSET_KEEPER_OR_ADMIN_REQUIRED");
    expect(body.params).toEqual({ asset_ids: [p.assets.stock] });
    expect(counts()).toEqual(before);
  });

  test("replacing a broker the caller does not own is 403 BROKER_ROLE_REQUIRED and writes nothing", async () => {
    // alice is only EDITOR of "Bob Shared": an export naming it, restored by her with overwrite, may not replace it.
    const doc = JSON.parse(exported);
    doc.sections.brokers = doc.sections.brokers.filter((b: any) => b.name === "Bob Shared");
    doc.sections.broker_access = doc.sections.broker_access.filter((a: any) => a.broker_id === p.brokers.shared);
    doc.sections.transactions = doc.sections.transactions.filter((t: any) => t.broker_id === p.brokers.shared);
    for (const k of ["brokers", "broker_access", "transactions"]) doc.row_counts[k] = doc.sections[k].length;
    const before = counts();
    await expectError(await restore(alice, JSON.stringify(doc), { overwrite_existing: true }), 403, "BROKER_ROLE_REQUIRED");
    expect(counts()).toEqual(before);
  });

  test("status records the caller's last restore", async () => {
    const status = await (await dave.get("/backup/status")).json();
    expect(Number.isNaN(Date.parse(status.last_restore_at))).toBe(false);
  });
});

describe("duplicates are judged against what was stored before the restore", () => {
  test("two events of one asset on one day and type stay two, and a second restore adds none (by the keeper)", async () => {
    const doc = JSON.parse(exported);
    const dividend = doc.sections.asset_events.find((e: any) => e.asset_id === p.assets.usd && e.type === "DIVIDEND");
    doc.sections.asset_events.push({ ...dividend, id: 999_999, value: "0.10", notes: "special" });
    doc.row_counts.asset_events++;
    const text = JSON.stringify(doc);
    const dividends = () => queryDb<{ n: number }>(api.dataDir, "SELECT count(*) AS n FROM asset_events WHERE asset_id = ? AND type = 'DIVIDEND'", p.assets.usd)[0]!.n;
    expect(dividends()).toBe(1);
    const first = await (await restore(alice, text)).json();
    expect(first.restored.asset_events).toBe(1);
    expect(dividends()).toBe(2);
    const second = await (await restore(alice, text)).json();
    expect(second.restored.asset_events).toBe(0);
    expect(dividends()).toBe(2);
  });

  test("exported brokers sharing a name are restored as two brokers, the second renamed with a warning", async () => {
    const doc = JSON.parse(exported);
    for (const b of doc.sections.brokers) if (b.name !== "Bob Shared") b.name = "Twin";
    const fileId = await uploadText(bob, JSON.stringify(doc));
    const body = await (await bob.post("/backup/restore", { file_id: fileId })).json();
    expect(body.warnings).toContain('Broker "Twin" was restored as "Twin (2)": the name was taken');
    const names = (await (await bob.get("/brokers")).json()).items.map((b: any) => b.name);
    expect(names).toEqual(expect.arrayContaining(["Twin", "Twin (2)"]));
  });
});

describe("FX routes and rates", () => {
  test("a restored provider route replaces the pair's MANUAL placeholder, as saving it through the API does (an administrator's restore)", async () => {
    const placeholder = await alice.post("/fx/providers/routes", [{ base: "EUR", quote: "USD", priority: 999, chain_steps: [{ from: "EUR", to: "USD", provider: "MANUAL" }] }]);
    expect(placeholder.status).toBe(201);
    const doc = JSON.parse(exported);
    doc.sections.fx_routes = [
      { base: "EUR", quote: "USD", priority: 1, chain_steps: JSON.stringify([{ from: "EUR", provider: "ECB", to: "USD" }]) },
      { base: "EUR", quote: "USD", priority: 999, chain_steps: JSON.stringify([{ from: "EUR", provider: "MANUAL", to: "USD" }]) },
    ];
    doc.row_counts.fx_routes = 2;
    const body = await (await restore(alice, JSON.stringify(doc))).json();
    expect(body.restored.fx_routes).toBe(1);
    expect(body.skipped.fx_routes).toBe(1);
    const routes = (await (await alice.get("/fx/providers/routes")).json()).filter((r: any) => r.base === "EUR" && r.quote === "USD");
    expect(routes).toEqual([expect.objectContaining({ priority: 1, chain_steps: [expect.objectContaining({ from: "EUR", to: "USD", provider: "ECB" })] })]);
  });

  test("a non-admin's restore leaves the shared FX routes and rates as stored, with a warning, and restores the document's private rates as the restorer's own", async () => {
    const routes = async () => (await (await alice.get("/fx/providers/routes")).json()).filter((r: any) => r.base === "EUR" && r.quote === "USD");
    const rates = () => queryDb<any>(api.dataDir, "SELECT provider, date, rate FROM fx_rates WHERE base = 'EUR' AND quote = 'USD' ORDER BY provider, date");
    const routesBefore = await routes();
    const ratesBefore = rates();
    const doc = JSON.parse(exported);
    doc.sections.fx_routes = [{ base: "EUR", quote: "USD", priority: 1, chain_steps: JSON.stringify([{ from: "EUR", provider: "FED", to: "USD" }]) }];
    doc.sections.fx_rates = doc.sections.fx_rates.map((r: any) => ({ ...r, rate: "0.0001" }));
    doc.sections.fx_rates.push({ base: "EUR", quote: "USD", provider: "MANUAL", date: "2030-01-01", rate: "0.0001", source: "MANUAL", updated_at: null });
    doc.sections.fx_private_rates = [{ base: "CHF", quote: "EUR", date: "2024-01-01", rate: "0.95", source: "bank", updated_at: null }];
    for (const k of ["fx_routes", "fx_rates", "fx_private_rates"]) doc.row_counts[k] = doc.sections[k].length;
    const body = await (await restore(erin, JSON.stringify(doc), { overwrite_existing: true })).json();
    expect(body.restored).toMatchObject({ fx_routes: 0, fx_rates: 0, fx_private_rates: 1 });
    expect(body.skipped).toMatchObject({ fx_routes: 1, fx_rates: doc.sections.fx_rates.length, fx_private_rates: 0 });
    expect(body.warnings).toEqual(expect.arrayContaining([
      "1 FX route(s) left as stored: only an administrator changes the shared FX data (private rates are restored)",
      `${doc.sections.fx_rates.length} shared FX rate(s) left as stored: only an administrator changes the shared FX data (private rates are restored)`,
    ]));
    expect(await routes()).toEqual(routesBefore);
    expect(rates()).toEqual(ratesBefore);
    expect((await (await erin.get("/fx/currencies/private-rates")).json()).items).toEqual([{ base: "CHF", quote: "EUR", date: "2024-01-01", rate: "0.95", source: "bank" }]);
    expect((await (await alice.get("/fx/currencies/private-rates")).json()).items).toEqual([]);
  });
});
