import { describe, expect, test } from "bun:test";
import { brokerFidelityPlugin } from "../../plugins/broker-fidelity/index.ts";
import { runImportPluginContract } from "../../sdk/testing/index.ts";
import { expectEveryLineAccounted } from "./brim-accounting.ts";
import { fixture, pinAll } from "./brim-helpers.ts";

// Fidelity's account history CSV in the layouts found in public beancount importers' and trackers'
// test suites: history.csv (the current single-account header with Cash Balance, quoted actions,
// the disclaimer footer) and history-2023.csv (History_for_Account: five lines of commas above
// `Run Date,Action,Symbol,Security Description,Security Type,...`, leading spaces in actions).
// Values invented; each row's reading written down by hand before the parser ran (Amount ($) is
// net: a purchase's includes its commission and fees).
const sample = fixture("fidelity", "history.csv");
const schwab = fixture("schwab", "transactions.csv");
runImportPluginContract(brokerFidelityPlugin, { sample: { ...sample, foreign: schwab.file, foreignBytes: schwab.bytes } });

const plugin = await brokerFidelityPlugin.create({} as never);
const ALL = "Run Date,Account,Account Number,Action,Symbol,Description,Type,Exchange Quantity,Exchange Currency,Currency,Price,Quantity,Exchange Rate,Commission,Fees,Accrued Interest,Amount,Settlement Date";
const parseText = (lines: string[]) => plugin.parse({ bytes: new TextEncoder().encode(lines.join("\n")), file: sample.file });

describe("Fidelity account history, current layout", () => {
  test("every row pinned: transfers in and out, buys and a sale with fees apart, reinvestment, dividends, capital gain, foreign tax, interest", async () => {
    const r = await plugin.parse(sample);
    expect(r.detectedFormat).toBe("fidelity/history");
    expect(pinAll(r)).toEqual([
      "3 WITHDRAWAL 2025-06-17 q=0 -300 USD -",
      // 944.17 net = 2 × 472.10 − 0.03 fees.
      "4 SELL 2025-06-16 q=-2 944.2 USD MSFT",
      "4 FEE 2025-06-16 q=0 -0.03 USD MSFT",
      "5 DIVIDEND 2025-05-30 q=0 0.42 USD VOO",
      "6 INTEREST 2025-04-30 q=0 1.23 USD -",
      "7 BUY 2025-03-31 q=0.017 -8.85 USD VOO",
      "8 DIVIDEND 2025-03-31 q=0 8.85 USD VOO",
      "9 DIVIDEND 2025-03-13 q=0 3.32 USD MSFT",
      "10 TAX 2025-02-06 q=0 -0.25 USD ASML",
      "11 DIVIDEND 2025-02-06 q=0 1.68 USD ASML",
      "12 BUY 2025-01-21 q=1 -498.2 USD ASML",
      "12 FEE 2025-01-21 q=0 -0.01 USD ASML",
      "13 BUY 2025-01-13 q=4 -1673.6 USD MSFT",
      "14 BUY 2025-01-06 q=5 -2700.6 USD VOO",
      "15 DEPOSIT 2025-01-02 q=0 5000 USD -",
    ]);
    expect(r.transactions.find((t) => t.row === 12)).toMatchObject({ assetName: "ASML HOLDING NV EUR0.09 NY REGISTRY SHS", description: expect.stringContaining("YOU BOUGHT") });
    expect(r.skippedRows?.map((s) => s.line)).toEqual([18, 19, 20, 22]);
    expect(r.skippedRows?.[3]?.reason).toContain("Date downloaded");
    expectEveryLineAccounted("fidelity", "history.csv", r, 2);
  });
});

describe("Fidelity account history, older layout", () => {
  test("the commas above the header and the leading spaces in actions are read; the footer is accounted for", async () => {
    const r = await plugin.parse(fixture("fidelity", "history-2023.csv"));
    expect(pinAll(r)).toEqual([
      "7 WITHDRAWAL 2023-03-24 q=0 -500 USD -",
      "8 DIVIDEND 2023-03-23 q=0 2.71 USD ITOT",
      "9 WITHDRAWAL 2023-02-15 q=0 -84.12 USD -",
      "10 BUY 2023-02-06 q=10 -913.5 USD ITOT",
      "11 DEPOSIT 2023-02-03 q=0 2000 USD -",
    ]);
    expect(r.skippedRows?.map((s) => s.line)).toEqual([15, 16, 18]);
    expectEveryLineAccounted("fidelity", "history-2023.csv", r, 6);
  });
});

