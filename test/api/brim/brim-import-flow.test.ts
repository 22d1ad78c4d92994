import { beforeAll, describe, expect, test } from "bun:test";
import { type ApiClient, expectError } from "../../helpers/client.ts";
import { useApi } from "../../helpers/server.ts";
import { ParseResult } from "../../../host/api/brokers/import/brim.schema.ts";
import { createBroker, sample, slowPluginEnv, uploaded } from "./helpers.ts";

const api = useApi({ users: ["admin", "dave"], env: slowPluginEnv() });
let dave: ApiClient;
const account = sample("degiro", "Account.csv");
const FAKE = 2147473647;

beforeAll(() => {
  ({ dave } = api.as);
});

const parse = (c: ApiClient, fileId: string, brokerId: number, pluginCode = "auto", options?: Record<string, unknown>) =>
  c.post(`/brokers/import/files/${fileId}/parse`, { plugin_code: pluginCode, broker_id: brokerId, ...(options ? { options } : {}) });

async function createAssets(c: ApiClient, items: Record<string, unknown>[]): Promise<number[]> {
  const body = await (await c.post("/assets", items)).json();
  expect(body.success_count).toBe(items.length);
  return body.results.map((r: any) => r.asset_id);
}

const ledgerCount = async (c: ApiClient, brokerId: number) => (await (await c.get(`/transactions?broker_id=${brokerId}`)).json()).length;

