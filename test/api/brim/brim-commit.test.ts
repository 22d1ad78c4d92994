import "reflect-metadata";
import { beforeAll, describe, expect, test } from "bun:test";
import { type ApiClient, expectError } from "../../helpers/client.ts";
import { queryDb } from "../../helpers/seed.ts";
import { useApi } from "../../helpers/server.ts";
import { failInsertsWhen, runDb } from "../../helpers/test-db.ts";
import { CommitResult } from "../../../host/api/brokers/import/brim-commit.schema.ts";
import { createBroker, sample, uploaded } from "./helpers.ts";

// POST /brokers/import/files/{id}/commit: the user's decisions applied to the stored parse on the
// server, new assets and rows written in one database transaction, a dry run that writes nothing.
const api = useApi({ users: ["dave", "bob", "carol"] });
let dave: ApiClient;
let bob: ApiClient;
let carol: ApiClient;
const account = sample("degiro", "Account.csv");
const FAKE = 2147473647;

beforeAll(() => {
  ({ dave, bob, carol } = api.as as Record<string, ApiClient>);
});

const count = (table: string) => Number(queryDb<{ n: number | string }>(api.dataDir, `SELECT count(*) AS n FROM ${table}`)[0]!.n);
const counts = () => ({ assets: count("assets"), transactions: count("transactions") });

async function parsedFile(c: ApiClient, brokerId: number, name: string, bytes: Uint8Array<ArrayBuffer> | string): Promise<{ fileId: string; parse: any }> {
  const file = await uploaded(c, brokerId, name, bytes);
  const res = await c.post(`/brokers/import/files/${file.file_id}/parse`, { plugin_code: "auto", broker_id: brokerId });
  expect(res.status).toBe(200);
  return { fileId: file.file_id, parse: await res.json() };
}

async function commit(c: ApiClient, fileId: string, body: Record<string, unknown>): Promise<any> {
  const res = await c.post(`/brokers/import/files/${fileId}/commit`, { edits: [], skips: [], asset_choices: [], ...body });
  expect(res.status).toBe(200);
  const answer = await res.json();
  expect(CommitResult.safeParse(answer).error?.issues ?? []).toEqual([]);
  return answer;
}

const ledger = async (c: ApiClient, brokerId: number): Promise<any[]> => (await c.get(`/transactions?broker_id=${brokerId}&limit=10000`)).json();
/** A row as the ledger reads it, in the commit answer's field names. */
const asWritten = (t: any) => ({
  transaction_id: t.id, broker_id: t.broker_id, type: t.type, date: t.date, quantity: t.quantity, cash: t.cash, asset_id: t.asset_id,
  tags: t.tags, description: t.description, cost_basis_override: t.cost_basis_override, cost_basis_mode: t.cost_basis_mode,
});
const createBoth = [{ fake_asset_id: FAKE, action: "create" }, { fake_asset_id: FAKE + 1, action: "create" }];

