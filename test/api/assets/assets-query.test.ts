import { beforeAll, describe, expect, test } from "bun:test";
import { ApiClient, expectError } from "../../helpers/client.ts";
import { type TestServer, useApi } from "../../helpers/server.ts";
import { createAssets } from "./assets-helpers.ts";

const api = useApi();
let server: TestServer;
let c: ApiClient;
let ids: Record<string, number>;

beforeAll(async () => {
  server = api.server;
  c = new ApiClient(server.base);
  await c.signUp("querier");
  const [apple, vwce, bond, oldEtf] = await createAssets(c, [
    { name: "Apple Inc.", currency: "USD", asset_type: "STOCK", identifier_isin: "US0378331005", identifier_ticker: "AAPL" },
    { name: "Vanguard FTSE All-World", currency: "EUR", asset_type: "ETF", identifier_isin: "IE00BK5BQT80", identifier_ticker: "VWCE", identifier_other: ["A2PKXG"] },
    { name: "BTP 2030", currency: "EUR", asset_type: "BOND", identifier_cusip: "123456789", quote_base_quantity: "100" },
    { name: "Old ETF", currency: "EUR", asset_type: "ETF", active: false, identifier_figi: "BBG000B9XRY4" },
  ]);
  ids = { apple: apple!, vwce: vwce!, bond: bond!, oldEtf: oldEtf! };
});

async function names(query: string): Promise<string[]> {
  const res = await c.get(`/assets/query${query}`);
  expect(res.status).toBe(200);
  return (await res.json()).map((a: any) => a.name);
}

describe("GET /assets/query filters (every given filter must match)", () => {
  test("no filter lists every asset, archived ones included, by name", async () => {
    expect(await names("")).toEqual(["Apple Inc.", "BTP 2030", "Old ETF", "Vanguard FTSE All-World"]);
  });

  test("currency, asset_type and the tri-state active combine", async () => {
    expect(await names("?currency=eur")).toEqual(["BTP 2030", "Old ETF", "Vanguard FTSE All-World"]);
    expect(await names("?asset_type=ETF")).toEqual(["Old ETF", "Vanguard FTSE All-World"]);
    expect(await names("?asset_type=ETF&active=true")).toEqual(["Vanguard FTSE All-World"]);
    expect(await names("?active=false")).toEqual(["Old ETF"]);
  });

  test("search matches the name or any identifier, ignoring case", async () => {
    expect(await names("?search=vanguard")).toEqual(["Vanguard FTSE All-World"]);
    expect(await names("?search=aapl")).toEqual(["Apple Inc."]);
    expect(await names("?search=a2pk")).toEqual(["Vanguard FTSE All-World"]);
    expect(await names("?search=2030")).toEqual(["BTP 2030"]);
  });

  test("exact identifier filters, identifier_other and identifier_contains", async () => {
    expect(await names("?isin=us0378331005")).toEqual(["Apple Inc."]);
    expect(await names("?ticker=VWCE")).toEqual(["Vanguard FTSE All-World"]);
    expect(await names("?cusip=123456789")).toEqual(["BTP 2030"]);
    expect(await names("?figi=BBG000B9XRY4")).toEqual(["Old ETF"]);
    expect(await names("?ticker=VWC")).toEqual([]);
    expect(await names("?identifier_other=a2pkxg")).toEqual(["Vanguard FTSE All-World"]);
    expect(await names("?identifier_contains=00B")).toEqual(["Old ETF", "Vanguard FTSE All-World"]);
  });

  test("rows carry the list fields", async () => {
    const [row] = await (await c.get("/assets/query?search=BTP")).json();
    expect(row).toEqual({
      id: ids.bond, name: "BTP 2030", currency: "EUR", asset_type: "BOND", icon_url: null, user_url: null, quote_base_quantity: "100",
      active: true, provider_code: null, has_metadata: false, tx_count: 0, tx_count_own: 0, identifier_isin: null, identifier_ticker: null,
      identifier_cusip: "123456789", identifier_sedol: null, identifier_figi: null, identifier_uuid: null, identifier_other: null,
      identifier: null, identifier_type: null,
    });
  });

  test("bad filter values are 422", async () => {
    await expectError(await c.get("/assets/query?asset_type=SHARE"), 422, "VALIDATION_ERROR");
    await expectError(await c.get("/assets/query?active=maybe"), 422, "VALIDATION_ERROR");
  });
});
