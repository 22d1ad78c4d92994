import { beforeAll, describe, expect, test } from "bun:test";
import { type ApiClient, expectError } from "../../helpers/client.ts";
import { queryDb } from "../../helpers/seed.ts";
import { useApi } from "../../helpers/server.ts";
import { disableScheduler, exportJson, uploadText } from "./backup-helpers.ts";
import { buildRichPortfolio, type RichPortfolio } from "./rich-portfolio.ts";

// A JSON restore writes rows past the write routes, so it must hold every row to their rules
// (docs/backup.md "Restore validation"): one value outside them refuses the whole restore with 422
// BACKUP_ROWS_INVALID naming the row, and nothing is written. alice holds the rich portfolio plus
// values the server computes itself (an inverted FX rate, an automatic cost basis of 100/3);
// dave, who holds nothing, restores her export.
const api = useApi({ users: ["alice", "bob", "dave"] });
let alice: ApiClient;
let dave: ApiClient;
let p: RichPortfolio;
let exported: string;

const SIXTY_DIGITS = "123456789012345678901234567890123456789012345678901234567890";
const FORTY_DIGITS = "1234567890123456789012345678901234567890";
const TWENTY_FIVE_DECIMALS = "101.1234567890123456789012345";
const THIRD = "33.33333333333333333333333333333333"; // 100 / 3 at the arithmetic's 34 digits
const NINTH = "1.111111111111111111111111111111111"; // 1 / 0.9, the stored EUR/USD of a USD/EUR rate of 0.9

const TABLES = ["assets", "brokers", "broker_access", "transactions", "asset_events", "price_history", "fx_rates", "fx_routes",
  "asset_provider_assignments", "user_settings"];
const counts = () => Object.fromEntries(TABLES.map((t) => [t, queryDb<{ n: number }>(api.dataDir, `SELECT count(*) AS n FROM ${t}`)[0]!.n]));
/** What dave reads: his brokers and transactions (none until a restore succeeds). */
const daveSees = async () => ({
  brokers: (await (await dave.get("/brokers")).json()).items.length,
  transactions: (await (await dave.get("/transactions?limit=1000")).json()).length,
});

async function restore(c: ApiClient, doc: unknown, body: Record<string, unknown> = {}) {
  const fileId = await uploadText(c, typeof doc === "string" ? doc : JSON.stringify(doc));
  return c.post("/backup/restore", { file_id: fileId, ...body });
}

async function commit(c: ApiClient, creates: Record<string, unknown>[]) {
  const res = await c.post("/transactions/commit", { creates });
  const out = await res.json();
  if (res.status !== 200 || !out.committed) throw new Error(`commit refused: ${JSON.stringify(out)}`);
}

beforeAll(async () => {
  ({ alice, dave } = api.as as Record<string, ApiClient>);
  await disableScheduler(alice);
  p = await buildRichPortfolio(alice, api.as.bob!, { alice: api.users.alice!.id, bob: api.users.bob!.id });
  // A rate entered the other way round is stored inverted, with 34 significant digits.
  expect((await alice.post("/fx/currencies/rate", [{ date: "2024-06-03", base: "USD", quote: "EUR", rate: "0.9" }])).status).toBe(200);
  // 3 units bought for 100 EUR and moved with an automatic cost basis: 100/3 per unit.
  const made = await (await alice.post("/brokers", [{ name: "RV From" }, { name: "RV To" }])).json();
  const [from, to] = made.results.map((r: any) => r.broker_id);
  await commit(alice, [
    { broker_id: from, type: "DEPOSIT", date: "2024-05-01", quantity: "0", cash: { code: "EUR", amount: "100" } },
    { broker_id: from, asset_id: p.assets.stock, type: "BUY", date: "2024-05-02", quantity: "3", cash: { code: "EUR", amount: "-100" } },
  ]);
  await commit(alice, [
    { broker_id: from, asset_id: p.assets.stock, type: "TRANSFER", date: "2024-05-03", quantity: "-3", link_uuid: "rv" },
    { broker_id: to, asset_id: p.assets.stock, type: "TRANSFER", date: "2024-05-03", quantity: "3", link_uuid: "rv", cost_basis_mode: "auto" },
  ]);
  exported = await exportJson(alice, { include_price_history: true });
}, 90_000);

