import { describe, expect, test } from "bun:test";
import { brokerXtbPlugin } from "../../plugins/broker-xtb/index.ts";
import { isPluginError } from "../../sdk/index.ts";
import { runImportPluginContract } from "../../sdk/testing/index.ts";
import { fixture, pinAll, unaccounted, workbookFixture } from "./brim-helpers.ts";

// Hand-checked against test/fixtures/brim/xtb/, before the parser: account-statement.xlsx and
// xstation-export.xlsx (written by make-sample.ts; the latter with the ten-row account block of
// today's xStation export and its positions sheets), cash-operations.csv (the semicolon CSV with
// `ID;Type;Time;Comment;Symbol;Amount;;;;`, words in several languages), cash-operations-2025.csv
// (the 2025 CSV: an account preamble, `Type;Ticker;Instrument;Time;Amount;ID;Comment;Product`,
// decimal commas, a Total line) and closed-positions.csv. Invented values in the real structures.
const statement = await workbookFixture("xtb", "account-statement.xlsx");
const xstation = await workbookFixture("xtb", "xstation-export.xlsx");
const csv = fixture("xtb", "cash-operations.csv");
const csv2025 = fixture("xtb", "cash-operations-2025.csv");
const closed = fixture("xtb", "closed-positions.csv");
const degiro = fixture("degiro", "Account.csv");
const etoro = await workbookFixture("etoro", "account-statement.xlsx");

runImportPluginContract(brokerXtbPlugin, { sample: { ...statement, foreign: degiro.file, foreignBytes: degiro.bytes } });
runImportPluginContract(brokerXtbPlugin, { sample: { ...xstation, foreign: etoro.file, foreignBytes: etoro.bytes } });

