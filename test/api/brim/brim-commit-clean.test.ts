import { beforeAll, describe, expect, test } from "bun:test";
import type { ApiClient } from "../../helpers/client.ts";
import { useApi } from "../../helpers/server.ts";
import { ParseResult } from "../../../host/api/brokers/import/brim.schema.ts";
import { parsed, sample, uploaded, withAssets } from "./helpers.ts";

// Every sample of the DEGIRO, generic CSV and Directa importers, parsed through the API, goes
// through the ledger's own batch validation (POST /transactions/validate: the rules and balances
// the commit applies). Nothing the commit would refuse may be left unflagged by the parse result:
// each refused row is one the parse already lists in field_todos or validation_issues. The DEGIRO
// statement then goes the whole way: assets created, committed, and positions and cash read back
// from the portfolio report.
const api = useApi({ users: ["erin"] });
let erin: ApiClient;
beforeAll(() => {
  erin = api.as.erin!;
});

/** [folder, file, plugin, detected format, whether the sample lacks the deposits that fund it]. */
const SAMPLES: [string, string, string, string, boolean][] = [
  ["degiro", "Account.csv", "broker_degiro", "degiro/account-statement/en", false],
  ["degiro", "Account-nl.csv", "broker_degiro", "degiro/account-statement/nl", false],
  ["degiro", "Account-de.csv", "broker_degiro", "degiro/account-statement/de", false],
  ["degiro", "Account-it.csv", "broker_degiro", "degiro/account-statement/it", false],
  ["degiro", "Account-fr.csv", "broker_degiro", "degiro/account-statement/fr", false],
  ["degiro", "Account-es.csv", "broker_degiro", "degiro/account-statement/es", false],
  ["degiro", "Account-pt.csv", "broker_degiro", "degiro/account-statement/pt", false],
  ["degiro", "Account-en-gbp.csv", "broker_degiro", "degiro/account-statement/en", false],
  ["degiro", "Transactions.csv", "broker_degiro", "degiro/transactions/en", true],
  ["degiro", "Transactions-nl.csv", "broker_degiro", "degiro/transactions/nl", true],
  ["generic", "generic-en.csv", "broker_generic_csv", "generic-csv", false],
  ["generic", "generic-it.csv", "broker_generic_csv", "generic-csv", false],
  ["generic", "generic-unit-price.csv", "broker_generic_csv", "generic-csv", false],
  ["directa", "movimenti.csv", "broker_directa", "directa/movimenti", false],
  ["directa", "movimenti-2024.csv", "broker_directa", "directa/movimenti", false],
  ["avanza", "transaktioner.csv", "broker_avanza", "avanza/transactions", false],
  ["avanza", "transaktioner-2021.csv", "broker_avanza", "avanza/transactions-legacy", false],
  ["nordnet", "transactions-and-notes-export.csv", "broker_nordnet", "nordnet/transactions/sv", false],
  ["nordnet", "transactions-and-notes-export-no.csv", "broker_nordnet", "nordnet/transactions/no", false],
  ["nordnet", "transactions-and-notes-export-da.csv", "broker_nordnet", "nordnet/transactions/da", false],
  ["nordnet", "transactions-and-notes-export-fi.csv", "broker_nordnet", "nordnet/transactions/fi", false],
  ["swissquote", "transactions.csv", "broker_swissquote", "swissquote/transactions/en", false],
  ["swissquote", "transactions-de.csv", "broker_swissquote", "swissquote/transactions/de", false],
  ["finpension", "transactions-3a.csv", "broker_finpension", "finpension/transactions", false],
  ["finpension", "transactions-vested-benefits.csv", "broker_finpension", "finpension/transactions", false],
  ["bux", "transaction-overview.csv", "broker_bux", "bux/transactions", false],
  ["bux", "transaction-overview-2021.csv", "broker_bux", "bux/transactions-legacy", false],
  ["freetrade", "activity.csv", "broker_freetrade", "freetrade/activity", false],
  ["freetrade", "activity-2024.csv", "broker_freetrade", "freetrade/activity", false],
  ["lightyear", "transactions.csv", "broker_lightyear", "lightyear/statement", false],
  ["fidelity", "history.csv", "broker_fidelity", "fidelity/history", false],
  ["fidelity", "history-2023.csv", "broker_fidelity", "fidelity/history", false],
  ["interactive-investor", "transactions.csv", "broker_interactive_investor", "interactive-investor/transactions", false],
  ["vanguard-uk", "transactions.xlsx", "broker_vanguard_uk", "vanguard-uk/transactions-listing", false],
];


