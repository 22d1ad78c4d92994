import { describe, expect, test } from "bun:test";
import { brokerFreetradePlugin } from "../../plugins/broker-freetrade/index.ts";
import { runImportPluginContract } from "../../sdk/testing/index.ts";
import { expectEveryLineAccounted } from "./brim-accounting.ts";
import { fixture, pinAll } from "./brim-helpers.ts";

// Freetrade's Activity feed CSV in its two layouts as they circulate in public converters' test
// suites (activity.csv: "Total Amount in Account Currency" and the Stock Split columns of current
// exports; activity-2024.csv: "Total Amount" and "Total Shares Amount"), values invented. Each row's
// reading written down by hand from the export's arithmetic before the parser ran: an order's total
// = shares' value + stamp duty + FX fee (a sale: − costs), a foreign order's value in its currency
// being "Total Amount in Instrument Currency".
const sample = fixture("freetrade", "activity.csv");
const degiro = fixture("degiro", "Account.csv");
runImportPluginContract(brokerFreetradePlugin, { sample: { ...sample, foreign: degiro.file, foreignBytes: degiro.bytes } });

const parse = async (name: string) => (await brokerFreetradePlugin.create({} as never)).parse(fixture("freetrade", name));

describe("Freetrade activity export, current layout", () => {
  test("every row pinned: top up, orders with stamp duty and FX fee, free share, dividends with withholding, interest, withdrawals", async () => {
    const r = await parse("activity.csv");
    expect(r.detectedFormat).toBe("freetrade/activity");
    expect(pinAll(r)).toEqual([
      "3 WITHDRAWAL 2025-04-22 q=0 -100 GBP -",
      "4 WITHDRAWAL 2025-04-18 q=0 -250 GBP -",
      // 1 AAPL sold for 190 USD, exchanged at 1.28 to 148.44 GBP; the 99 bps FX fee (1.47) leaves 146.97.
      "6 SELL 2025-04-02 q=-1 190 USD US0378331005/AAPL order=K2M8QW4T",
      "6 FX_CONVERSION 2025-04-02 q=0 -190 USD - order=K2M8QW4T pair",
      "6 FX_CONVERSION 2025-04-02 q=0 148.44 GBP - order=K2M8QW4T pair",
      "6 FEE 2025-04-02 q=0 -1.47 GBP US0378331005/AAPL order=K2M8QW4T",
      "7 ADJUSTMENT 2025-03-20 q=1 no-cash GB00BPQY8M80/AV.",
      "8 DIVIDEND 2025-03-18 q=0 10.6 GBP GB0008706128/LLOY",
      "9 INTEREST 2025-03-15 q=0 2.14 GBP -",
      // 0.72 USD gross, 0.11 USD withheld, 0.61 USD net paid as 0.48 GBP.
      "10 DIVIDEND 2025-02-13 q=0 0.48 GBP US0378331005/AAPL",
      "10 DIVIDEND 2025-02-13 q=0 0.11 USD US0378331005/AAPL",
      "10 TAX 2025-02-13 q=0 -0.11 USD US0378331005/AAPL",
      // 453.46 = 1000 × 0.4512 + 2.26 stamp duty.
      "12 BUY 2025-01-21 q=1000 -451.2 GBP GB0008706128/LLOY order=P9D4HV6L",
      "12 TAX 2025-01-21 q=0 -2.26 GBP GB0008706128/LLOY order=P9D4HV6L",
      // 441.81 = 437.48 (555.60 USD at 1.27) + 4.33 FX fee.
      "13 BUY 2025-01-08 q=3 -555.6 USD US0378331005/AAPL order=3ZTN8B5Y",
      "13 FX_CONVERSION 2025-01-08 q=0 -437.48 GBP - order=3ZTN8B5Y pair",
      "13 FX_CONVERSION 2025-01-08 q=0 555.6 USD - order=3ZTN8B5Y pair",
      "13 FEE 2025-01-08 q=0 -4.33 GBP US0378331005/AAPL order=3ZTN8B5Y",
      "14 BUY 2025-01-03 q=10 -984 GBP IE00BK5BQT80/VWRP order=7QX2ABCD",
      "15 DEPOSIT 2025-01-02 q=0 3000 GBP -",
    ]);
    expectEveryLineAccounted("freetrade", "activity.csv", r, 1);
  });

  test("a free share is units in at the day's price as their cost, with no cash; assets carry name, ISIN and ticker", async () => {
    const r = await parse("activity.csv");
    const free = r.transactions.find((t) => t.row === 7)!;
    expect(free).toMatchObject({ type: "ADJUSTMENT", quantity: "1", costBasis: { amount: "4.5", currency: "GBP" }, isin: "GB00BPQY8M80", symbol: "AV.", assetName: "Aviva" });
    expect(free.cash).toBeUndefined();
    expect(r.warnings.find((w) => w.row === 7)?.code).toBe("freeShare");
    expect(r.transactions.find((t) => t.row === 14)).toMatchObject({ assetName: "Vanguard FTSE All-World", orderId: "7QX2ABCD1EFG" });
  });

  test("statements and tax certificates are skipped as documents, a stock split with a warning to enter it by hand", async () => {
    const r = await parse("activity.csv");
    expect(r.skippedRows).toEqual([
      { line: 2, reason: expect.stringContaining("links to a document") },
      { line: 5, reason: expect.stringContaining("stock split") },
      { line: 11, reason: expect.stringContaining("links to a document") },
    ]);
    expect(r.warnings.find((w) => w.row === 5)).toMatchObject({ code: "corporateAction", severity: "warning" });
  });

  test("an internal transfer from another Freetrade account is a deposit, one to it a withdrawal", async () => {
    const csv = (title: string) => new TextEncoder().encode(
      `Title,Type,Timestamp,Account Currency,Total Amount,Buy / Sell,Ticker,ISIN,Price per Share in Account Currency,Stamp Duty,Quantity\n${title},INTERNAL_TRANSFER,2025-04-22T10:03:11.902Z,GBP,100.00,,,,,,\n`,
    );
    const plugin = await brokerFreetradePlugin.create({} as never);
    const [into, out] = await Promise.all(["Internal Transfer from GIA", "Internal Transfer to ISA"].map((t) => plugin.parse({ bytes: csv(t), file: sample.file })));
    expect(pinAll(into!)).toEqual(["2 DEPOSIT 2025-04-22 q=0 100 GBP -"]);
    expect(pinAll(out!)).toEqual(["2 WITHDRAWAL 2025-04-22 q=0 -100 GBP -"]);
  });
});

describe("Freetrade activity export, 2024 layout", () => {
  test("Total Amount and Total Shares Amount read the same way; a special dividend is a dividend", async () => {
    const r = await parse("activity-2024.csv");
    expect(pinAll(r)).toEqual([
      "2 DEPOSIT 2024-05-01 q=0 50 GBP -",
      "3 DIVIDEND 2024-04-28 q=0 3.2 GBP GB0005603997/LGEN",
      "4 BUY 2024-03-04 q=40 -92 GBP GB0005603997/LGEN order=DJXPPWUN",
      "4 TAX 2024-03-04 q=0 -0.46 GBP GB0005603997/LGEN order=DJXPPWUN",
      "5 DEPOSIT 2024-03-01 q=0 100 GBP -",
    ]);
    expectEveryLineAccounted("freetrade", "activity-2024.csv", r, 1);
  });
});
