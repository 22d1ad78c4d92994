import { beforeAll, describe, expect, test } from "bun:test";
import * as XLSX from "@e965/xlsx";
import { type ApiClient, expectError } from "../../helpers/client.ts";
import { useApi } from "../../helpers/server.ts";
import { createBroker, sample, uploaded } from "./helpers.ts";

// Bad input on representative importers, CSV (Trading 212, Schwab, DEGIRO, generic) and workbook
// (Saxo, XTB, eToro), through the API: a file forced through another broker's plugin, a file cut
// short, one corrupt row in the middle, a variant of the report the plugin does not know. A file
// that cannot be read is refused with a message saying what was expected; a row that cannot be read
// is left out with a reason naming its line, the column and the value, and the other rows are
// still previewed. Never a 500, and nothing reaches the ledger that the user did not see.
const api = useApi({ users: ["dave"] });
let dave: ApiClient;
let broker: number;
beforeAll(async () => {
  dave = api.as.dave!;
  broker = await createBroker(dave, "Bad input");
});

const parse = (fileId: string, pluginCode: string) => dave.post(`/brokers/import/files/${fileId}/parse`, { plugin_code: pluginCode, broker_id: broker });
const text = (folder: string, name: string) => new TextDecoder().decode(sample(folder, name));

/** The parse fails with `message`; the file is failed, has no parse, and a commit finds nothing to commit. */
async function expectRefused(name: string, bytes: Uint8Array<ArrayBuffer> | string, pluginCode: string, message: RegExp): Promise<void> {
  const file = await uploaded(dave, broker, name, bytes);
  const body = await expectError(await parse(file.file_id, pluginCode), 400, "PARSE_FAILED");
  expect(body.detail).toMatch(message);
  const after = await (await dave.get(`/brokers/import/files/${file.file_id}`)).json();
  expect(after.status).toBe("failed");
  expect(await (await dave.get(`/brokers/import/files/${file.file_id}/last-parse`)).json()).toBeNull();
  await expectError(await dave.post(`/brokers/import/files/${file.file_id}/commit`, { dry_run: false, edits: [], skips: [], asset_choices: [] }), 409, "PARSE_MISSING");
}

/**
 * The parse answers 200 with the line `line` left out for `reason`, and every other row of the
 * intact file still previewed; a dry-run commit previews exactly those rows.
 */
async function expectRowLeftOut(name: string, bytes: Uint8Array<ArrayBuffer> | string, pluginCode: string, line: number, reason: RegExp, intact: any): Promise<any> {
  const file = await uploaded(dave, broker, name, bytes);
  const res = await parse(file.file_id, pluginCode);
  expect(res.status).toBe(200);
  const result = await res.json();
  expect(result.skipped_rows.filter((s: any) => s.line === line)).toEqual([{ line, reason: expect.stringMatching(reason) }]);
  expect(result.transactions.filter((t: any) => t.row === line)).toEqual([]);
  const kept = intact.transactions.filter((t: any) => t.row !== line).map((t: any) => t.row);
  expect(result.transactions.map((t: any) => t.row)).toEqual(kept);
  const choices = result.asset_mappings.map((m: any) => ({ fake_asset_id: m.fake_asset_id, action: "create" }));
  const dry = await (await dave.post(`/brokers/import/files/${file.file_id}/commit`, { dry_run: true, edits: [], skips: [], asset_choices: choices })).json();
  expect(dry.committed).toBe(false);
  expect(dry.rows.length + dry.skipped.length).toBe(result.transactions.length);
  return result;
}

/** The parse of the intact sample, for comparison. */
async function intactParse(name: string, bytes: Uint8Array<ArrayBuffer>, pluginCode: string): Promise<any> {
  const file = await uploaded(dave, broker, name, bytes);
  const res = await parse(file.file_id, pluginCode);
  expect(res.status).toBe(200);
  return res.json();
}

/** A workbook sample with `edit` applied to its sheet `sheet`. */
function editedWorkbook(folder: string, name: string, sheet: string, edit: (ws: XLSX.WorkSheet) => void): Uint8Array<ArrayBuffer> {
  const book = XLSX.read(sample(folder, name));
  edit(book.Sheets[sheet]!);
  return new Uint8Array(XLSX.write(book, { type: "array", bookType: "xlsx" }) as ArrayBuffer);
}

