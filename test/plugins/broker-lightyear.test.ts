import { describe, expect, test } from "bun:test";
import { brokerLightyearPlugin } from "../../plugins/broker-lightyear/index.ts";
import { runImportPluginContract } from "../../sdk/testing/index.ts";
import { expectEveryLineAccounted } from "./brim-accounting.ts";
import { fixture, pinAll } from "./brim-helpers.ts";

// Lightyear's account statement CSV as it circulates in public tax tools' test suites (the header
// `Date,Reference,Ticker,ISIN,Type,Quantity,CCY,Price/share,Gross Amount,FX Rate,Fee,Net Amt.,Tax
// Amt.`, "DD/MM/YYYY HH:MM:SS", OR-/DD-/IN-/CN-/DT-/WL-/RW- references, a conversion as two rows
// sharing the reference with the fee on the leg paid out), values invented. Each row's reading
// written down by hand before the parser ran.
const sample = fixture("lightyear", "transactions.csv");
const degiro = fixture("degiro", "Account.csv");
runImportPluginContract(brokerLightyearPlugin, { sample: { ...sample, foreign: degiro.file, foreignBytes: degiro.bytes } });

const HEADER = "Date,Reference,Ticker,ISIN,Type,Quantity,CCY,Price/share,Gross Amount,FX Rate,Fee,Net Amt.,Tax Amt.";
const plugin = await brokerLightyearPlugin.create({} as never);
const parseText = (lines: string[]) => plugin.parse({ bytes: new TextEncoder().encode([HEADER, ...lines].join("\n")), file: sample.file });

describe("Lightyear account statement", () => {
  test("every row pinned: deposit, trades with their fee, conversion pair with its fee, reward, interest, distribution and dividend with withholding, withdrawal", async () => {
    const r = await plugin.parse(sample);
    expect(r.detectedFormat).toBe("lightyear/statement");
    expect(pinAll(r)).toEqual([
      "2 WITHDRAWAL 2025-06-25 q=0 -200 USD -",
      // 2 × 210.30 = 420.60, the 1 USD fee on top: 419.60 arrives.
      "3 SELL 2025-06-20 q=-2 420.6 USD US0378331005/AAPL order=OR-00000",
      "3 FEE 2025-06-20 q=0 -1 USD US0378331005/AAPL order=OR-00000",
      // 1.00 gross, 0.15 withheld, 0.85 net.
      "4 DIVIDEND 2025-06-16 q=0 1 USD US0378331005/AAPL",
      "4 TAX 2025-06-16 q=0 -0.15 USD US0378331005/AAPL",
      "5 BUY 2025-06-01 q=3.25 -3.25 USD IE00B44BQ083/ICSUSSDP order=OR-00000",
      // The money market fund's distribution: 3.42 less the 0.17 fee is the 3.25 reinvested above.
      "6 DIVIDEND 2025-06-01 q=0 3.42 USD IE00B44BQ083/ICSUSSDP",
      "6 FEE 2025-06-01 q=0 -0.17 USD IE00B44BQ083/ICSUSSDP",
      "7 INTEREST 2025-05-01 q=0 1.12 EUR -",
      "8 INTEREST 2025-04-02 q=0 10 EUR -",
      "9 BUY 2025-03-15 q=5 -927.5 USD US0378331005/AAPL order=OR-00000",
      "9 FEE 2025-03-15 q=0 -1 USD US0378331005/AAPL order=OR-00000",
      // 1000 USD bought for 921.50 EUR (at 0.9215) plus a 3.31 EUR fee: 924.81 EUR paid.
      "10 FX_CONVERSION 2025-03-15 q=0 1000 USD - pair",
      "11 FX_CONVERSION 2025-03-15 q=0 -921.5 EUR - pair",
      "11 FEE 2025-03-15 q=0 -3.31 EUR -",
      "12 BUY 2025-03-10 q=4 -501.6 EUR IE00BK5BQT80/VWCE order=OR-00000",
      "13 DEPOSIT 2025-03-05 q=0 2000 EUR -",
    ]);
    expect(r.transactions.find((t) => t.row === 9 && t.type === "BUY")?.orderId).toBe("OR-0000004550");
    expect(r.transactions.find((t) => t.row === 10)?.pairKey).toBe(r.transactions.find((t) => t.row === 11)?.pairKey);
    expect(r.warnings.find((w) => w.row === 8)?.code).toBe("rewardAsIncome");
    expect(r.skippedRows).toEqual([]);
    expectEveryLineAccounted("lightyear", "transactions.csv", r, 1);
  });

  test("conversion legs with their own references pair by time; a leg alone and an unknown type are skipped with the reason", async () => {
    const r = await parseText([
      "15/01/2025 10:00:00,CN-1001,USD,,Conversion,,USD,,1000.00,0.935,,1000.00,",
      "15/01/2025 10:00:00,CN-1002,EUR,,Conversion,,EUR,,-935.00,1.0695,,-935.00,",
      "16/01/2025 10:00:00,CN-1003,GBP,,Conversion,,GBP,,50.00,1.19,,50.00,",
      "01/06/2025 09:00:00,CA-0000000020,AAPL,US0378331005,Stock split,10.000000000,USD,,1,,,,",
    ]);
    expect(pinAll(r)).toEqual(["2 FX_CONVERSION 2025-01-15 q=0 1000 USD - pair", "3 FX_CONVERSION 2025-01-15 q=0 -935 EUR - pair"]);
    expect(r.skippedRows).toEqual([
      {
        line: 4,
        reason: 'Line 4: "Conversion" (CN-1003, GBP, 16/01/2025 10:00:00, 50.00 GBP) is one leg of a currency conversion whose other leg (the other currency, with the same Reference or time) '
          + "is not in this file; not imported, export the statement over a period holding both legs, or enter the conversion by hand as an FX_CONVERSION",
      },
      {
        line: 5,
        reason: 'Line 5: "Stock split" (CA-0000000020, AAPL, 01/06/2025 09:00:00, 1 USD) is a type the importer does not know, so what it moved cannot be told; not imported, enter it by hand if it moved cash or shares',
      },
    ]);
    expect(r.warnings.map((w) => w.code)).toEqual(["unsupportedType", "conversionUnpaired"]);
  });
});