describe("a Degiro export imported in one server-side commit", () => {
  let broker: number;
  let fileId: string;
  let dry: any;
  let done: any;

  test("dry run: answers the rows, the assets to create and no issue, and writes nothing", async () => {
    broker = await createBroker(dave, "Commit Degiro");
    ({ fileId } = await parsedFile(dave, broker, "Account.csv", account));
    const before = counts();
    dry = await commit(dave, fileId, { dry_run: true, asset_choices: createBoth });
    expect(counts()).toEqual(before);
    expect(dry).toMatchObject({ dry_run: true, committed: false, file_id: fileId, broker_id: broker, row_count: 16, issues: [], skipped: [], duplicates: [] });
    expect(dry.parse_token).toMatch(/^[0-9a-f]{64}$/);
    expect(dry.rows.map((r: any) => r.row)).toEqual([...Array(16).keys()]);
    expect(dry.rows.every((r: any) => r.transaction_id === null)).toBe(true);
    expect(dry.assets).toEqual([
      { fake_asset_id: FAKE, action: "create", asset_id: null, name: "VANGUARD FTSE ALL-WORLD UCITS ETF USD DIS", currency: "EUR", asset_type: "ETF", identifier_isin: "IE00B3RBWM25", identifier_ticker: null, rows: 4 },
      { fake_asset_id: FAKE + 1, action: "create", asset_id: null, name: "APPLE INC. - COMMON STOCK", currency: "USD", asset_type: "STOCK", identifier_isin: "US0378331005", identifier_ticker: null, rows: 4 },
    ]);
    // Rows of a new asset carry its report key until it exists.
    expect(dry.rows.filter((r: any) => r.fake_asset_id !== null).every((r: any) => r.asset_id === null)).toBe(true);
    expect((await (await dave.get(`/brokers/import/files/${fileId}`)).json()).status).toBe("parsed");
  });

  test("commit: writes exactly what the dry run answered, the assets kept by the caller, the ids answered", async () => {
    const before = counts();
    done = await commit(dave, fileId, { dry_run: false, asset_choices: createBoth, parse_token: dry.parse_token });
    expect(done).toMatchObject({ dry_run: false, committed: true, issues: [], parse_token: dry.parse_token });
    expect(counts()).toEqual({ assets: before.assets + 2, transactions: before.transactions + 16 });
    const ids = new Map(done.assets.map((a: any) => [a.fake_asset_id, a.asset_id]));
    expect([...ids.values()].every((id) => typeof id === "number")).toBe(true);
    // The same answer, but for the ids the write gave.
    const strip = (r: any) => ({ ...r, transaction_id: null, asset_id: r.fake_asset_id === null ? r.asset_id : null });
    expect(done.rows.map(strip)).toEqual(dry.rows);
    expect(done.assets.map((a: any) => ({ ...a, asset_id: null }))).toEqual(dry.assets);
    expect(done.rows.every((r: any) => r.fake_asset_id === null || r.asset_id === ids.get(r.fake_asset_id))).toBe(true);
    // What the ledger holds is what the answer says was written.
    const stored = new Map((await ledger(dave, broker)).map((t) => [t.id, asWritten(t)]));
    expect(stored.size).toBe(16);
    for (const r of done.rows) {
      expect(stored.get(r.transaction_id)).toEqual({
        transaction_id: r.transaction_id, broker_id: r.broker_id, type: r.type, date: r.date, quantity: r.quantity, cash: r.cash, asset_id: r.asset_id,
        tags: r.tags, description: r.description, cost_basis_override: r.cost_basis_override, cost_basis_mode: r.cost_basis_mode,
      });
    }
    // FX pairs are linked, as the batch links them.
    const fx = (await ledger(dave, broker)).filter((t) => t.type === "FX_CONVERSION");
    expect(fx.every((t) => fx.some((o) => o.id === t.related_transaction_id))).toBe(true);
    const assets = await (await dave.get(`/assets?asset_ids=${[...ids.values()].join(",")}`)).json();
    expect(assets.map((a: any) => a.keeper_user_id)).toEqual([api.users.dave!.id, api.users.dave!.id]);
  });

  test("the same file imported again commits nothing: every row is a likely duplicate", async () => {
    const again = await parsedFile(dave, broker, "Account (1).csv", account);
    // The assets now exist: the parse pre-selects them (exact ISIN), so no choice is needed.
    expect(again.parse.asset_mappings.map((m: any) => m.selected_asset_id)).toEqual(done.assets.map((a: any) => a.asset_id));
    const before = counts();
    const second = await commit(dave, again.fileId, { dry_run: false });
    expect(second).toMatchObject({ committed: true, rows: [], assets: [], issues: [] });
    expect(second.skipped).toEqual([...Array(16).keys()].map((row) => ({ row, reason: "duplicate" })));
    expect(second.duplicates.map((d: any) => [d.row, d.match_level.startsWith("likely"), d.skipped])).toEqual([...Array(16).keys()].map((row) => [row, true, true]));
    expect(counts()).toEqual(before);
  });

  test("keep_duplicates writes the kept ones; one leg of an exchange alone is refused and nothing is written", async () => {
    const again = await parsedFile(dave, broker, "Account (2).csv", account);
    const before = counts();
    const half = await commit(dave, again.fileId, { dry_run: false, keep_duplicates: [10, 15] });
    expect(half.committed).toBe(false);
    expect(half.issues.map((i: any) => [i.row, i.code, i.params])).toEqual([[10, "pairLegLeftOut", { other_row: 11 }]]);
    expect(counts()).toEqual(before);

    const kept = await commit(dave, again.fileId, { dry_run: false, keep_duplicates: [10, 11, 15] });
    expect(kept).toMatchObject({ committed: true, issues: [] });
    expect(kept.rows.map((r: any) => [r.row, r.type])).toEqual([[10, "FX_CONVERSION"], [11, "FX_CONVERSION"], [15, "DEPOSIT"]]);
    expect(kept.duplicates.filter((d: any) => !d.skipped).map((d: any) => d.row)).toEqual([10, 11, 15]);
    expect(counts()).toEqual({ ...before, transactions: before.transactions + 3 });
    const stored = await ledger(dave, broker);
    const [a, b] = kept.rows.slice(0, 2).map((r: any) => stored.find((t) => t.id === r.transaction_id));
    expect(a.related_transaction_id).toBe(b.id);
  });
});

