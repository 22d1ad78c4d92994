import { describe, expect, test } from "bun:test";
import { brokerSwissquotePlugin } from "../../plugins/broker-swissquote/index.ts";
import { runImportPluginContract } from "../../sdk/testing/index.ts";
import { expectEveryLineAccounted } from "./brim-accounting.ts";
import { fixture, pinAll } from "./brim-helpers.ts";

// The Swissquote export as it circulates in public converters' test suites (semicolons, "DD-MM-YYYY
// HH:MM:SS", apostrophes grouping thousands, partial fills of one order on two lines, a dividend's
// withholding in Costs, the two legs of a forex sharing the order number; the German layout with
// "Währung Nettobetrag"), values invented. Each line's classification written down by hand first.
const sample = fixture("swissquote", "transactions.csv");
const degiro = fixture("degiro", "Account.csv");
runImportPluginContract(brokerSwissquotePlugin, { sample: { ...sample, foreign: degiro.file, foreignBytes: degiro.bytes } });

const parse = async (name: string) => (await brokerSwissquotePlugin.create({} as never)).parse(fixture("swissquote", name));

describe("Swissquote transactions export, English", () => {
  test("every line: trades and their costs, partial fills of one order, dividends gross with the tax withheld, custody fees, interest, forex pair, payments in and out", async () => {
    const r = await parse("transactions.csv");
    expect(r.detectedFormat).toBe("swissquote/transactions/en");
    expect(pinAll(r)).toEqual([
      "2 WITHDRAWAL 2024-08-01 q=0 -1000 CHF -",
      "2 FEE 2024-08-01 q=0 -2 CHF -",
      "3 SELL 2024-07-12 q=-2 460.2 USD US0378331005/AAPL order=20000009",
      "4 SELL 2024-07-12 q=-4 920.4 USD US0378331005/AAPL order=20000009",
      "4 FEE 2024-07-12 q=0 -9.85 USD US0378331005/AAPL order=20000009",
      "5 INTEREST 2024-06-30 q=0 1.25 CHF -",
      "6 FEE 2024-06-30 q=0 -27.03 CHF -",
      "7 DIVIDEND 2024-04-25 q=0 60 CHF CH0038863350/NESN",
      "7 TAX 2024-04-25 q=0 -21 CHF CH0038863350/NESN",
      "8 DIVIDEND 2024-02-15 q=0 2.4 USD US0378331005/AAPL",
      "8 TAX 2024-02-15 q=0 -0.36 USD US0378331005/AAPL",
      "9 BUY 2024-01-05 q=20 -1970 CHF CH0038863350/NESN order=20000006",
      "9 FEE 2024-01-05 q=0 -9 CHF CH0038863350/NESN order=20000006",
      "10 BUY 2024-01-04 q=10 -1815 USD US0378331005/AAPL order=20000005",
      "10 FEE 2024-01-04 q=0 -9.85 USD US0378331005/AAPL order=20000005",
      "11 FX_CONVERSION 2024-01-03 q=0 5000 USD - pair",
      "12 FX_CONVERSION 2024-01-03 q=0 -4300 CHF - pair",
      "13 DEPOSIT 2024-01-02 q=0 10000 CHF -",
      "14 DEPOSIT 2024-01-01 q=0 500 CHF -",
    ]);
    expect(r.skippedRows).toEqual([]);
    expectEveryLineAccounted("swissquote", "transactions.csv", r, 1);
  });

  test("a buy in a USD sub-account: Net Amount less Costs in USD, the costs a FEE, the order number kept; symbol, ISIN and name carried", async () => {
    const r = await parse("transactions.csv");
    expect(r.transactions.filter((t) => t.row === 10)).toEqual([
      {
        row: 10, date: "2024-01-04", description: "Buy: APPLE ORD", orderId: "200000050", type: "BUY", isin: "US0378331005", symbol: "AAPL",
        assetName: "APPLE ORD", quantity: "10", cash: { amount: "-1815", currency: "USD" },
      },
      {
        row: 10, date: "2024-01-04", description: "Buy: APPLE ORD", orderId: "200000050", type: "FEE", isin: "US0378331005", symbol: "AAPL",
        assetName: "APPLE ORD", quantity: "0", cash: { amount: "-9.85", currency: "USD" },
      },
    ] as never);
  });

  test("a dividend's Costs are the withholding: DIVIDEND of the gross and TAX of the costs; the forex legs share a pair key", async () => {
    const r = await parse("transactions.csv");
    expect(r.transactions.filter((t) => t.row === 7)).toEqual([
      { row: 7, date: "2024-04-25", description: "Dividend: NESTLE N", type: "DIVIDEND", isin: "CH0038863350", symbol: "NESN", assetName: "NESTLE N", quantity: "0", cash: { amount: "60", currency: "CHF" } },
      { row: 7, date: "2024-04-25", description: "Dividend: NESTLE N (withholding tax)", type: "TAX", isin: "CH0038863350", symbol: "NESN", assetName: "NESTLE N", quantity: "0", cash: { amount: "-21", currency: "CHF" } },
    ] as never);
    const fx = r.transactions.filter((t) => t.type === "FX_CONVERSION");
    expect(fx.map((t) => [t.row, t.pairKey, t.cash] as unknown[])).toEqual([
      [11, "forex-200000001", { amount: "5000", currency: "USD" }],
      [12, "forex-200000001", { amount: "-4300", currency: "CHF" }],
    ]);
  });

  test("cash lines: custody fees (VAT included) a FEE, interest, a transfer out whose Costs are a FEE of their own, a payment in", async () => {
    const r = await parse("transactions.csv");
    const at = (row: number) => r.transactions.filter((t) => t.row === row);
    expect(at(6)).toEqual([{ row: 6, date: "2024-06-30", description: "Custody Fees", type: "FEE", quantity: "0", cash: { amount: "-27.03", currency: "CHF" } }] as never);
    expect(at(5)).toEqual([{ row: 5, date: "2024-06-30", description: "Interests", type: "INTEREST", quantity: "0", cash: { amount: "1.25", currency: "CHF" } }] as never);
    expect(at(2)).toEqual([
      { row: 2, date: "2024-08-01", description: "Debit", type: "WITHDRAWAL", quantity: "0", cash: { amount: "-1000", currency: "CHF" } },
      { row: 2, date: "2024-08-01", description: "Debit (costs)", type: "FEE", quantity: "0", cash: { amount: "-2", currency: "CHF" } },
    ] as never);
    expect(at(13)).toEqual([{ row: 13, date: "2024-01-02", description: "Credit", type: "DEPOSIT", quantity: "0", cash: { amount: "10000", currency: "CHF" } }] as never);
  });

  test("a line whose currency sits right after Net Amount (Currency empty, as German lines under an English header are written) is read in that currency", async () => {
    const r = await parse("transactions.csv");
    expect(r.transactions.filter((t) => t.row === 14)).toEqual([
      { row: 14, date: "2024-01-01", description: "Zahlung", type: "DEPOSIT", quantity: "0", cash: { amount: "500", currency: "CHF" } },
    ] as never);
  });

  test("an exchange filled in two parts (four legs of one order) gives two FX pairs, the n-th debit with the n-th credit", async () => {
    const head = "Date;Order #;Transaction;Symbol;Name;ISIN;Quantity;Unit price;Costs;Accrued Interest;Net Amount;Balance;Currency\r\n";
    const body = [
      "03-01-2024 10:15:01;200000002;Forex credit;;;;1.0;300.00;0.00;0.00;300.00;800.00;USD",
      "03-01-2024 10:15:01;200000002;Forex debit;;;;1.0;258.00;0.00;0.00;-258.00;742.00;CHF",
      "03-01-2024 10:15:00;200000002;Forex credit;;;;1.0;500.00;0.00;0.00;500.00;500.00;USD",
      "03-01-2024 10:15:00;200000002;Forex debit;;;;1.0;430.00;0.00;0.00;-430.00;1000.00;CHF",
    ].join("\r\n");
    const bytes = new TextEncoder().encode(`${head}${body}\r\n`);
    const r = await (await brokerSwissquotePlugin.create({} as never)).parse({ bytes, file: { ...sample.file, head: new TextDecoder().decode(bytes) } });
    expect(r.transactions.map((t) => [t.row, t.pairKey, t.cash?.amount, t.cash?.currency])).toEqual([
      [2, "forex-200000002-1", "300", "USD"],
      [3, "forex-200000002-1", "-258", "CHF"],
      [4, "forex-200000002-2", "500", "USD"],
      [5, "forex-200000002-2", "-430", "CHF"],
    ]);
    expect(r.skippedRows).toEqual([]);
  });

  test("a forex leg without its other leg in the file is a skipped row with the reason", async () => {
    const head = "Date;Order #;Transaction;Symbol;Name;ISIN;Quantity;Unit price;Costs;Accrued Interest;Net Amount;Balance;Currency\r\n";
    const bytes = new TextEncoder().encode(`${head}03-01-2024 10:15:00;200000001;Forex credit;;;;1.0;5000.00;0.00;0.00;5000.00;5000.00;USD\r\n`);
    const r = await (await brokerSwissquotePlugin.create({} as never)).parse({ bytes, file: { ...sample.file, head: new TextDecoder().decode(bytes) } });
    expect(r.transactions).toEqual([]);
    expect(r.skippedRows).toEqual([{ line: 2, reason: "the exchange of order 200000001 has no matching leg in another currency in this file" }]);
  });
});

