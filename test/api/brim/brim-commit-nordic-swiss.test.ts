import { beforeAll, describe, expect, test } from "bun:test";
import type { ApiClient } from "../../helpers/client.ts";
import { useApi } from "../../helpers/server.ts";
import { createBroker, sample, uploaded } from "./helpers.ts";

// The Avanza, Nordnet, Swissquote, finpension and BUX samples each go the whole way through the
// server-side import: upload, detection, parse, POST /brokers/import/files/{id}/commit (a dry run,
// then the commit with its parse token, the missing assets created), and the portfolio read back.
// The positions and the cash per currency must be those the file itself ends with (its own balance
// column, where it has one), so each importer is checked against the report, not against itself.
const api = useApi({ users: ["erin"] });
let erin: ApiClient;
beforeAll(() => {
  erin = api.as.erin!;
});

/** [folder, file, plugin, the cash per currency and the units per ISIN the file ends with]. */
const SAMPLES: [string, string, string, Record<string, string>, Record<string, number>][] = [
  ["avanza", "transaktioner.csv", "broker_avanza", { SEK: "990.22" }, { SE0000108656: 50, US0378331005: 3 }],
  ["avanza", "transaktioner-2021.csv", "broker_avanza", { SEK: "1173.5" }, { SE0015811963: 10 }],
  ["nordnet", "transactions-and-notes-export.csv", "broker_nordnet", { SEK: "5099.99" }, { SE0000115446: 25, US5949181045: 2 }],
  ["nordnet", "transactions-and-notes-export-no.csv", "broker_nordnet", { NOK: "3454.54" }, { NO0010096985: 6, US5949181045: 1 }],
  ["nordnet", "transactions-and-notes-export-da.csv", "broker_nordnet", { DKK: "6180.71" }, { DK0062498333: 3 }],
  ["nordnet", "transactions-and-notes-export-fi.csv", "broker_nordnet", { EUR: "1037" }, { FI0009000681: 200 }],
  ["swissquote", "transactions.csv", "broker_swissquote", { CHF: "3232.22", USD: "4547.94" }, { CH0038863350: 20, US0378331005: 4 }],
  ["swissquote", "transactions-de.csv", "broker_swissquote", { CHF: "3288.13" }, { CH0038863350: 6, CH1110425654: 1000 }],
  ["finpension", "transactions-3a.csv", "broker_finpension", { CHF: "53.992178" }, { CH0033782431: 0.096, CH0189956813: 0.205, CH0429081620: 0.85 }],
  ["finpension", "transactions-vested-benefits.csv", "broker_finpension", { CHF: "24.861059" }, { CH0429081620: 0.14 }],
  ["bux", "transaction-overview.csv", "broker_bux", { EUR: "184.57" }, { NL0011821202: 14, US0378331005: 0.591017 }],
  ["bux", "transaction-overview-2021.csv", "broker_bux", { EUR: "52.05" }, { NL0010273215: 0.1 }],
];

describe("committed through the import endpoint, each sample ends with the file's own positions and cash", () => {
  test.each(SAMPLES)("%s/%s", async (folder, name, plugin, cash, units) => {
    const broker = await createBroker(erin, `${folder} ${name}`);
    const file = await uploaded(erin, broker, name, sample(folder, name));
    expect(file.compatible_plugins[0]).toBe(plugin);
    const res = await erin.post(`/brokers/import/files/${file.file_id}/parse`, { plugin_code: "auto", broker_id: broker });
    expect(res.status).toBe(200);
    const parse = await res.json();
    expect(parse.plugin_code).toBe(plugin);
    // Assets another sample of this file already created are pre-selected; the others are created.
    const choices = parse.asset_mappings.filter((m: any) => m.selected_asset_id == null).map((m: any) => ({ fake_asset_id: m.fake_asset_id, action: "create" }));
    const body = { edits: [], skips: [], asset_choices: choices };
    const dry = await (await erin.post(`/brokers/import/files/${file.file_id}/commit`, { ...body, dry_run: true })).json();
    expect(dry.issues).toEqual([]);
    expect(dry.row_count).toBe(parse.transactions.length);
    const done = await (await erin.post(`/brokers/import/files/${file.file_id}/commit`, { ...body, dry_run: false, parse_token: dry.parse_token })).json();
    expect(done.issues).toEqual([]);
    expect(done.committed).toBe(true);

    const report = await (await erin.post("/portfolio/report", {
      broker_ids: [broker], date_range: { start: "2020-01-01", end: "2026-01-31" }, include_history: false, include_allocation_history: false,
    })).json();
    const ids = report.summary.holdings.map((h: any) => h.asset_id).join(",");
    const isinOf = new Map<number, string>((await (await erin.get(`/assets?asset_ids=${ids}`)).json()).map((a: any) => [a.asset_id, a.identifier_isin]));
    const held = Object.fromEntries(report.summary.holdings.map((h: any) => [isinOf.get(h.asset_id) ?? h.asset_id, Number(h.quantity)]));
    expect(held).toEqual(units);
    const balances = Object.fromEntries(report.summary.cash_balances.map((c: any) => [c.code, c.amount]));
    expect(Object.fromEntries(Object.entries(balances).map(([k, v]) => [k, String(Number(v))]))).toEqual(
      Object.fromEntries(Object.entries(cash).map(([k, v]) => [k, String(Number(v))])),
    );
  });
});