describe("edits, skips and asset choices are applied on the server", () => {
  const csv = [
    "Date,Type,Symbol,ISIN,Name,Quantity,Price,Amount,Currency,Fee,Description",
    "2024-01-02,Deposit,,,,,,1000.00,EUR,,Funding",
    "2024-01-03,Buy,,,,4,25.00,100.00,EUR,,Unnamed purchase",
    "2024-01-04,Buy,ACME,,Acme Corp,2,10.00,20.00,EUR,,",
    "2024-01-05,Fee,,,,,,3.00,EUR,,Custody",
  ].join("\n");
  let broker: number;
  let vee: number;

  beforeAll(async () => {
    broker = await createBroker(dave, "Commit edits");
    const res = await (await dave.post("/assets", [{ name: "Vee Corp", currency: "EUR" }])).json();
    vee = res.results[0].asset_id;
  });

  test("a row without an asset is refused until an edit gives it one; an unchosen asset is refused too", async () => {
    const { fileId, parse } = await parsedFile(dave, broker, "fix-me.csv", csv);
    expect(parse.field_todos.map((t: any) => [t.tx_index, t.reason_code])).toEqual([[1, "assetMissing"], [2, "assetUnmapped"]]);
    const before = counts();
    const refused = await commit(dave, fileId, { dry_run: false });
    expect(refused.committed).toBe(false);
    expect(refused.issues.map((i: any) => [i.row, i.code])).toEqual([[2, "assetUnmapped"], [1, "assetRequired"]]);
    expect(counts()).toEqual(before);
  });

  test("edits replace the parse's fields (null clears), skips leave rows out, a chosen asset is used", async () => {
    const { fileId } = await parsedFile(dave, broker, "fix-me.csv", csv);
    const before = counts();
    const answer = await commit(dave, fileId, {
      dry_run: false,
      edits: [
        { row: 1, asset_id: vee, cash: { code: "eur", amount: "-100.25" }, description: "Bought at the counter", tags: ["cash"] },
        { row: 0, description: null, date: "2024-01-01" },
      ],
      skips: [3],
      asset_choices: [{ fake_asset_id: FAKE, action: "use", asset_id: vee }],
    });
    expect(answer.issues).toEqual([]);
    expect(answer.committed).toBe(true);
    expect(answer.skipped).toEqual([{ row: 3, reason: "skipped" }]);
    expect(answer.rows.map((r: any) => [r.row, r.type, r.date, r.asset_id, r.cash, r.description, r.tags, r.edited])).toEqual([
      [0, "DEPOSIT", "2024-01-01", null, { code: "EUR", amount: "1000" }, null, null, true],
      [1, "BUY", "2024-01-03", vee, { code: "EUR", amount: "-100.25" }, "Bought at the counter", ["cash"], true],
      [2, "BUY", "2024-01-04", vee, { code: "EUR", amount: "-20" }, null, null, false],
    ]);
    expect(answer.assets).toEqual([{ fake_asset_id: FAKE, action: "use", asset_id: vee, name: "Vee Corp", currency: "EUR", asset_type: null, identifier_isin: null, identifier_ticker: null, rows: 1 }]);
    expect(counts()).toEqual({ assets: before.assets, transactions: before.transactions + 3 });
    const stored = (await ledger(dave, broker)).map(asWritten).sort((a, b) => a.date.localeCompare(b.date));
    expect(stored.map((t) => [t.date, t.type, t.asset_id, t.cash.amount, t.description])).toEqual([
      ["2024-01-01", "DEPOSIT", null, "1000", null],
      ["2024-01-03", "BUY", vee, "-100.25", "Bought at the counter"],
      ["2024-01-04", "BUY", vee, "-20", null],
    ]);
  });

  test("a row equal to an earlier row of the same import is written and flagged, never left out", async () => {
    const twice = `${csv}\n2024-01-05,Fee,,,,,,3.00,EUR,,Custody`;
    const { fileId } = await parsedFile(dave, await createBroker(dave, "Twice"), "twice.csv", twice);
    const answer = await commit(dave, fileId, { dry_run: true, skips: [1, 2] });
    expect(answer.issues).toEqual([]);
    expect(answer.rows.map((r: any) => r.row)).toEqual([0, 3, 4]);
    expect(answer.duplicates).toEqual([{ row: 4, match_level: "in_file", existing_transaction_ids: [], same_as_rows: [3], skipped: false }]);
  });

  test("an edit is checked as the write routes check it (422), and must name rows and assets of the parse", async () => {
    const { fileId } = await parsedFile(dave, broker, "fix-me.csv", csv);
    const before = counts();
    const post = (body: Record<string, unknown>) => dave.post(`/brokers/import/files/${fileId}/commit`, { dry_run: false, edits: [], skips: [], asset_choices: [], ...body });
    let body = await expectError(await post({ edits: [{ row: 0, quantity: "12345678901234567" }] }), 422, "VALIDATION_ERROR");
    expect(body.detail[0].loc).toEqual(["body", "edits", 0, "quantity"]);
    body = await expectError(await post({ edits: [{ row: 0, broker_id: 1 }] }), 422, "VALIDATION_ERROR");
    expect(body.detail[0].loc).toEqual(["body", "edits", 0, "broker_id"]);
    body = await expectError(await post({ skips: [4] }), 422, "VALIDATION_ERROR");
    expect(body.detail).toEqual([{ loc: ["body", "skips", 0], msg: "No row 4: the parse has 4 rows (0 to 3)", type: "row_not_found" }]);
    body = await expectError(await post({ edits: [{ row: 1, description: "a" }, { row: 1, description: "b" }] }), 422, "VALIDATION_ERROR");
    expect(body.detail[0].loc).toEqual(["body", "edits", 1, "row"]);
    body = await expectError(await post({ asset_choices: [{ fake_asset_id: FAKE + 7, action: "create" }] }), 422, "VALIDATION_ERROR");
    expect(body.detail[0].loc).toEqual(["body", "asset_choices", 0, "fake_asset_id"]);
    await expectError(await dave.post(`/brokers/import/files/${fileId}/commit`, { edits: [], skips: [], asset_choices: [] }), 422, "VALIDATION_ERROR");
    expect(counts()).toEqual(before);
  });
});