/** The export with `change` applied to the first row of `section` that `pick` selects; returns the document and the row's index. */
function withRow(section: string, pick: (row: any) => boolean, change: (row: any) => void): { doc: any; index: number; id: unknown } {
  const doc = JSON.parse(exported);
  const index = doc.sections[section].findIndex(pick);
  expect(index).toBeGreaterThanOrEqual(0);
  change(doc.sections[section][index]);
  return { doc, index, id: doc.sections[section][index].id };
}

describe("a row outside the write routes' rules refuses the whole restore (422 BACKUP_ROWS_INVALID), nothing written", () => {
  const cases = [
    { what: "a 60-digit amount", section: "transactions", field: "amount", value: SIXTY_DIGITS, msg: "outside the supported range of amounts",
      type: "out_of_range", pick: (t: any) => t.type === "DEPOSIT" },
    { what: "a 40-digit quantity", section: "transactions", field: "quantity", value: FORTY_DIGITS, msg: "outside the supported range of quantities",
      type: "out_of_range", pick: (t: any) => t.type === "BUY" },
    { what: "a 25-decimal price", section: "prices", field: "close", value: TWENTY_FIVE_DECIMALS, msg: "outside the supported range of prices",
      type: "out_of_range", pick: (r: any) => r.source_plugin_key === "manual" },
    { what: "the date 2024-02-30", section: "transactions", field: "date", value: "2024-02-30", msg: "must be a real calendar date",
      type: "invalid_format", pick: (t: any) => t.type === "SELL" },
  ];
  for (const c of cases) {
    test(`${c.what} in ${c.section}.${c.field} is named with its row`, async () => {
      const { doc, index, id } = withRow(c.section, c.pick, (row) => { row[c.field] = c.value; });
      const before = counts();
      const body = await expectError(await restore(dave, doc), 422, "BACKUP_ROWS_INVALID");
      expect(body.detail).toEqual([{ loc: ["file", "sections", c.section, index, c.field], msg: expect.stringContaining(c.msg), type: c.type }]);
      if (id !== undefined) expect(body.detail[0].msg).toContain(`(row id ${id})`);
      expect(body.params).toEqual({ issue_count: 1, invalid_row_count: 1, shown: 1 });
      expect(counts()).toEqual(before);
      expect(await daveSees()).toEqual({ brokers: 0, transactions: 0 });
    });
  }

  test("several bad rows are listed together, in section order; the list stops at 100 and counts them all", async () => {
    const doc = JSON.parse(exported);
    const txs = doc.sections.transactions;
    const deposit = txs.findIndex((t: any) => t.type === "DEPOSIT");
    const buy = txs.findIndex((t: any) => t.type === "BUY");
    txs[deposit].amount = SIXTY_DIGITS;
    txs[buy].quantity = FORTY_DIGITS;
    txs[buy].date = "2024-02-30";
    const manual = doc.sections.prices.map((r: any, i: number) => [r, i]).filter(([r]: any) => r.source_plugin_key === "manual");
    manual[0][0].close = TWENTY_FIVE_DECIMALS;
    const before = counts();
    const body = await expectError(await restore(dave, doc), 422, "BACKUP_ROWS_INVALID");
    expect(body.detail.map((d: any) => d.loc)).toEqual([
      ["file", "sections", "prices", manual[0][1], "close"],
      ["file", "sections", "transactions", deposit, "amount"],
      ["file", "sections", "transactions", buy, "date"],
      ["file", "sections", "transactions", buy, "quantity"],
    ]);
    expect(body.params).toEqual({ issue_count: 4, invalid_row_count: 3, shown: 4 });

    for (const [row] of manual) row.close = TWENTY_FIVE_DECIMALS;
    expect(manual.length).toBeGreaterThan(100);
    const many = await expectError(await restore(dave, doc), 422, "BACKUP_ROWS_INVALID");
    expect(many.detail).toHaveLength(100);
    expect(many.params).toEqual({ issue_count: manual.length + 3, invalid_row_count: manual.length + 2, shown: 100 });
    expect(counts()).toEqual(before);
    expect(await daveSees()).toEqual({ brokers: 0, transactions: 0 });
  });

  test("enums, currency codes, shares, signs and the range of computed values are the write routes' too", async () => {
    const doc = JSON.parse(exported);
    const s = doc.sections;
    const at = (section: string, pick: (r: any) => boolean) => s[section].findIndex(pick);
    const expected: [string, number, string, string][] = [];
    const set = (section: string, index: number, field: string, value: unknown, msg: string) => {
      s[section][index][field] = value;
      expected.push([section, index, field, msg]);
    };
    set("assets", at("assets", (a: any) => a.asset_type === "BOND"), "asset_type", "SHARE", "Invalid option");
    set("assets", at("assets", (a: any) => a.asset_type === "ETF"), "quote_base_quantity", "0.0000000000000000000000001", "outside the supported range of quantities");
    set("asset_events", at("asset_events", (e: any) => e.provider_assignment_id === null && e.type === "DIVIDEND"), "value", "0.1234567890123456789",
      "outside the supported range of amounts");
    set("asset_events", at("asset_events", (e: any) => e.type === "SPLIT"), "currency", "eur", "a three-letter currency code");
    set("prices", at("prices", (r: any) => r.source_plugin_key === "manual"), "close", "0", "must be greater than 0");
    set("prices", at("prices", (r: any) => r.source_plugin_key === "manual" && r.volume !== null), "volume", "-5", "must not be negative");
    set("prices", at("prices", (r: any) => r.source_plugin_key !== "manual"), "close", `1.${"1".repeat(34)}`, "outside the range of stored values");
    set("fx_rates", 0, "rate", `1.${"0".repeat(40)}1`, "outside the range of stored values");
    set("brokers", at("brokers", (b: any) => b.name === "RT Main"), "opened_at", "2024-13-01", "must be a real calendar date");
    set("broker_access", 0, "share_percentage", "1.5", "must be a decimal between 0 and 1 with at most six decimals");
    set("transactions", at("transactions", (t: any) => t.type === "FEE"), "type", "GIFT", "Invalid option");
    set("transactions", at("transactions", (t: any) => t.cost_basis_mode === "auto"), "cost_basis_mode", "automatic", "Invalid option");
    const before = counts();
    const body = await expectError(await restore(dave, doc), 422, "BACKUP_ROWS_INVALID");
    const got = body.detail.map((d: any) => [d.loc[2], d.loc[3], d.loc[4], d.msg]);
    expect(got).toHaveLength(expected.length);
    for (const [section, index, field, msg] of expected) {
      expect(got).toContainEqual([section, index, field, expect.stringContaining(msg)]);
    }
    expect(counts()).toEqual(before);
  });

  test("a manual cost basis is held to the price limits; an automatic one to the range of computed values", async () => {
    const manual = withRow("transactions", (t: any) => t.cost_basis_mode === "auto" && t.cost_basis_override === THIRD, (t) => { t.cost_basis_mode = "manual"; });
    const body = await expectError(await restore(dave, manual.doc), 422, "BACKUP_ROWS_INVALID");
    expect(body.detail).toEqual([{ loc: ["file", "sections", "transactions", manual.index, "cost_basis_override"],
      msg: expect.stringContaining("outside the supported range of prices"), type: "out_of_range" }]);
    const long = withRow("transactions", (t: any) => t.cost_basis_override === THIRD, (t) => { t.cost_basis_override = `${THIRD}3`; });
    const refused = await expectError(await restore(dave, long.doc), 422, "BACKUP_ROWS_INVALID");
    expect(refused.detail[0]).toMatchObject({ loc: ["file", "sections", "transactions", long.index, "cost_basis_override"], type: "out_of_range" });
    expect(await daveSees()).toEqual({ brokers: 0, transactions: 0 });
  });
});