const plugin = await brokerXtbPlugin.create({} as never);
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe("XTB account statement (XLSX, sheet CASH OPERATION HISTORY)", () => {
  test("deposits, purchases and sales with quantities from the comment, dividends and their tax, interest and its tax, fees, withdrawals", async () => {
    const result = await plugin.parse(statement);
    expect(pinAll(result)).toEqual([
      "5 DEPOSIT 2024-01-02 q=0 2000 EUR -",
      "6 BUY 2024-01-05 q=4 -433.68 EUR VWCE.DE",
      "7 BUY 2024-01-10 q=10 -453 EUR IUSA.DE",
      "8 DIVIDEND 2024-02-15 q=0 1.2 EUR IUSA.DE",
      "9 TAX 2024-02-15 q=0 -0.18 EUR IUSA.DE",
      "10 INTEREST 2024-03-01 q=0 3.45 EUR -",
      "11 TAX 2024-03-01 q=0 -0.66 EUR -",
      "12 SELL 2024-03-20 q=-2 224.2 EUR VWCE.DE",
      "13 WITHDRAWAL 2024-04-02 q=0 -100 EUR -",
      "14 FEE 2024-03-20 q=0 -0.01 EUR VWCE.DE",
    ]);
    expect(result.warnings).toEqual([expect.objectContaining({ code: "unsupportedType", row: 15 }), expect.objectContaining({ code: "sheetSkipped" })]);
  });

  test("today's xStation workbook: the account block of ten rows, partial fills (10/12.5), CFD swaps and the total line accounted for", async () => {
    const result = await plugin.parse(xstation);
    expect(pinAll(result)).toEqual([
      "12 DEPOSIT 2024-01-03 q=0 5000 PLN -",
      "13 BUY 2024-01-04 q=10 -1204 PLN CDR.PL",
      "14 BUY 2024-01-04 q=2.5 -301 PLN CDR.PL",
      "15 BUY 2024-01-05 q=0.8 -360.08 PLN CSPX.UK",
      "16 DIVIDEND 2024-06-10 q=0 1.28 PLN CSPX.UK",
      "17 TAX 2024-06-10 q=0 -0.19 PLN CSPX.UK",
      "18 INTEREST 2024-07-01 q=0 4.2 PLN -",
      "19 TAX 2024-07-01 q=0 -0.8 PLN -",
      "20 SELL 2024-07-15 q=-5 655 PLN CDR.PL",
      "21 FEE 2024-07-15 q=0 -0.02 PLN CDR.PL",
      "23 WITHDRAWAL 2024-07-20 q=0 -1000 PLN -",
    ]);
    expect(result.warnings.map((w) => `${w.row ?? "-"} ${w.code}`)).toEqual(["22 unsupportedType", "24 summaryRowSkipped", "- sheetSkipped"]);
    expect(unaccounted(result, range(12, 24))).toEqual([]);
  });

  test("the semicolon CSV: no account currency in the file, so the parse asks for it; with it every row is classified or skipped with a reason", async () => {
    const error = await plugin.parse(csv).catch((e: unknown) => e);
    expect(isPluginError(error) && error.reason === "invalid-input" && /currency/.test(error.message)).toBe(true);
    const result = await plugin.parse({ ...csv, options: { currency: "EUR" } });
    expect(pinAll(result)).toEqual([
      "2 DEPOSIT 2024-02-02 q=0 800 EUR -",
      "3 BUY 2024-02-05 q=20 -234.96 EUR SPYL.DE",
      "4 BUY 2024-02-05 q=4.5 -52.87 EUR SPYL.DE",
      "5 BUY 2024-02-06 q=1 -111.25 EUR GOOGL.US",
      "6 INTEREST 2024-03-05 q=0 0.31 EUR -",
      "7 TAX 2024-03-05 q=0 -0.06 EUR -",
      "8 DIVIDEND 2024-07-12 q=0 1.35 EUR SPYL.DE",
      "9 TAX 2024-09-26 q=0 -0.03 EUR GOOGL.US",
      "10 SELL 2024-10-02 q=-10 122.8 EUR SPYL.DE",
      "11 WITHDRAWAL 2024-10-14 q=0 -100 EUR -",
      "14 WITHDRAWAL 2024-10-18 q=0 -300 EUR -",
      "15 FEE 2025-02-27 q=0 -0.01 EUR GOOGL.US",
    ]);
    expect(result.warnings.map((w) => `${w.row} ${w.code}`)).toEqual(["12 unsupportedType", "13 unsupportedType"]);
    expect(unaccounted(result, range(2, 15))).toEqual([]);
  });

  test("the 2025 CSV: preamble, Ticker and Instrument, decimal commas with thousands, the Total line skipped", async () => {
    const result = await plugin.parse({ ...csv2025, options: { currency: "PLN" } });
    expect(pinAll(result)).toEqual([
      "6 DEPOSIT 2025-03-01 q=0 2500 PLN -",
      "7 BUY 2025-03-03 q=40 -1240.4 PLN IS3N.DE",
      "8 BUY 2025-03-03 q=10 -98.95 PLN LI7U.DE",
      "9 DIVIDEND 2025-06-02 q=0 6.42 PLN DTLE.UK",
      "10 TAX 2025-06-02 q=0 -0.64 PLN DTLE.UK",
      "11 SELL 2025-09-01 q=-10 104.1 PLN LI7U.DE",
      "12 INTEREST 2025-10-01 q=0 0.24 PLN -",
      "13 TAX 2025-10-01 q=0 -0.05 PLN -",
      "14 DEPOSIT 2025-11-03 q=0 1000 PLN -",
    ]);
    expect(result.transactions[1]).toMatchObject({ assetName: "EM IMI Acc" });
    expect(result.warnings.map((w) => `${w.row} ${w.code}`)).toEqual(["15 summaryRowSkipped"]);
  });

  test("the closed positions list is recognised and refused with what to export instead", async () => {
    expect(plugin.accepts(closed.file)).toBeGreaterThanOrEqual(0.9);
    const error = await plugin.parse(closed).catch((e: unknown) => e);
    expect(isPluginError(error) && /Cash Operations/.test(error.message)).toBe(true);
  });

  test("detection from content: workbooks by their sheets, CSVs by their header, never by the file name; other brokers' files 0", async () => {
    for (const f of [statement, xstation, csv, csv2025]) expect(plugin.accepts(f.file)).toBeGreaterThanOrEqual(0.9);
    expect(plugin.accepts({ ...xstation.file, filename: "export.xlsx" })).toBe(plugin.accepts(xstation.file));
    expect(plugin.accepts(etoro.file)).toBe(0);
    expect(plugin.accepts(await workbookFixture("saxo", "transactions.xlsx").then((f) => f.file))).toBe(0);
    for (const f of [degiro, fixture("ibkr", "flex.csv"), fixture("generic", "generic-en.csv")]) expect(plugin.accepts(f.file)).toBe(0);
  });
});