test("a large answer (2,500 rows) has the same shape, sent in slices and gzipped", async () => {
  const broker = await createBroker(dave, "Large");
  const lines = ["Date,Type,Amount,Currency,Description"];
  for (let i = 0; i < 2500; i++) lines.push(`2023-${String(1 + (i % 12)).padStart(2, "0")}-${String(1 + (i % 28)).padStart(2, "0")},Deposit,${i + 1}.25,EUR,slice ${i}`);
  const { fileId } = await parsedFile(dave, broker, "large.csv", `${lines.join("\n")}\n`);
  const before = counts();
  const res = await dave.post(`/brokers/import/files/${fileId}/commit`, { dry_run: true, edits: [], skips: [7], asset_choices: [] }, { "accept-encoding": "gzip" });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-encoding")).toBe("gzip");
  const dry = await res.json();
  expect(CommitResult.safeParse(dry).error?.issues ?? []).toEqual([]);
  expect(dry.rows).toHaveLength(2499);
  expect(dry.rows.slice(6, 8).map((r: any) => [r.row, r.cash.amount, r.description])).toEqual([[6, "7.25", "slice 6"], [8, "9.25", "slice 8"]]);
  expect(counts()).toEqual(before);
  const done = await commit(dave, fileId, { dry_run: false, skips: [7], parse_token: dry.parse_token });
  expect(done.committed).toBe(true);
  expect(done.rows.map((r: any) => ({ ...r, transaction_id: null }))).toEqual(dry.rows);
  expect(counts()).toEqual({ ...before, transactions: before.transactions + 2499 });
});

