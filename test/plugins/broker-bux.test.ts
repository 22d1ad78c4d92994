import { describe, expect, test } from "bun:test";
import { brokerBuxPlugin } from "../../plugins/broker-bux/index.ts";
import { runImportPluginContract } from "../../sdk/testing/index.ts";
import { expectEveryLineAccounted } from "./brim-accounting.ts";
import { fixture, pinAll } from "./brim-helpers.ts";

// The BUX transaction overview as it circulates in public converters' test suites (categories and
// types in English, "YYYY-MM-DD HH:MM:SS.ffffff" times, a US share paid in euros at Exchange Rate,
// the dividend columns and Transfer Type of the current layout, a split as two corporate-action
// lines; the older layout with Trade Quantity), values invented. Classified by hand first.
const sample = fixture("bux", "transaction-overview.csv");
const degiro = fixture("degiro", "Account.csv");
runImportPluginContract(brokerBuxPlugin, { sample: { ...sample, foreign: degiro.file, foreignBytes: degiro.bytes } });

const parse = async (name: string) => (await brokerBuxPlugin.create({} as never)).parse(fixture("bux", name));

describe("BUX transaction overview", () => {
  test("every line: deposits, buys (a US share paid in euros), trading and subscription fees, dividends (the euro one gross with its tax), interest, a sale, a promotion, a withdrawal", async () => {
    const r = await parse("transaction-overview.csv");
    expect(r.detectedFormat).toBe("bux/transactions");
    expect(pinAll(r)).toEqual([
      "2 DEPOSIT 2024-01-08 q=0 500 EUR -",
      "3 BUY 2024-01-09 q=24 -331.2 EUR NL0011821202",
      "4 FEE 2024-01-09 q=0 -1 EUR NL0011821202",
      "5 BUY 2024-01-10 q=0.591017 -100 EUR US0378331005",
      "6 FEE 2024-02-01 q=0 -2.99 EUR -",
      "7 DIVIDEND 2024-02-15 q=0 0.11 EUR US0378331005",
      "8 DIVIDEND 2024-05-03 q=0 18.17 EUR NL0011821202",
      "8 TAX 2024-05-03 q=0 -2.73 EUR NL0011821202",
      "9 INTEREST 2024-06-05 q=0 0.21 EUR -",
      "10 SELL 2024-06-20 q=-10 150 EUR NL0011821202",
      "11 FEE 2024-06-20 q=0 -1 EUR NL0011821202",
      "12 INTEREST 2024-07-01 q=0 5 EUR -",
      "15 WITHDRAWAL 2024-09-02 q=0 -100 EUR -",
      "16 DEPOSIT 2024-09-16 q=0 50 EUR -",
    ]);
    expectEveryLineAccounted("bux", "transaction-overview.csv", r, 1);
  });

  test("each kind's fields: a buy of a US share carries its ISIN, name and currency hint; the euro dividend's tax a TAX; fees and cash lines", async () => {
    const r = await parse("transaction-overview.csv");
    const at = (row: number) => r.transactions.filter((t) => t.row === row);
    expect(at(5)).toEqual([{
      row: 5, date: "2024-01-10", description: "Buy Trade: Apple", type: "BUY", isin: "US0378331005", assetName: "Apple", assetCurrency: "USD",
      quantity: "0.591017", cash: { amount: "-100", currency: "EUR" },
    }] as never);
    expect(at(10)).toEqual([{
      row: 10, date: "2024-06-20", description: "Sell Trade: ING", type: "SELL", isin: "NL0011821202", assetName: "ING", assetCurrency: "EUR",
      quantity: "-10", cash: { amount: "150", currency: "EUR" },
    }] as never);
    expect(at(8)).toEqual([
      { row: 8, date: "2024-05-03", description: "Cash Dividend: ING", type: "DIVIDEND", isin: "NL0011821202", assetName: "ING", quantity: "0", cash: { amount: "18.17", currency: "EUR" } },
      { row: 8, date: "2024-05-03", description: "Cash Dividend: ING (dividend tax)", type: "TAX", isin: "NL0011821202", assetName: "ING", quantity: "0", cash: { amount: "-2.73", currency: "EUR" } },
    ] as never);
    expect(at(4)).toEqual([{ row: 4, date: "2024-01-09", description: "Trading Fee: ING", type: "FEE", isin: "NL0011821202", quantity: "0", cash: { amount: "-1", currency: "EUR" } }] as never);
    expect(at(6)).toEqual([{ row: 6, date: "2024-02-01", description: "Subscription Fee", type: "FEE", quantity: "0", cash: { amount: "-2.99", currency: "EUR" } }] as never);
    expect(at(9)).toEqual([{ row: 9, date: "2024-06-05", description: "Interest Payment", type: "INTEREST", quantity: "0", cash: { amount: "0.21", currency: "EUR" } }] as never);
    expect(at(2)).toEqual([{ row: 2, date: "2024-01-08", description: "Sepa Deposit", type: "DEPOSIT", quantity: "0", cash: { amount: "500", currency: "EUR" } }] as never);
    expect(at(15)).toEqual([{ row: 15, date: "2024-09-02", description: "Sepa Withdrawal", type: "WITHDRAWAL", quantity: "0", cash: { amount: "-100", currency: "EUR" } }] as never);
    expect(r.warnings.find((w) => w.row === 12)).toEqual(expect.objectContaining({ code: "cashCredit", severity: "info" }));
  });

  test("a deposit written one cell to the right (amount under Transaction Currency, as public samples show) is read where it is, with an info", async () => {
    const r = await parse("transaction-overview.csv");
    expect(r.transactions.filter((t) => t.row === 16)).toEqual([
      { row: 16, date: "2024-09-16", description: "Sepa Deposit", type: "DEPOSIT", quantity: "0", cash: { amount: "50", currency: "EUR" } },
    ] as never);
    expect(r.warnings.find((w) => w.row === 16)).toEqual(expect.objectContaining({ code: "shiftedLine", severity: "info" }));
  });

  test("the two lines of a split (ASSET_REDEEM, ASSET_DEPOSIT) are skipped rows with the reason", async () => {
    const r = await parse("transaction-overview.csv");
    expect(r.skippedRows).toEqual([
      { line: 13, reason: expect.stringContaining("ASSET_REDEEM: Stock split Apple") },
      { line: 14, reason: expect.stringContaining("ASSET_DEPOSIT: Stock split Apple") },
    ]);
  });

  test("the older layout (Trade Quantity, Trade Price) is read too", async () => {
    const r = await parse("transaction-overview-2021.csv");
    expect(r.detectedFormat).toBe("bux/transactions-legacy");
    expect(pinAll(r)).toEqual([
      "2 DEPOSIT 2021-03-01 q=0 250 EUR -",
      "3 BUY 2021-03-02 q=0.5 -213.5 EUR NL0010273215",
      "4 DIVIDEND 2021-04-28 q=0 0.55 EUR NL0010273215",
      "5 SELL 2021-05-10 q=-0.4 215 EUR NL0010273215",
      "6 WITHDRAWAL 2021-05-11 q=0 -200 EUR -",
    ]);
    expectEveryLineAccounted("bux", "transaction-overview-2021.csv", r, 1);
  });

  test("detection claims both layouts by content and not a DEGIRO file", async () => {
    const plugin = await brokerBuxPlugin.create({} as never);
    expect(plugin.accepts({ ...sample.file, filename: "upload.csv" })).toBeGreaterThanOrEqual(0.9);
    expect(plugin.accepts(fixture("bux", "transaction-overview-2021.csv").file)).toBeGreaterThanOrEqual(0.9);
    expect(plugin.accepts(degiro.file)).toBe(0);
  });
});