describe("a file of one broker forced through another broker's plugin is refused, saying what the plugin expected", () => {
  test("CSV: a Trading 212 history through Schwab names the header Schwab looks for", async () => {
    await expectRefused("history.csv", sample("trading212", "history.csv"), "broker_schwab", /not a Charles Schwab transactions export: expected a header row with the columns "date", "action"/);
  });

  test("CSV: the generic CSV through DEGIRO, a DEGIRO statement through the generic CSV", async () => {
    await expectRefused("generic.csv", sample("generic", "generic-en.csv"), "broker_degiro", /not a DEGIRO/);
    await expectRefused("Account.csv", sample("degiro", "Account.csv"), "broker_generic_csv", /date and a type column/);
  });

  test("workbook: a Saxo report through XTB, an XTB statement through eToro, an eToro statement through Saxo", async () => {
    await expectRefused("saxo.xlsx", sample("saxo", "transactions.xlsx"), "broker_xtb", /No sheet "CASH OPERATION HISTORY".*XTB statement/);
    await expectRefused("xtb.xlsx", sample("xtb", "account-statement.xlsx"), "broker_etoro", /No sheet "Account Activity".*eToro account statement/);
    await expectRefused("etoro.xlsx", sample("etoro", "account-statement.xlsx"), "broker_saxo", /No "Transactions" table with Trade Date, Event and Amount/);
  });
});

describe("a file cut short", () => {
  test("CSV cut in the middle of its last row: that line is left out naming the empty column, the rows above are previewed", async () => {
    const whole = text("trading212", "history.csv").replace(/\n+$/, "");
    const lines = whole.split("\n");
    const last = lines.length;
    const cut = `${lines.slice(0, -1).join("\n")}\n${lines.at(-1)!.slice(0, Math.floor(lines.at(-1)!.length / 2))}`;
    const intact = await intactParse("history.csv", sample("trading212", "history.csv"), "broker_trading212");
    await expectRowLeftOut("history-cut.csv", cut, "broker_trading212", last, new RegExp(`^Line ${last}: Total is empty, expected an amount, so "Currency conversion" \\(2024-04-04 10:00:00\\) is not imported; correct the cell and upload the file again, or enter the row by hand$`), intact);
  });

  test("workbook cut in half is refused as cut short or damaged", async () => {
    const bytes = sample("saxo", "transactions.xlsx");
    const cut = bytes.slice(0, Math.floor(bytes.length / 2));
    const file = await dave.request("POST", `/brokers/import/upload?broker_id=${broker}`, (() => {
      const form = new FormData();
      form.append("file", new File([cut], "cut.xlsx"));
      return form;
    })());
    // Refused at upload (the archive's directory is gone) or at parse; never a 500.
    // The upload keeps it (it is a ZIP by its magic bytes); the parse refuses it.
    expect(file.status).toBe(201);
    const { file_id } = await file.json();
    const body = await expectError(await parse(file_id, "broker_saxo"), 400, "PARSE_FAILED");
    expect(body.detail).toMatch(/cut short or damaged/);
  });
});

