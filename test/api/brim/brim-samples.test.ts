import { beforeAll, describe, expect, test } from "bun:test";
import type { ApiClient } from "../../helpers/client.ts";
import { useApi } from "../../helpers/server.ts";
import { parsed, sample, uploaded, withAssets } from "./helpers.ts";

// Every plugin's sample file goes the whole way through the API: upload, automatic detection,
// parse, assets created and mapped, commit, and a second parse that shows every row as a duplicate.
const api = useApi({ users: ["erin"] });
let erin: ApiClient;
beforeAll(() => {
  erin = api.as.erin!;
});

/** [folder, file, plugin detected, whether the sample lacks the deposits that fund it]. */
const SAMPLES: [string, string, string, boolean][] = [
  ["degiro", "Account.csv", "broker_degiro", false],
  ["degiro", "Transactions.csv", "broker_degiro", true],
  ["generic", "generic-en.csv", "broker_generic_csv", false],
  ["generic", "generic-it.csv", "broker_generic_csv", false],
  ["ibkr", "flex.xml", "broker_ibkr", false],
  ["ibkr", "flex.csv", "broker_ibkr", false],
  ["trading212", "history.csv", "broker_trading212", false],
  ["revolut", "trading-account-statement.csv", "broker_revolut", false],
  ["xtb", "account-statement.xlsx", "broker_xtb", false],
  ["bitvavo", "transactions.csv", "broker_bitvavo", false],
  ["coinbase", "transaction-history.csv", "broker_coinbase", false],
  ["scalable", "transactions.csv", "broker_scalable", false],
  ["schwab", "transactions.csv", "broker_schwab", false],
  ["directa", "movimenti.csv", "broker_directa", false],
  ["traderepublic", "transactions.csv", "broker_traderepublic", false],
  ["etoro", "account-statement.xlsx", "broker_etoro", false],
  ["fineco", "movimenti-dossier-titoli.csv", "broker_fineco", true],
  ["saxo", "transactions.xlsx", "broker_saxo", false],
  ["ibkr", "flex-plain.csv", "broker_ibkr", true],
  ["saxo", "transactions.csv", "broker_saxo", false],
  ["etoro", "account-statement-2024.xlsx", "broker_etoro", false],
  ["fineco", "movimenti-titoli.xlsx", "broker_fineco", true],
  ["avanza", "transaktioner.csv", "broker_avanza", false],
  ["avanza", "transaktioner-2021.csv", "broker_avanza", false],
  ["nordnet", "transactions-and-notes-export.csv", "broker_nordnet", false],
  ["nordnet", "transactions-and-notes-export-no.csv", "broker_nordnet", false],
  ["swissquote", "transactions.csv", "broker_swissquote", false],
  ["swissquote", "transactions-de.csv", "broker_swissquote", false],
  ["finpension", "transactions-3a.csv", "broker_finpension", false],
  ["finpension", "transactions-vested-benefits.csv", "broker_finpension", false],
  ["bux", "transaction-overview.csv", "broker_bux", false],
  ["bux", "transaction-overview-2021.csv", "broker_bux", false],
  ["freetrade", "activity.csv", "broker_freetrade", false],
  ["freetrade", "activity-2024.csv", "broker_freetrade", false],
  ["lightyear", "transactions.csv", "broker_lightyear", false],
  ["fidelity", "history.csv", "broker_fidelity", false],
  ["fidelity", "history-2023.csv", "broker_fidelity", false],
  ["interactive-investor", "transactions.csv", "broker_interactive_investor", false],
  ["vanguard-uk", "transactions.xlsx", "broker_vanguard_uk", false],
];


describe("every sample file imports through the API alone", () => {
  test.each(SAMPLES)("%s/%s", async (folder, name, plugin, overdraft) => {
    const created = await (await erin.post("/brokers", [{ name: `${folder} ${name}`, allow_cash_overdraft: overdraft }])).json();
    const broker = created.results[0].broker_id as number;
    const bytes = sample(folder, name);
    const file = await uploaded(erin, broker, name, bytes);
    // Told apart by content: text by its head, workbooks by the first rows of their sheets.
    expect(file.compatible_plugins[0]).toBe(plugin);

    const first = await parsed(erin, file.file_id, broker);
    expect(first.plugin_code).toBe(plugin);
    expect(first.validation_issues).toEqual([]);
    const { preview, creates } = await withAssets(erin, file.file_id, broker, first);
    const commit = await (await erin.post("/transactions/commit", { creates })).json();
    expect(commit.issues).toEqual([]);
    expect(commit.committed).toBe(true);

    const again = await parsed(erin, (await uploaded(erin, broker, name, bytes)).file_id, broker);
    expect(again.duplicates.tx_unique_indices).toEqual([]);
    expect(again.duplicates.tx_likely_duplicates).toHaveLength(preview.transactions.length);
  });
});
