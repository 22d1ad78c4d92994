import { describe, expect, test } from "bun:test";
import * as XLSX from "@e965/xlsx";
import { brokerVanguardUkPlugin } from "../../plugins/broker-vanguard-uk/index.ts";
import { describeFile, describeWorkbook } from "../../sdk/import/index.ts";
import { runImportPluginContract } from "../../sdk/testing/index.ts";
import { fixture, pinAll, unaccounted, workbookFixture } from "./brim-helpers.ts";

// Vanguard UK's "Client Transactions Listing - Excel" as public UK tax tools and beancount
// importers read it (a sheet per account: the title, "Cash Transactions" with Date, Details,
// Amount, Balance and a closing "Balance" line, "Investment Transactions" with Date,
// InvestmentName, TransactionDetails, Quantity, Price, Cost and a closing "Cost" line), written by
// make-sample.ts with invented values. Each line's reading written by hand before the parser ran:
// a trade is its investment line (units, trade date) with the cash line's amount.
const sample = await workbookFixture("vanguard-uk", "transactions.xlsx");
const xtb = await workbookFixture("xtb", "account-statement.xlsx");
runImportPluginContract(brokerVanguardUkPlugin, { sample: { ...sample, foreign: xtb.file, foreignBytes: xtb.bytes } });

const plugin = await brokerVanguardUkPlugin.create({} as never);
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

async function workbook(sheets: Record<string, unknown[][]>) {
  const book = XLSX.utils.book_new();
  for (const [name, rows] of Object.entries(sheets)) XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), name);
  const bytes = new Uint8Array(XLSX.write(book, { type: "array", bookType: "xlsx" }));
  return { bytes, file: await describeWorkbook(bytes, "report.xlsx") };
}

describe("Vanguard UK transactions listing (XLSX)", () => {
  test("every line pinned: deposits, trades from both tables, interest, a dividend and its reversal, the account fee, a withdrawal", async () => {
    const r = await plugin.parse(sample);
    expect(r.detectedFormat).toBe("vanguard-uk/transactions-listing");
    expect(pinAll(r)).toEqual([
      "6 DEPOSIT 2024-04-08 q=0 4000 GBP -",
      "9 INTEREST 2024-05-01 q=0 1.52 GBP -",
      "10 DEPOSIT 2024-05-01 q=0 100 GBP -",
      "13 DIVIDEND 2024-06-26 q=0 9.93 GBP VWRL",
      "14 FEE 2024-07-08 q=0 -3.21 GBP -",
      "16 WITHDRAWAL 2024-07-22 q=0 -600 GBP -",
      // Units and trade date from Investment Transactions, the money from the cash line (1000, not the Cost 1000.0006).
      "24 BUY 2024-04-10 q=25 -2474.38 GBP VWRL",
      "25 BUY 2024-04-11 q=4.1523 -1000 GBP -",
      "26 SELL 2024-07-12 q=-5 521.45 GBP VWRL",
    ]);
    const byRow = new Map(r.transactions.map((t) => [t.row, t]));
    expect(byRow.get(24)).toMatchObject({ assetName: "Vanguard FTSE All-World UCITS ETF (VWRL)", symbol: "VWRL" });
    expect(byRow.get(25)).toMatchObject({ assetName: "LifeStrategy 80% Equity Fund - Accumulation" });
    expect(byRow.get(25)?.symbol).toBeUndefined();
    expect(r.skippedRows).toEqual([
      { line: 7, reason: expect.stringContaining("is the cash of the trade on line 24; merged into it") },
      { line: 8, reason: expect.stringContaining("is the cash of the trade on line 25; merged into it") },
      { line: 11, reason: expect.stringContaining("is reversed by line 12, and the two cancel out") },
      { line: 12, reason: expect.stringContaining("reverses line 11, and the two cancel out") },
      { line: 15, reason: expect.stringContaining("is the cash of the trade on line 26; merged into it") },
      { line: 17, reason: expect.stringContaining('Line 17: "Cash adjustment" (2024-07-23, -5 GBP) is a type the importer does not know') },
      { line: 18, reason: expect.stringContaining('Line 18: "Balance" closes the table') },
      { line: 27, reason: expect.stringContaining('Line 27: "Cost" closes the table') },
    ]);
    expect(r.warnings.find((w) => w.row === 17)).toMatchObject({ code: "unsupportedType", severity: "warning" });
    // Every line of both tables (6-18, 24-27) gave a row or a skipped row.
    const lines = new Set([...r.transactions.map((t) => t.row), ...r.skippedRows!.map((s) => s.line)]);
    expect([...range(6, 18), ...range(24, 27)].filter((n) => !lines.has(n))).toEqual([]);
    expect(unaccounted(r, [...range(6, 18), ...range(24, 27)])).toEqual([]);
  });

  test("a trade whose cash line is outside the report is booked at its Cost in pence; a cash line without its investment line reads the units from its details; several accounts are flagged", async () => {
    const account = (title: string, cash: unknown[][], trades: unknown[][]) => [
      [title], [], ["Cash Transactions"], [], ["Date", "Details", "Amount", "Balance"], ...cash, ["Balance", 0], [], ["Investment Transactions"], [],
      ["Date", "InvestmentName", "TransactionDetails", "Quantity", "Price", "Cost"], ...trades, ["Cost", 0],
    ];
    const { bytes, file } = await workbook({
      ISA: account("A's ISA", [["02/10/2022", "Bought .9232 U.S. Equity Index Fund - Accumulation", -400, 0]], []),
      GIA: account("A's General Account", [], [["04/10/2022", "U.S. Equity Index Fund - Accumulation", "Bought .9232 U.S. Equity Index Fund - Accumulation", ".9232", "433.27556", "399.9999"]]),
    });
    expect(plugin.accepts(file)).toBe(0.95);
    const r = await plugin.parse({ bytes, file });
    expect(pinAll(r)).toEqual(["6 BUY 2022-10-02 q=0.9232 -400 GBP -", "11 BUY 2022-10-04 q=0.9232 -400 GBP -"]);
    expect(r.warnings.map((w) => w.code).sort()).toEqual(["rowSkipped", "rowSkipped", "rowSkipped", "rowSkipped", "severalAccounts", "tradeWithoutCash"]);
  });
});