test("a re-import whose every row is a duplicate sends its 2,500 duplicates and skips in slices, in row order", async () => {
  const broker = await createBroker(dave, "Again");
  const lines = ["Date,Type,Amount,Currency,Description"];
  for (let i = 0; i < 2500; i++) lines.push(`2023-${String(1 + (i % 12)).padStart(2, "0")}-${String(1 + (i % 28)).padStart(2, "0")},Deposit,${i + 1}.25,EUR,again ${i}`);
  const csv = `${lines.join("\n")}\n`;
  const first = await parsedFile(dave, broker, "again.csv", csv);
  const done = await commit(dave, first.fileId, { dry_run: false });
  expect(done.rows).toHaveLength(2500);
  const before = counts();
  const { fileId } = await parsedFile(dave, broker, "again-2.csv", csv);
  const res = await dave.post(`/brokers/import/files/${fileId}/commit`, { dry_run: true, edits: [], skips: [7], asset_choices: [] });
  expect(res.status).toBe(200);
  // Streamed (no declared length), not made and sent in one piece.
  expect(res.headers.get("content-length")).toBeNull();
  const again = await res.json();
  expect(CommitResult.safeParse(again).error?.issues ?? []).toEqual([]);
  expect(again.rows).toEqual([]);
  expect(again.skipped).toEqual(Array.from({ length: 2500 }, (_, row) => ({ row, reason: row === 7 ? "skipped" : "duplicate" })));
  expect(again.duplicates).toHaveLength(2499);
  expect(again.duplicates.every((d: any) => d.match_level === "likely" && d.skipped && d.existing_transaction_ids.length === 1)).toBe(true);
  const twin = new Map(done.rows.map((r: any) => [r.row, r.transaction_id]));
  expect(again.duplicates.slice(0, 8).map((d: any) => [d.row, d.existing_transaction_ids[0]]))
    .toEqual([0, 1, 2, 3, 4, 5, 6, 8].map((row) => [row, twin.get(row)]));
  expect(counts()).toEqual(before);
});

describe("all or nothing: a commit that fails in the middle leaves no asset and no transaction", () => {
  const csv = [
    "Date,Type,Symbol,ISIN,Name,Quantity,Price,Amount,Currency,Fee,Description",
    "2024-01-02,Deposit,,,,,,100.00,EUR,,Funding",
    "2024-01-03,Buy,ZZA,,Zeta Alpha,1,50.00,50.00,EUR,,first",
    "2024-01-04,Buy,ZZB,,Zeta Beta,1,80.00,80.00,EUR,,boom",
  ].join("\n");
  const zeta = () => Number(queryDb<{ n: number | string }>(api.dataDir, `SELECT count(*) AS n FROM assets WHERE name LIKE 'Zeta%'`)[0]!.n);
  let broker: number;
  let fileId: string;
  const create = [{ fake_asset_id: FAKE, action: "create" }, { fake_asset_id: FAKE + 1, action: "create" }];

  beforeAll(async () => {
    broker = await createBroker(dave, "No overdraft");
    ({ fileId } = await parsedFile(dave, broker, "overdraw.csv", csv));
  });

  test("a row the ledger refuses (cash below zero) after the assets were created: the assets are gone too", async () => {
    const before = counts();
    for (const dryRun of [true, false]) {
      const answer = await commit(dave, fileId, { dry_run: dryRun, asset_choices: create });
      expect(answer.committed).toBe(false);
      expect(answer.issues.map((i: any) => [i.row, i.code, i.params?.currency])).toEqual([[null, "balanceCashNegative", "EUR"]]);
      expect(answer.assets.map((a: any) => [a.name, a.asset_id])).toEqual([["Zeta Alpha", null], ["Zeta Beta", null]]);
      expect(answer.rows.every((r: any) => r.transaction_id === null)).toBe(true);
      expect(counts()).toEqual(before);
      expect(zeta()).toBe(0);
    }
  });

  test("a failure of the database while the rows are written, after the assets were created: nothing stays", async () => {
    const undo = failInsertsWhen(api.dataDir, "brim_commit_boom", "transactions", "NEW.description = 'boom'");
    try {
      const before = counts();
      await expectError(await dave.post(`/brokers/import/files/${fileId}/commit`, {
        dry_run: false, edits: [{ row: 0, cash: { code: "EUR", amount: "1000" } }], skips: [], asset_choices: create,
      }), 500, "INTERNAL_ERROR");
      expect(counts()).toEqual(before);
      expect(zeta()).toBe(0);
    } finally {
      undo();
    }
    // The same decisions go through once the database takes the rows.
    const answer = await commit(dave, fileId, { dry_run: false, edits: [{ row: 0, cash: { code: "EUR", amount: "1000" } }], asset_choices: create });
    expect(answer.committed).toBe(true);
    expect(zeta()).toBe(2);
    expect((await ledger(dave, broker)).length).toBe(3);
  });

  test("an asset name already taken refuses the whole import", async () => {
    const again = await parsedFile(dave, broker, "theta.csv", csv.replace(/Zeta/g, "Theta").replace("50.00,50.00", "51.00,51.00").replace("80.00,80.00", "8.00,8.00"));
    await dave.post("/assets", [{ name: "theta beta", currency: "EUR" }]);
    const before = counts();
    const answer = await commit(dave, again.fileId, { dry_run: false, keep_duplicates: [0], asset_choices: create });
    expect(answer.committed).toBe(false);
    expect(answer.issues.map((i: any) => [i.fake_asset_id, i.code])).toEqual([[FAKE + 1, "assetNameTaken"]]);
    expect(counts()).toEqual(before);
  });
});

