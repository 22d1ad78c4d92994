import { beforeAll, describe, expect, test } from "bun:test";
import { type ApiClient, expectError } from "../../helpers/client.ts";
import { useApi } from "../../helpers/server.ts";
import { parsed, sample, uploaded, withAssets } from "./helpers.ts";

// Real export shapes that detection did not recognise, end to end through the API: upload (detection
// from the content, a workbook's sheets included), parse, assets created for the unknown ones,
// commit, and the broker's holdings, cash and report positions.
const api = useApi({ users: ["ivy"] });
let ivy: ApiClient;
beforeAll(() => {
  ivy = api.as.ivy!;
});

async function importFile(folder: string, name: string, plugin: string, options?: Record<string, unknown>) {
  const created = await (await ivy.post("/brokers", [{ name: `${folder} ${name}`, allow_cash_overdraft: true, allow_asset_shorting: true }])).json();
  const broker = created.results[0].broker_id as number;
  const file = await uploaded(ivy, broker, name, sample(folder, name));
  expect(file.compatible_plugins[0]).toBe(plugin);
  const first = await parsed(ivy, file.file_id, broker, options);
  expect(first.plugin_code).toBe(plugin);
  expect(first.validation_issues).toEqual([]);
  const { preview, creates, real } = await withAssets(ivy, file.file_id, broker, first, options);
  const commit = await (await ivy.post("/transactions/commit", { creates })).json();
  expect(commit.issues).toEqual([]);
  expect(commit.committed).toBe(true);
  const summary = await (await ivy.get(`/brokers/${broker}/summary`)).json();
  const report = await (await ivy.post("/portfolio/report", {
    broker_ids: [broker], date_range: { start: "2024-01-01", end: "2024-12-31" }, include_positions_contribution: true, include_allocation_history: false,
  })).json();
  const tickerOf = new Map<number, string>(preview.asset_mappings.map((m: any) => [real.get(m.fake_asset_id)!, m.extracted_symbol ?? m.extracted_isin]));
  return {
    cash: summary.cash_balances,
    holdings: summary.holdings.map((h: any) => [tickerOf.get(h.asset_id), h.quantity]).sort(),
    positions: report.positions_contribution.positions.map((p: any) => tickerOf.get(p.asset_id)).sort(),
    preview,
  };
}

describe("exports recognised from their content, imported to a committed ledger", () => {
  test("IBKR Flex CSV with section codes: stock and option trades, cash transactions", async () => {
    const { cash, holdings, positions } = await importFile("ibkr", "flex-sections.csv", "broker_ibkr");
    expect(holdings).toEqual([["AAPL 240621C00200000", "100"], ["SXR8", "3"]]);
    expect(cash).toEqual(expect.arrayContaining([{ code: "EUR", amount: "3557.6" }, { code: "USD", amount: "-39.88" }]));
    expect(positions).toEqual(["AAPL 240621C00200000", "SXR8"]);
  });

  test("IBKR Activity Statement CSV", async () => {
    const { holdings } = await importFile("ibkr", "activity-statement.csv", "broker_ibkr");
    expect(holdings).toEqual([["VT", "1000"]]);
  });

  test("XTB workbook from xStation: detected by its sheets, the account currency from its block", async () => {
    const { cash, holdings, positions } = await importFile("xtb", "xstation-export.xlsx", "broker_xtb");
    expect(holdings).toEqual([["CDR.PL", "7.5"], ["CSPX.UK", "0.8"]]);
    expect(cash).toEqual([{ code: "PLN", amount: "2794.39" }]);
    expect(positions).toEqual(["CDR.PL", "CSPX.UK"]);
  });

  test("XTB cash operations CSV: refused without the account currency, imported with it", async () => {
    const created = await (await ivy.post("/brokers", [{ name: "xtb csv" }])).json();
    const broker = created.results[0].broker_id as number;
    const file = await uploaded(ivy, broker, "cash-operations.csv", sample("xtb", "cash-operations.csv"));
    expect(file.compatible_plugins[0]).toBe("broker_xtb");
    const body = await expectError(await ivy.post(`/brokers/import/files/${file.file_id}/parse`, { plugin_code: "broker_xtb", broker_id: broker }), 400, "PARSE_FAILED");
    expect(JSON.stringify(body)).toContain("currency");
    const { holdings } = await importFile("xtb", "cash-operations.csv", "broker_xtb", { currency: "EUR" });
    expect(holdings).toEqual([["GOOGL.US", "1"], ["SPYL.DE", "14.5"]]);
  });
});