describe("Swissquote transactions export, German", () => {
  test("Kauf (a bond with accrued interest paid: a FEE of its own), Verkauf, Dividende, Depotgebühren, Zinsen, Vergütung; the row's currency from Währung Nettobetrag", async () => {
    const r = await parse("transactions-de.csv");
    expect(r.detectedFormat).toBe("swissquote/transactions/de");
    expect(pinAll(r)).toEqual([
      "2 INTEREST 2023-12-31 q=0 3.1 CHF -",
      "3 SELL 2023-10-10 q=-4 384 CHF CH0038863350/NESN order=12345681",
      "3 FEE 2023-10-10 q=0 -9 CHF CH0038863350/NESN order=12345681",
      "4 FEE 2023-09-30 q=0 -21.62 CHF -",
      "5 BUY 2023-06-12 q=1000 -985 CHF CH1110425654/NES30 order=12345680",
      "5 FEE 2023-06-12 q=0 -5 CHF CH1110425654/NES30 order=12345680",
      "5 FEE 2023-06-12 q=0 -4.2 CHF CH1110425654/NES30",
      "6 DIVIDEND 2023-05-05 q=0 29 CHF CH0038863350/NESN",
      "6 TAX 2023-05-05 q=0 -10.15 CHF CH0038863350/NESN",
      "7 BUY 2023-01-12 q=10 -1084 CHF CH0038863350/NESN order=12345678",
      "7 FEE 2023-01-12 q=0 -9 CHF CH0038863350/NESN order=12345678",
      "8 DEPOSIT 2023-01-02 q=0 5000 CHF -",
    ]);
    expect(r.transactions.find((t) => t.row === 5 && t.cash?.amount === "-4.2")?.description).toBe("Kauf: 1.5% NESTLE 2030 (accrued interest)");
    expectEveryLineAccounted("swissquote", "transactions-de.csv", r, 1);
  });

  test("detection claims both layouts by content and not a DEGIRO file", async () => {
    const plugin = await brokerSwissquotePlugin.create({} as never);
    expect(plugin.accepts({ ...sample.file, filename: "upload.csv" })).toBeGreaterThanOrEqual(0.9);
    expect(plugin.accepts(fixture("swissquote", "transactions-de.csv").file)).toBeGreaterThanOrEqual(0.9);
    expect(plugin.accepts(degiro.file)).toBe(0);
  });
});