describe("a new user imports a Degiro export through the API alone", () => {
  let broker: number;
  let fileId: string;
  let preview: any;
  let vwrl: number;
  let aapl: number;

  test("upload: detection names broker_degiro first", async () => {
    broker = await createBroker(dave, "My Degiro");
    const file = await uploaded(dave, broker, "Account.csv", account);
    expect(file.compatible_plugins[0]).toBe("broker_degiro");
    fileId = file.file_id;
  });

  test("parse (auto): commit creates in the ledger's signs, fills merged, FX pairs linked, fake asset ids, todos for unmapped assets", async () => {
    const res = await parse(dave, fileId, broker);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-encoding")).toBe("gzip");
    preview = await res.json();
    expect(ParseResult.safeParse(preview).error?.issues ?? []).toEqual([]);
    expect(preview).toMatchObject({ file_id: fileId, plugin_code: "broker_degiro", plugin_version: "1.1.0", broker_id: broker, validation_issues: [] });
    const A = FAKE;
    const B = FAKE + 1;
    const rows = preview.transactions.map((t: any) => [t.type, t.date, t.quantity, t.cash ? `${t.cash.amount} ${t.cash.code}` : null, t.asset_id ?? null, t.link_uuid ? "L" : null]);
    expect(rows).toEqual([
      ["WITHDRAWAL", "2024-04-02", "0", "-200 EUR", null, null],
      ["INTEREST", "2024-04-01", "0", "0.45 EUR", null, null],
      ["FEE", "2024-03-12", "0", "-1 EUR", A, null],
      ["SELL", "2024-03-12", "-3", "336.3 EUR", A, null],
      ["FEE", "2024-03-01", "0", "-2.5 EUR", null, null],
      ["FX_CONVERSION", "2024-02-15", "0", "-10.2 USD", null, "L"],
      ["FX_CONVERSION", "2024-02-15", "0", "9.35 EUR", null, "L"],
      ["TAX", "2024-02-14", "0", "-1.8 USD", B, null],
      ["DIVIDEND", "2024-02-14", "0", "12 USD", B, null],
      ["FEE", "2024-01-05", "0", "-2 EUR", B, null],
      ["FX_CONVERSION", "2024-01-05", "0", "-869.96 EUR", null, "L"],
      ["FX_CONVERSION", "2024-01-05", "0", "950 USD", null, "L"],
      ["BUY", "2024-01-05", "5", "-950 USD", B, null],
      ["FEE", "2024-01-03", "0", "-1 EUR", A, null],
      ["BUY", "2024-01-03", "10", "-1084.2 EUR", A, null],
      ["DEPOSIT", "2024-01-02", "0", "2500 EUR", null, null],
    ]);
    const t = preview.transactions;
    expect(t[5].link_uuid).toBe(t[6].link_uuid);
    expect(t[10].link_uuid).toBe(t[11].link_uuid);
    expect(t[5].link_uuid).not.toBe(t[10].link_uuid);
    expect(preview.asset_mappings).toEqual([
      { fake_asset_id: A, extracted_isin: "IE00B3RBWM25", extracted_name: "VANGUARD FTSE ALL-WORLD UCITS ETF USD DIS", extracted_asset_type: "ETF", candidates: [], selected_asset_id: null, notices: [{ kind: "rows", reason: expect.any(String), transaction_indexes: [2, 3, 13, 14] }] },
      { fake_asset_id: B, extracted_isin: "US0378331005", extracted_name: "APPLE INC. - COMMON STOCK", extracted_asset_type: "STOCK", candidates: [], selected_asset_id: null, notices: [{ kind: "rows", reason: expect.any(String), transaction_indexes: [7, 8, 9, 12] }] },
    ]);
    expect(preview.field_todos.map((f: any) => [f.tx_index, f.reason_code, f.severity])).toEqual(
      [2, 3, 7, 8, 9, 12, 13, 14].map((i) => [i, "assetUnmapped", "blocker"]),
    );
    expect(preview.warnings.map((w: any) => w.code).sort()).toEqual(["fillsMerged", "rowSkipped"]);
    expect(preview.duplicates).toEqual({ tx_unique_indices: [...Array(16).keys()], tx_possible_duplicates: [], tx_likely_duplicates: [] });
  });

  test("preview only: nothing reached the ledger; the file is parsed and last-parse answers the same result", async () => {
    expect(await ledgerCount(dave, broker)).toBe(0);
    const file = await (await dave.get(`/brokers/import/files/${fileId}`)).json();
    expect(file).toMatchObject({ status: "parsed", parsed_plugin_code: "broker_degiro", parsed_plugin_version: "1.1.0", parse_is_stale: false, error_message: null });
    expect(file.processed_at).toEqual(expect.any(String));
    expect(await (await dave.get(`/brokers/import/files/${fileId}/last-parse`)).json()).toEqual(preview);
    const plain = await dave.get(`/brokers/import/files/${fileId}/last-parse`, { "accept-encoding": "identity" });
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(await plain.json()).toEqual(preview);
  });

  test("asset candidates: ISIN → exact, ticker → high, name similarity → medium or low", async () => {
    [vwrl, aapl] = await createAssets(dave, [
      { name: "Vanguard FTSE All-World UCITS ETF (USD) Distributing", currency: "USD", identifier_isin: "IE00B3RBWM25", identifier_ticker: "VWRL" },
      { name: "Apple Inc.", currency: "USD", identifier_isin: "US0378331005", identifier_ticker: "AAPL" },
    ]);
    const body = await (await dave.post("/brokers/import/asset-candidates", { items: [
      { extracted_isin: "IE00B3RBWM25" }, { extracted_symbol: "aapl" }, { extracted_name: "APPLE INC" }, { extracted_name: "Zzyzx Corp" },
    ] })).json();
    expect(body.items.map((i: any) => i.candidates.map((c: any) => [c.asset_id, c.match_confidence]))).toEqual([
      [[vwrl, "exact"]], [[aapl, "high"]], [[aapl, "medium"]], [],
    ]);
  });

  test("re-parse: the exact candidates are selected and the todos are gone", async () => {
    preview = await (await parse(dave, fileId, broker, "broker_degiro")).json();
    expect(preview.asset_mappings.map((m: any) => [m.selected_asset_id, m.candidates[0]?.match_confidence])).toEqual([[vwrl, "exact"], [aapl, "exact"]]);
    expect(preview.field_todos).toEqual([]);
  });

  test("commit through POST /transactions/commit with the fake ids replaced; the summary and the report show the positions", async () => {
    const real = new Map(preview.asset_mappings.map((m: any) => [m.fake_asset_id, m.selected_asset_id]));
    const creates = preview.transactions.map((t: any) => (t.asset_id === undefined ? t : { ...t, asset_id: real.get(t.asset_id) }));
    const result = await (await dave.post("/transactions/commit", { creates })).json();
    expect(result.issues).toEqual([]);
    expect(result.committed).toBe(true);
    expect(await ledgerCount(dave, broker)).toBe(16);

    const summary = await (await dave.get(`/brokers/${broker}/summary`)).json();
    expect(summary.cash_balances).toEqual(expect.arrayContaining([{ code: "EUR", amount: "685.44" }]));
    expect(summary.holdings.map((h: any) => [h.asset_id, h.quantity]).sort()).toEqual([[vwrl, "7"], [aapl, "5"]].sort());

    const report = await (await dave.post("/portfolio/report", {
      broker_ids: [broker], date_range: { start: "2024-01-01", end: "2024-04-30" }, include_positions_contribution: true, include_allocation_history: false,
    })).json();
    const positions = report.positions_contribution.positions.map((p: any) => p.asset_id).sort();
    expect(positions).toEqual([vwrl, aapl].sort());
  });

  test("importing the same file twice shows every row as a duplicate", async () => {
    const again = await uploaded(dave, broker, "Account (1).csv", account);
    const second = await (await parse(dave, again.file_id, broker)).json();
    expect(second.duplicates.tx_unique_indices).toEqual([]);
    expect(second.duplicates.tx_possible_duplicates).toEqual([]);
    expect(second.duplicates.tx_likely_duplicates.map((d: any) => d.tx_index)).toEqual([...Array(16).keys()]);
    const levels = new Map(second.duplicates.tx_likely_duplicates.map((d: any) => [d.tx_index, d.match_level]));
    expect(levels.get(14)).toBe("likely_with_asset");
    expect(levels.get(15)).toBe("likely");
    const ids = second.duplicates.tx_likely_duplicates.map((d: any) => d.existing_transaction_ids[0]);
    expect(new Set(ids).size).toBe(16);
  });

  test("POST /brokers/import/duplicates re-checks edited rows: another day within 3 days is possible, another amount unique", async () => {
    const body = await (await dave.post("/brokers/import/duplicates", {
      broker_id: broker,
      transactions: [
        { type: "DEPOSIT", date: "2024-01-03", quantity: "0", cash: { code: "EUR", amount: "2500.00" } },
        { type: "DEPOSIT", date: "2024-01-02", quantity: "0", cash: { code: "EUR", amount: "2400" } },
        { type: "BUY", date: "2024-01-05", quantity: "5", cash: { code: "USD", amount: "-950" }, asset_id: FAKE },
      ],
      asset_mappings: [{ fake_asset_id: FAKE, selected_asset_id: aapl }],
    })).json();
    expect(body.tx_unique_indices).toEqual([1]);
    expect(body.tx_possible_duplicates).toEqual([{ tx_index: 0, match_level: "possible", existing_transaction_ids: [expect.any(Number)] }]);
    expect(body.tx_likely_duplicates).toEqual([{ tx_index: 2, match_level: "likely_with_asset", existing_transaction_ids: [expect.any(Number)] }]);
  });
});