describe("Fidelity options", () => {
  test("contracts are counted in the shares they stand for, the premium and fees as for a stock", async () => {
    const r = await parseText([
      "Run Date,Action,Symbol,Description,Type,Price ($),Quantity,Commission ($),Fees ($),Accrued Interest ($),Amount ($),Cash Balance ($),Settlement Date",
      '02/01/2024,"YOU BOUGHT OPENING TRANSACTION CALL (AAPL) APPLE INC FEB 16 24 $150 (100 SHS) (Margin)", -AAPL240216C150,"CALL (AAPL) APPLE INC FEB 16 24 $150 (100 SHS)",Margin,5.5,2,1.3,0.04,,-1101.34,898.66,02/02/2024',
    ]);
    expect(pinAll(r)).toEqual(["2 BUY 2024-02-01 q=200 -1100 USD -AAPL240216C150", "2 FEE 2024-02-01 q=0 -1.34 USD -AAPL240216C150"]);
    expect(r.warnings.map((w) => w.code)).toEqual(["optionMultiplied"]);
  });
});

describe("Fidelity all-accounts layout and rarer actions", () => {
  test("bond interest, a bond bought with accrued interest, margin interest, a redemption, a core sweep, a merger and an unknown action; several accounts are flagged", async () => {
    const r = await parseText([
      ALL,
      '12/04/2025,"Brokerage","333333333","YOU BOUGHT HARDIN CNTY OHIO 05.50000% 05/01/2050 (Cash)",412003AD7,"HARDIN CNTY OHIO 05.50000% 05/01/2050",Cash,0,,USD,90.67,10000,0,,,45.20,-9112.20,12/05/2025',
      '12/01/2025,"Brokerage","333333333","MUNI EXEMPT INT WHEAT RIDGE COLO 05.00000% 12/01/2041 (Cash)",96255NBE8,"WHEAT RIDGE COLO 05.00000% 12/01/2041",Cash,0,,USD,,0.000,0,,,,250,',
      '11/30/2025,"Brokerage","333333333","MARGIN INTEREST (Margin)",,"No Description",Margin,0,,USD,,0.000,0,,,,-12.4,',
      '11/17/2025,"Brokerage","333333333","REDEMPTION PAYOUT HOUSTON TEX 05.00000% 11/15/2025 (Cash)",44244CCF2,"HOUSTON TEX 05.00000% 11/15/2025",Cash,0,,USD,1,-5000,0,,,,5000,',
      '11/17/2025,"Brokerage","333333333","PURCHASE INTO CORE ACCOUNT FIDELITY GOVERNMENT MONEY MARKET (SPAXX) (Cash)",SPAXX,"FIDELITY GOVERNMENT MONEY MARKET",Cash,0,,USD,1,5000,0,,,,-5000,',
      '11/17/2025,"Brokerage","333333333","MERGER MER FROM 54211N101 LONDON STOCK EXCHANGE GROUP SPON ADS (LSEGY) (Margin)",LSEGY,"LONDON STOCK EXCHANGE GROUP SPON ADS",Shares,0,,USD,,1060,0,,,,0,',
      '11/10/2025,"IRA Account","111111111","SOMETHING NEW (Cash)",,"No Description",Cash,0,,USD,,0.000,0,,,,3,',
    ]);
    expect(r.detectedFormat).toBe("fidelity/all-accounts");
    expect(pinAll(r)).toEqual([
      // 9112.20 = 10,000 face at 90.67 (9067) + 45.20 accrued interest.
      "2 BUY 2025-12-04 q=10000 -9067 USD 412003AD7",
      "2 FEE 2025-12-04 q=0 -45.2 USD 412003AD7",
      "3 INTEREST 2025-12-01 q=0 250 USD 96255NBE8",
      "4 FEE 2025-11-30 q=0 -12.4 USD -",
      "5 SELL 2025-11-17 q=-5000 5000 USD 44244CCF2",
    ]);
    expect(r.skippedRows).toEqual([
      { line: 6, reason: expect.stringContaining("core money market fund") },
      { line: 7, reason: expect.stringContaining("moves shares without a price") },
      { line: 8, reason: expect.stringContaining('Line 8: "SOMETHING NEW (Cash)" (') },
    ]);
    expect(r.warnings.find((w) => w.code === "severalAccounts")?.message).toContain("333333333, 111111111");
  });
});