describe("one corrupt row in the middle is left out with its line, column and value; the other rows are previewed", () => {
  test("CSV: a Trading 212 amount that is not a number, a Schwab date that is not a date", async () => {
    const lines = text("trading212", "history.csv").split("\n");
    lines[5] = lines[5]!.replace(/,(-?\d+\.\d+),(EUR|GBP|USD)/, ",12x4,$2");
    const intact = await intactParse("history.csv", sample("trading212", "history.csv"), "broker_trading212");
    await expectRowLeftOut("history-bad.csv", lines.join("\n"), "broker_trading212", 6, /^Line 6: Total "12x4" is not an amount, so "Interest on cash" \(2024-03-01 00:00:00, 12x4 EUR\) is not imported; correct the cell and upload the file again, or enter the row by hand$/, intact);

    const schwab = text("schwab", "transactions.csv").split("\n");
    schwab[6] = schwab[6]!.replace(/^"?\d\d\/\d\d\/\d{4}"?/, "\"13/45/2024\"");
    const intactSchwab = await intactParse("transactions.csv", sample("schwab", "transactions.csv"), "broker_schwab");
    await expectRowLeftOut("schwab-bad.csv", schwab.join("\n"), "broker_schwab", 7, /^Line 7: Date "13\/45\/2024" is not a date \(MM\/DD\/YYYY\), so "Buy" \(AAPL, 13\/45\/2024, 5, -\$950\.00\) is not imported; correct the cell and upload the file again, or enter the row by hand$/, intactSchwab);
  });

  test("workbook: a Saxo date and an XTB amount that cannot be read", async () => {
    const intactSaxo = await intactParse("saxo.xlsx", sample("saxo", "transactions.xlsx"), "broker_saxo");
    const saxo = editedWorkbook("saxo", "transactions.xlsx", "Transactions", (ws) => { ws.B6 = { t: "s", v: "2024-13-45" }; });
    await expectRowLeftOut("saxo-bad.xlsx", saxo, "broker_saxo", 6, /^Line 6: Trade Date "2024-13-45" is not a date, so "Cash dividend" \(AAPL:xnas, 2024-13-45, 1\.1 EUR\) is not imported; correct the cell and upload the file again, or enter the row by hand$/, intactSaxo);
    const saxoAmount = editedWorkbook("saxo", "transactions.xlsx", "Transactions", (ws) => { ws.K6 = { t: "s", v: "1,1x" }; });
    await expectRowLeftOut("saxo-amount.xlsx", saxoAmount, "broker_saxo", 6, /^Line 6: Amount "1,1x" is not an amount, so "Cash dividend" \(AAPL:xnas, 2024-02-15, 1,1x EUR\) is not imported; correct the cell and upload the file again, or enter the row by hand$/, intactSaxo);

    const intactXtb = await intactParse("xtb.xlsx", sample("xtb", "account-statement.xlsx"), "broker_xtb");
    const xtb = editedWorkbook("xtb", "account-statement.xlsx", "CASH OPERATION HISTORY", (ws) => { ws.F8 = { t: "s", v: "1,2x" }; });
    await expectRowLeftOut("xtb-bad.xlsx", xtb, "broker_xtb", 8, /^Line 8: Amount "1,2x" is not an amount other than zero, so "DIVIDENT" \(IUSA\.DE, IUSA\.DE EUR 0\.1200\/ SHR, 15\.02\.2024 12:00:00, 1,2x EUR\) is not imported; correct the cell and upload the file again, or enter the row by hand$/, intactXtb);
  });
});

describe("a variant of the report the plugin does not know is refused, saying what was expected", () => {
  test("CSV: a Trading 212 history with a renamed column names the columns looked for", async () => {
    const renamed = text("trading212", "history.csv").replace("Action", "Aktion");
    await expectRefused("history-de.csv", renamed, "broker_trading212", /expected a header row with the columns "action", "time", "isin", "no. of shares", "total" as its first line/);
  });

  test("workbook: a Saxo report with renamed columns, an XTB statement without its Amount column", async () => {
    const saxo = editedWorkbook("saxo", "transactions.xlsx", "Transactions", (ws) => { ws.B1 = { t: "s", v: "Handelsdatum" }; ws.K1 = { t: "s", v: "Betrag" }; });
    await expectRefused("saxo-de.xlsx", saxo, "broker_saxo", /No "Transactions" table with Trade Date, Event and Amount/);
    const xtb = editedWorkbook("xtb", "account-statement.xlsx", "CASH OPERATION HISTORY", (ws) => { ws.F4 = { t: "s", v: "Kwota" }; });
    await expectRefused("xtb-pl.xlsx", xtb, "broker_xtb", /no ID\/Type\/Time\/Comment\/Symbol\/Amount header/);
  });
});

test("after all of it the broker's ledger is empty: only dry runs were made", async () => {
  const summary = await (await dave.get(`/brokers/${broker}/summary`)).json();
  expect(summary.holdings).toEqual([]);
  expect(summary.cash_balances.filter((c: any) => Number(c.amount) !== 0)).toEqual([]);
});