describe("bad input gets a clear error or a failed status, never a 500, and nothing is committed", () => {
  let broker: number;
  beforeAll(async () => {
    broker = await createBroker(dave, "Bad input");
  });

  async function expectFailedParse(name: string, bytes: Uint8Array<ArrayBuffer> | string, pluginCode: string, message: RegExp) {
    const file = await uploaded(dave, broker, name, bytes);
    const body = await expectError(await parse(dave, file.file_id, broker, pluginCode), 400, "PARSE_FAILED");
    expect(body.detail).toMatch(message);
    const after = await (await dave.get(`/brokers/import/files/${file.file_id}`)).json();
    expect(after.status).toBe("failed");
    expect(after.error_message).toMatch(message);
    expect(await (await dave.get(`/brokers/import/files/${file.file_id}/last-parse`)).json()).toBeNull();
    return file;
  }

  test("a damaged PDF: no plugin claims it, and the parse fails naming why (docs/import.md \"Broker PDF documents\")", async () => {
    const file = await expectFailedParse("statement.pdf", "%PDF-1.7\n1 0 obj\n<<>>\nendobj\n", "auto", /PDF cannot be read: the PDF is damaged/i);
    expect(file.compatible_plugins).toEqual([]);
  });

  test("a binary file", async () => {
    await expectFailedParse("data.csv", new Uint8Array([1, 2, 3, 0, 0, 9, 200, 100]), "auto", /header row/i);
  });

  test("a CSV whose rows do not match its header", async () => {
    await expectFailedParse("broken.csv", "Date,Type,Amount,Currency\n2024-01-02,Deposit\n2024-01-03\n2024-01-04,Deposit,5,EUR,x,y\n", "broker_generic_csv", /columns/);
  });

  // Another broker's file forced with the wrong plugin, cut short, a corrupt row, an unknown variant: brim-bad-input.test.ts.

  test("a parse that never ends is stopped at the time limit; the file is failed and the server keeps answering", async () => {
    await expectFailedParse("slow.csv", "a,b\n1,2\n", "slow_importer", /took longer than/);
    expect((await api.client().get("/system/health")).status).toBe(200);
    const ok = await uploaded(dave, broker, "Account.csv", account);
    expect((await parse(dave, ok.file_id, broker)).status).toBe(200);
  });

  test("an unknown plugin code is 400 PLUGIN_NOT_FOUND; an unknown body key 422", async () => {
    const file = await uploaded(dave, broker, "Account.csv", account);
    await expectError(await parse(dave, file.file_id, broker, "broker_nope"), 400, "PLUGIN_NOT_FOUND");
    await expectError(await dave.post(`/brokers/import/files/${file.file_id}/parse`, { broker_id: broker, bogus: 1 }), 422, "VALIDATION_ERROR");
  });

  test("nothing of any of it reached the ledger", async () => {
    expect(await ledgerCount(dave, broker)).toBe(0);
  });
});
