import { beforeAll, describe, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import type { ApiClient } from "../../helpers/client.ts";
import { useApi } from "../../helpers/server.ts";
import { sample, uploaded } from "./helpers.ts";

// Every sample of every importer goes the whole way through the API the way the wizard does it:
// upload, automatic detection, parse, one server-side commit (POST /brokers/import/files/{id}/commit)
// creating the report's assets, every row written. The same file uploaded and committed a second
// time writes nothing: every row is a likely duplicate of the first import.
const api = useApi({ users: ["erin"] });
let erin: ApiClient;
beforeAll(() => {
  erin = api.as.erin!;
});

const FIXTURES = join(import.meta.dir, "..", "..", "fixtures", "brim");

/** [folder, file, plugin detected, whether the sample starts mid-history (lacks the deposits or purchases its rows draw on), parse options]. */
const SAMPLES: [string, string, string, boolean, Record<string, unknown> | null][] = [
  ["avanza", "transaktioner.csv", "broker_avanza", false, null],
  ["avanza", "transaktioner-2021.csv", "broker_avanza", false, null],
  ["bitvavo", "transactions.csv", "broker_bitvavo", false, null],
  ["bux", "transaction-overview.csv", "broker_bux", false, null],
  ["bux", "transaction-overview-2021.csv", "broker_bux", false, null],
  ["coinbase", "transaction-history.csv", "broker_coinbase", false, null],
  ["degiro", "Account.csv", "broker_degiro", false, null],
  ["degiro", "Account-de.csv", "broker_degiro", false, null],
  ["degiro", "Account-en-gbp.csv", "broker_degiro", false, null],
  ["degiro", "Account-es.csv", "broker_degiro", false, null],
  ["degiro", "Account-fr.csv", "broker_degiro", false, null],
  ["degiro", "Account-it.csv", "broker_degiro", false, null],
  ["degiro", "Account-nl.csv", "broker_degiro", false, null],
  ["degiro", "Account-pt.csv", "broker_degiro", false, null],
  ["degiro", "Transactions.csv", "broker_degiro", true, null],
  ["degiro", "Transactions-nl.csv", "broker_degiro", true, null],
  ["directa", "movimenti.csv", "broker_directa", false, null],
  ["directa", "movimenti-2024.csv", "broker_directa", false, null],
  ["etoro", "account-activity.csv", "broker_etoro", true, null],
  ["etoro", "account-statement.xlsx", "broker_etoro", false, null],
  ["etoro", "account-statement-2024.xlsx", "broker_etoro", false, null],
  ["finpension", "transactions-3a.csv", "broker_finpension", false, null],
  ["finpension", "transactions-vested-benefits.csv", "broker_finpension", false, null],
  ["fidelity", "history.csv", "broker_fidelity", false, null],
  ["fidelity", "history-2023.csv", "broker_fidelity", false, null],
  ["fineco", "movimenti-titoli.csv", "broker_fineco", true, null],
  ["fineco", "movimenti-dossier-titoli.csv", "broker_fineco", true, null],
  ["fineco", "movimenti-titoli.xlsx", "broker_fineco", true, null],
  ["freetrade", "activity.csv", "broker_freetrade", false, null],
  ["freetrade", "activity-2024.csv", "broker_freetrade", false, null],
  ["generic", "generic-en.csv", "broker_generic_csv", false, null],
  ["generic", "generic-it.csv", "broker_generic_csv", false, null],
  ["generic", "generic-unit-price.csv", "broker_generic_csv", false, null],
  ["ibkr", "activity-statement.csv", "broker_ibkr", true, null],
  ["ibkr", "flex.csv", "broker_ibkr", false, null],
  ["ibkr", "flex-plain.csv", "broker_ibkr", true, null],
  ["ibkr", "flex-sections.csv", "broker_ibkr", true, null],
  ["ibkr", "flex.xml", "broker_ibkr", false, null],
  ["interactive-investor", "transactions.csv", "broker_interactive_investor", false, null],
  ["lightyear", "transactions.csv", "broker_lightyear", false, null],
  ["nordnet", "transactions-and-notes-export.csv", "broker_nordnet", false, null],
  ["nordnet", "transactions-and-notes-export-no.csv", "broker_nordnet", false, null],
  ["nordnet", "transactions-and-notes-export-da.csv", "broker_nordnet", false, null],
  ["nordnet", "transactions-and-notes-export-fi.csv", "broker_nordnet", false, null],
  ["revolut", "trading-account-statement.csv", "broker_revolut", false, null],
  ["revolut", "trading-account-statement-eur.csv", "broker_revolut", false, null],
  ["saxo", "transactions.csv", "broker_saxo", false, null],
  ["saxo", "transactions-nl.csv", "broker_saxo", true, null],
  ["saxo", "transactions.xlsx", "broker_saxo", false, null],
  ["scalable", "transactions.csv", "broker_scalable", false, null],
  ["schwab", "transactions.csv", "broker_schwab", false, null],
  ["schwab", "transactions-income.csv", "broker_schwab", true, null],
  ["swissquote", "transactions.csv", "broker_swissquote", false, null],
  ["swissquote", "transactions-de.csv", "broker_swissquote", false, null],
  ["traderepublic", "transactions.csv", "broker_traderepublic", false, null],
  ["traderepublic", "transactions-app.csv", "broker_traderepublic", true, null],
  ["trading212", "history.csv", "broker_trading212", false, null],
  ["vanguard-uk", "transactions.xlsx", "broker_vanguard_uk", false, null],
  ["xtb", "account-statement.xlsx", "broker_xtb", false, null],
  ["xtb", "xstation-export.xlsx", "broker_xtb", false, null],
  ["xtb", "cash-operations.csv", "broker_xtb", false, { currency: "EUR" }],
  ["xtb", "cash-operations-2025.csv", "broker_xtb", false, { currency: "PLN" }],
];

/** Samples that are not an importable report (refused whole at parse, see the plugin's own tests). */
const NOT_REPORTS = new Set(["xtb/closed-positions.csv"]);

async function parse(fileId: string, broker: number, options: Record<string, unknown> | null): Promise<any> {
  const res = await erin.post(`/brokers/import/files/${fileId}/parse`, { plugin_code: "auto", broker_id: broker, ...(options ? { options } : {}) });
  expect(res.status).toBe(200);
  return res.json();
}

/** An asset already created by another sample (assets are shared by all brokers) is used; else the report's asset is created. */
function choice(mapping: any) {
  const name = (mapping.extracted_name ?? mapping.extracted_symbol ?? "").toLowerCase();
  const same = mapping.candidates.find((c: any) => c.match_confidence === "exact" || c.match_confidence === "high" || (c.name ?? "").toLowerCase() === name);
  return same ? { fake_asset_id: mapping.fake_asset_id, action: "use", asset_id: same.asset_id } : { fake_asset_id: mapping.fake_asset_id, action: "create" };
}

/** The decisions a user makes for a first import: each report asset created; units received without a price get a zero cost basis. */
function decisions(preview: any, create: boolean) {
  const zeroCost = preview.field_todos.filter((f: any) => f.reason_code === "costBasisMissing").map((f: any) => f.tx_index as number);
  return {
    edits: [...new Set<number>(zeroCost)].map((row) => ({ row, cost_basis_override: { amount: "0", code: preview.transactions[row].cash?.code ?? "EUR" } })),
    skips: [],
    asset_choices: create ? preview.asset_mappings.filter((m: any) => m.selected_asset_id == null).map((m: any) => choice(m)) : [],
  };
}

test("every sample file of test/fixtures/brim is listed here", () => {
  const listed = new Set(SAMPLES.map(([f, n]) => `${f}/${n}`));
  const files = readdirSync(FIXTURES).flatMap((folder) => readdirSync(join(FIXTURES, folder)).filter((n) => /\.(csv|xlsx?|xml|txt)$/i.test(n)).map((n) => `${folder}/${n}`));
  expect(files.filter((f) => !listed.has(f) && !NOT_REPORTS.has(f))).toEqual([]);
});

describe("every sample file commits clean through the import commit route, and a second commit writes nothing", () => {
  // Each case passes the same number of arguments (an optional last one would read as a done callback).
  test.each(SAMPLES)("%s/%s", async (folder, name, plugin, overdraft, options) => {
    const created = await (await erin.post("/brokers", [{ name: `${folder} ${name}`, allow_cash_overdraft: overdraft, allow_asset_shorting: overdraft }])).json();
    const broker = created.results[0].broker_id as number;
    const bytes = sample(folder, name);
    const file = await uploaded(erin, broker, name, bytes);
    // Told apart by content: text by its head, workbooks by the first rows of their sheets.
    expect(file.compatible_plugins[0]).toBe(plugin);
    const first = await parse(file.file_id, broker, options);
    expect(first.plugin_code).toBe(plugin);
    expect(first.validation_issues).toEqual([]);

    const res = await erin.post(`/brokers/import/files/${file.file_id}/commit`, { dry_run: false, ...decisions(first, true) });
    expect(res.status).toBe(200);
    const done = await res.json();
    expect(done.issues).toEqual([]);
    expect(done.committed).toBe(true);
    expect(done.skipped).toEqual([]);
    expect(done.rows).toHaveLength(first.transactions.length);

    const again = await uploaded(erin, broker, name, bytes);
    const second = await parse(again.file_id, broker, options);
    expect(second.duplicates.tx_unique_indices).toEqual([]);
    const res2 = await erin.post(`/brokers/import/files/${again.file_id}/commit`, { dry_run: false, ...decisions(second, false) });
    expect(res2.status).toBe(200);
    const redo = await res2.json();
    expect(redo.issues).toEqual([]);
    expect(redo.rows).toEqual([]);
    expect(redo.assets.filter((a: any) => a.action === "create")).toEqual([]);
    expect(redo.skipped.map((s: any) => s.reason)).toEqual(second.transactions.map(() => "duplicate"));
  });
});