/** Uploads and parses a sample into a new broker, creating the assets it names; the parse after that. */
async function imported(folder: string, name: string, overdraft: boolean, brokerName = `${folder} ${name}`): Promise<{ broker: number; preview: any; creates: any[] }> {
  const created = await (await erin.post("/brokers", [{ name: brokerName, allow_cash_overdraft: overdraft }])).json();
  expect(created.results[0].success).toBe(true);
  const broker = created.results[0].broker_id as number;
  const file = await uploaded(erin, broker, name, sample(folder, name));
  const { preview, creates } = await withAssets(erin, file.file_id, broker, await parsed(erin, file.file_id, broker));
  return { broker, preview, creates };
}

describe("every sample's rows pass the ledger's validation, or are flagged by the parse", () => {
  test.each(SAMPLES)("%s/%s", async (folder, name, plugin, format, overdraft) => {
    const { preview, creates } = await imported(folder, name, overdraft);
    expect(ParseResult.safeParse(preview).error?.issues ?? []).toEqual([]);
    expect(preview.plugin_code).toBe(plugin);
    expect(preview.detected_format).toBe(format);
    expect(Array.isArray(preview.skipped_rows)).toBe(true);
    const flagged = new Set<number>([
      ...preview.field_todos.filter((f: any) => f.reason_code !== "assetUnmapped").map((f: any) => f.tx_index),
      ...preview.validation_issues.map((v: any) => v.row),
    ]);
    const body = await (await erin.post("/transactions/validate", { creates })).json();
    const unflagged = body.issues.filter((i: any) => i.index < 0 || !flagged.has(i.index));
    expect(unflagged).toEqual([]);
    // Only rows that need the user's cost basis (units received by a corporate action) are flagged at all.
    expect(preview.field_todos.filter((f: any) => f.reason_code !== "costBasisMissing" && f.reason_code !== "assetUnmapped")).toEqual([]);
    expect(preview.validation_issues).toEqual([]);
  });
});

describe("a Dutch DEGIRO account statement imports end to end", () => {
  test("committed, the report shows the positions and the cash per currency the statement ends with", async () => {
    const { broker, preview, creates } = await imported("degiro", "Account-nl.csv", false, "My DEGIRO");
    expect(preview.field_todos.filter((f: any) => f.reason_code !== "assetUnmapped")).toEqual([]);
    const commit = await (await erin.post("/transactions/commit", { creates })).json();
    expect(commit.issues).toEqual([]);
    expect(commit.committed).toBe(true);
    const assets = new Map<number, string>(preview.asset_mappings.map((m: any) => [m.selected_asset_id, m.extracted_isin]));
    const report = await (await erin.post("/portfolio/report", {
      broker_ids: [broker], date_range: { start: "2023-07-01", end: "2024-01-31" }, include_history: false, include_allocation_history: false,
    })).json();
    const holdings = report.summary.holdings.map((h: any) => [assets.get(h.asset_id), Number(h.quantity)]).sort();
    // 4 units bought in two fills, 2 sold; 2 Apple bought through the AutoFX exchange.
    expect(holdings).toEqual([["IE00B3RBWM25", 2], ["US0378331005", 2]]);
    const cash = Object.fromEntries(report.summary.cash_balances.map((c: any) => [c.code, c.amount]));
    // 1000 − 394.48 − 2 − 342.86 − 1 + 0.38 − 2.50 + 202.80 − 2 − 100 + 0.12: the statement's last
    // EUR balance; the USD of the trade and of the dividend was all exchanged (no USD left).
    expect(cash).toEqual({ EUR: "360.46" });
  });
});