describe("Vanguard UK listing converted to CSV", () => {
  test("the two tables under their titles, the lines counted in the file", async () => {
    const text = [
      "Bob's General investment", "", "Cash Transactions", "", "Date,Details,Amount,Balance",
      "08/03/2022,Deposit for investment purchases,15000,15000",
      '09/03/2022,"Bought 1,550 Foo ETF Distributing (FOO)",-14982.06,17.94',
      "09/04/2022,DIV: FOO.XLON.GB @ GBP 0.4106,225.83,243.77",
      "Balance,243.77", "", "Investment Transactions", "", "Date,InvestmentName,TransactionDetails,Quantity,Price,Cost",
      '10/03/2022,Foo ETF Distributing (FOO),"Bought 1,550 Foo ETF Distributing (FOO)",1550,9.665845,14982.06',
      "Cost,14982.06", "",
    ].join("\n");
    const bytes = new TextEncoder().encode(text);
    const file = describeFile(bytes, "report.csv");
    expect(plugin.accepts(file)).toBe(0.95);
    const r = await plugin.parse({ bytes, file });
    expect(pinAll(r)).toEqual(["6 DEPOSIT 2022-03-08 q=0 15000 GBP -", "8 DIVIDEND 2022-04-09 q=0 225.83 GBP FOO", "14 BUY 2022-03-10 q=1550 -14982.06 GBP FOO"]);
    expect(r.skippedRows?.map((s) => s.line)).toEqual([7, 9, 15]);
  });

  test("older reports: investment lines without details (the sign of Quantity), a name change, a reversed trade and a page label", async () => {
    const text = [
      "Cash Transactions", "Date,Details,Amount,Balance",
      "01/03/2021,Deposit via direct credit,1000,1000",
      "02/03/2021,Bought 4.0000 U.S. Equity Index Fund - Accumulation,-800,200",
      "10/05/2021,Sold 1.0000 U.S. Equity Index Fund - Accumulation,210.5,410.5",
      "11/05/2021,Reversal of Sold 1.0000 U.S. Equity Index Fund - Accumulation,-210.5,200",
      "Page 1 of 2",
      "Balance,200",
      "Investment Transactions", "Date,InvestmentName,TransactionDetails,Quantity,Price,Cost",
      "03/03/2021,U.S. Equity Index Fund - Accumulation,,4.0000,200.00,800.00",
      "11/05/2021,U.S. Equity Index Fund - Accumulation,,-1.0000,210.50,210.50",
      "20/06/2021,FTSE 100 ETF (VUKE),NameChange: VUKE.XLON replaced with VUKG.XLON,0,0,0",
      "Cost,1010.50",
    ].join("\n");
    const bytes = new TextEncoder().encode(text);
    const r = await plugin.parse({ bytes, file: describeFile(bytes, "report.csv") });
    expect(pinAll(r)).toEqual([
      "3 DEPOSIT 2021-03-01 q=0 1000 GBP -",
      "11 BUY 2021-03-03 q=4 -800 GBP -",
      "12 SELL 2021-05-11 q=-1 210.5 GBP -",
    ]);
    const why: [number, string][] = [
      [4, "is the cash of the trade on line 11"],
      [5, "is the cash of the trade on line 12"],
      [6, '"Reversal of Sold 1.0000 U.S. Equity Index Fund - Accumulation" (2021-05-11, -210.5 GBP) reverses a trade'],
      [7, "is a page label of the report"],
      [8, '"Balance" closes the table'],
      [13, '"NameChange: VUKE.XLON replaced with VUKG.XLON" (FTSE 100 ETF (VUKE), 20/06/2021, 0) is a change of name or ticker'],
      [14, '"Cost" closes the table'],
    ];
    expect(r.skippedRows?.map((x) => x.line)).toEqual(why.map(([line]) => line));
    for (const [line, text] of why) expect(r.skippedRows!.find((x) => x.line === line)!.reason).toContain(text);
    expect(r.warnings.filter((w) => w.severity === "warning").map((w) => w.code).sort()).toEqual(["corporateAction", "tradeReversal"]);
  });

  test("a report of another broker is not claimed", () => {
    expect(plugin.accepts(fixture("degiro", "Account.csv").file)).toBe(0);
  });
});