describe("values the server computed itself still restore", () => {
  test("an inverted FX rate and an automatic cost basis of 34 digits, provider prices and events: 200, stored exactly", async () => {
    const doc = JSON.parse(exported);
    expect(doc.sections.fx_rates.map((r: any) => r.rate)).toContain(NINTH);
    expect(doc.sections.transactions.map((t: any) => t.cost_basis_override)).toContain(THIRD);
    expect(doc.sections.prices.some((r: any) => r.source_plugin_key !== "manual")).toBe(true);
    expect(doc.sections.asset_events.some((e: any) => e.provider_assignment_id !== null)).toBe(true);
    const res = await restore(dave, exported);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.restored).toMatchObject({ brokers: 5, transactions: doc.sections.transactions.length });
    const restoredCost = queryDb<{ c: string }>(api.dataDir, `SELECT t.cost_basis_override AS c FROM transactions t
      JOIN broker_access a ON a.broker_id = t.broker_id AND a.user_id = ? WHERE t.cost_basis_mode = 'auto' AND t.cost_basis_override = ?`,
    api.users.dave!.id, THIRD);
    expect(restoredCost).toEqual([{ c: THIRD }]);
    expect(await daveSees()).toEqual({ brokers: 5, transactions: doc.sections.transactions.length });
  });
});