describe("who may commit, and which parse", () => {
  let broker: number;
  let fileId: string;
  let viewerOnly: number;

  beforeAll(async () => {
    broker = await createBroker(dave, "Shared import");
    expect((await dave.post(`/brokers/${broker}/access`, { user_id: api.users.bob!.id, role: "VIEWER" })).status).toBe(201);
    ({ fileId } = await parsedFile(dave, broker, "Account.csv", account));
    viewerOnly = await createBroker(bob, "Bob's own");
    expect((await bob.post(`/brokers/${viewerOnly}/access`, { user_id: api.users.dave!.id, role: "VIEWER" })).status).toBe(201);
  });

  const body = { dry_run: false, edits: [], skips: [], asset_choices: createBoth };

  test("a VIEWER gets 403, a user without access 404; into a broker the caller only views 403, cannot see 404; nothing is written", async () => {
    const before = counts();
    await expectError(await bob.post(`/brokers/import/files/${fileId}/commit`, body), 403, "BROKER_ROLE_REQUIRED");
    await expectError(await bob.post(`/brokers/import/files/${fileId}/commit`, { ...body, dry_run: true }), 403, "BROKER_ROLE_REQUIRED");
    await expectError(await carol.post(`/brokers/import/files/${fileId}/commit`, body), 404, "BRIM_FILE_NOT_FOUND");
    await expectError(await dave.post(`/brokers/import/files/${fileId}/commit`, { ...body, broker_id: viewerOnly }), 403, "BROKER_ROLE_REQUIRED");
    const hidden = await createBroker(carol, "Carol's");
    await expectError(await dave.post(`/brokers/import/files/${fileId}/commit`, { ...body, broker_id: hidden }), 404, "BROKER_NOT_FOUND");
    await expectError(await dave.post(`/brokers/import/files/not-a-file/commit`, body), 404, "BRIM_FILE_NOT_FOUND");
    expect(counts()).toEqual(before);
  });

  test("a file never parsed is 409 PARSE_MISSING, one parsed by another importer version 409 PARSE_STALE; a parse_token of an earlier parse is 409 PARSE_CHANGED", async () => {
    const before = counts();
    const raw = await uploaded(dave, broker, "Account.csv", account);
    await expectError(await dave.post(`/brokers/import/files/${raw.file_id}/commit`, body), 409, "PARSE_MISSING");
    // A parse made by another version of the importer than the one loaded now.
    const { fileId: old } = await parsedFile(dave, broker, "Account.csv", account);
    runDb(api.dataDir, `UPDATE brim_files SET parsed_plugin_version = '0.0.1' WHERE id = ?`, [old]);
    await expectError(await dave.post(`/brokers/import/files/${old}/commit`, { ...body, dry_run: true }), 409, "PARSE_STALE");
    const dry = await commit(dave, fileId, { ...body, dry_run: true });
    // The file is parsed again (in another tab, say) after the dry run was reviewed: its rows may differ now.
    expect((await dave.post(`/brokers/import/files/${fileId}/parse`, { plugin_code: "auto", broker_id: broker })).status).toBe(200);
    await expectError(await dave.post(`/brokers/import/files/${fileId}/commit`, { ...body, parse_token: dry.parse_token }), 409, "PARSE_CHANGED");
    expect(counts()).toEqual(before);
  });
});
