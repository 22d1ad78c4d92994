import { beforeAll, describe, expect, test } from "bun:test";
import type { ApiClient } from "../../helpers/client.ts";
import { useApi } from "../../helpers/server.ts";
import { createBroker, sample, uploaded } from "./helpers.ts";

// The Freetrade, Lightyear, Fidelity, interactive investor and Vanguard UK samples imported the
// way the wizard does it: upload, automatic detection, parse, one server-side commit
// (POST /brokers/import/files/{id}/commit) creating the assets. The broker's summary then holds
// the positions and the cash each file ends with: the file's own last running balance where it
// prints one (Fidelity's Cash Balance, ii's Running Balance, Vanguard's Balance line), else the
// sum worked out by hand from its rows.
const api = useApi({ users: ["erin"] });
let erin: ApiClient;
beforeAll(() => {
  erin = api.as.erin!;
});

/** [folder, file, plugin, cash per currency at the end, units per asset (ticker or name)]. */
const CASES: [string, string, string, Record<string, string>, Record<string, string>][] = [
  // 3000 − 984 − (437.48 + 4.33) − (451.20 + 2.26) + 0.48 + 2.14 + 10.60 + (148.44 − 1.47) − 250 − 100; the dollars all exchanged.
  ["freetrade", "activity.csv", "broker_freetrade", { GBP: "930.92" }, { "AV.": "1", AAPL: "2", LLOY: "1000", VWRP: "10" }],
  ["freetrade", "activity-2024.csv", "broker_freetrade", { GBP: "60.74" }, { LGEN: "40" }],
  // EUR: 2000 − 501.60 − 924.81 + 10 + 1.12; USD: 1000 − 928.50 + 3.25 − 3.25 + 0.85 + 419.60 − 200.
  ["lightyear", "transactions.csv", "broker_lightyear", { EUR: "584.71", USD: "291.95" }, { AAPL: "3", ICSUSSDP: "3.25", VWCE: "4" }],
  ["fidelity", "history.csv", "broker_fidelity", { USD: "778.16" }, { ASML: "1", MSFT: "2", VOO: "5.017" }],
  ["fidelity", "history-2023.csv", "broker_fidelity", { USD: "505.09" }, { ITOT: "10" }],
  // The stock transfer in of 50 LGEN has no cash and is left to the user.
  ["interactive-investor", "transactions.csv", "broker_interactive_investor", { GBP: "1504.19", USD: "500" }, { LGEN: "400", VWRL: "20" }],
  // The Balance line says 550.31; the 5.00 "Cash adjustment" line is not imported (unknown), so 555.31.
  ["vanguard-uk", "transactions.xlsx", "broker_vanguard_uk", { GBP: "555.31" }, { "LifeStrategy 80% Equity Fund - Accumulation": "4.1523", VWRL: "20" }],
];

describe("each sample committed in one server-side commit ends with the file's cash and positions", () => {
  test.each(CASES)("%s/%s", async (folder, name, plugin, cash, units) => {
    const broker = await createBroker(erin, `${folder} ${name} commit`);
    const file = await uploaded(erin, broker, name, sample(folder, name));
    expect(file.compatible_plugins[0]).toBe(plugin);
    const parse = await (await erin.post(`/brokers/import/files/${file.file_id}/parse`, { plugin_code: "auto", broker_id: broker })).json();
    expect(parse.plugin_code).toBe(plugin);
    const choices = parse.asset_mappings.map((m: any) => ({ fake_asset_id: m.fake_asset_id, action: "create" }));
    const res = await erin.post(`/brokers/import/files/${file.file_id}/commit`, { dry_run: false, edits: [], skips: [], asset_choices: choices });
    expect(res.status).toBe(200);
    const done = await res.json();
    expect(done.issues).toEqual([]);
    expect(done.committed).toBe(true);
    expect(done.rows).toHaveLength(parse.transactions.length);

    const summary = await (await erin.get(`/brokers/${broker}/summary`)).json();
    expect(Object.fromEntries(summary.cash_balances.filter((c: any) => Number(c.amount) !== 0).map((c: any) => [c.code, c.amount]))).toEqual(cash);
    const label = new Map<number, string>(done.assets.map((a: any) => [a.asset_id, a.identifier_ticker ?? a.name]));
    expect(Object.fromEntries(summary.holdings.map((h: any) => [label.get(h.asset_id) ?? h.asset_name, h.quantity]))).toEqual(units);
  });
});
