import { describe, expect, test } from "bun:test";
import { brokerInteractiveInvestorPlugin } from "../../plugins/broker-interactive-investor/index.ts";
import { describeFile } from "../../sdk/import/index.ts";
import { runImportPluginContract } from "../../sdk/testing/index.ts";
import { expectEveryLineAccounted } from "./brim-accounting.ts";
import { fixture, pinAll } from "./brim-helpers.ts";

// interactive investor's transaction history CSV as it circulates in public UK tax tools' test
// suites (`Date,Settlement Date,Symbol,Sedol,Quantity,Price,Description,Reference,Debit,Credit,
// Running Balance`, "£1,234.56" in quotes, "n/a" cells, "30 VANGUARD FTSE AW  Del   98.45 S Date
// 08/01/25" trades with the sale's quantity negative, "500 U.S. DOLLARS .79 S Date" exchanges,
// "Div 30 NAME USD0.5070" dividends), values invented. Each line's reading written by hand first:
// a trade's Debit is its value plus dealing charge and stamp duty (30 × 98.45 + 3.99 = 2957.49).
const sample = fixture("interactive-investor", "transactions.csv");
const degiro = fixture("degiro", "Account.csv");
runImportPluginContract(brokerInteractiveInvestorPlugin, { sample: { ...sample, foreign: degiro.file, foreignBytes: degiro.bytes } });

const HEADER = "Date,Settlement Date,Symbol,Sedol,Quantity,Price,Description,Reference,Debit,Credit,Running Balance";
const plugin = await brokerInteractiveInvestorPlugin.create({} as never);
const parseText = (lines: string[], options?: Record<string, unknown>) => {
  const bytes = new TextEncoder().encode(lines.join("\n"));
  return plugin.parse({ bytes, file: describeFile(bytes, "x.csv"), ...(options ? { options } : {}) });
};

describe("interactive investor transaction history (sterling)", () => {
  test("every line pinned: card deposit, buys and a sale with costs inside, a dollar purchase as an FX pair, dividend, interest, monthly fee, withdrawal", async () => {
    const r = await plugin.parse(sample);
    expect(r.detectedFormat).toBe("interactive-investor/transactions");
    expect(pinAll(r)).toEqual([
      "2 DEPOSIT 2025-01-02 q=0 5000 GBP -",
      "3 BUY 2025-01-06 q=30 -2957.49 GBP VWRL order=B250106A",
      "4 BUY 2025-01-09 q=400 -935.12 GBP LGEN order=B250109A",
      // 500 USD bought at £0.79860: £399.30.
      "5 FX_CONVERSION 2025-01-15 q=0 -399.3 GBP - pair",
      "5 FX_CONVERSION 2025-01-15 q=0 500 USD - pair",
      "6 DIVIDEND 2025-02-03 q=0 12.24 GBP VWRL",
      "7 INTEREST 2025-02-28 q=0 0.84 GBP -",
      "8 FEE 2025-03-03 q=0 -4.99 GBP -",
      "9 SELL 2025-03-10 q=-10 1038.01 GBP VWRL order=S250310B",
      "11 WITHDRAWAL 2025-03-20 q=0 -250 GBP -",
    ]);
    const byRow = new Map(r.transactions.map((t) => [t.row, t]));
    expect(byRow.get(3)).toMatchObject({ assetName: "VANGUARD FTSE AW", description: expect.stringContaining("SEDOL B3RBWM2") });
    expect(byRow.get(6)).toMatchObject({ assetName: "VANGUARD FTSE ALL-WORLD UCITS ETF", symbol: "VWRL" });
    expect(r.skippedRows).toEqual([{ line: 10, reason: expect.stringContaining("moves shares without cash") }]);
    expect(r.warnings.find((w) => w.row === 10)?.code).toBe("noCashMovement");
    expectEveryLineAccounted("interactive-investor", "transactions.csv", r, 1);
  });

  test("dollars sold back for pounds, a fee transfer, an ISA subscription and an unknown line; repeated byte order marks before the header", async () => {
    const r = await parseText([
      `\uFEFF\uFEFF\uFEFF${HEADER}`,
      '02/12/2024,03/12/2024,n/a,n/a,44.69,£0.81629,"44.69 EURO NoTf     .81 S Date 03/12/24",REF3,n/a,£36.48,£3.89',
      "05/12/2024,05/12/2024,n/a,n/a,n/a,n/a,Fee Transfer,REF4,£4.99,n/a,£0.00",
      "06/04/2025,06/04/2025,n/a,n/a,n/a,n/a,2025/26 ISA Subscription re 1234567,REF5,n/a,£500.00,£500.00",
      "07/04/2025,07/04/2025,n/a,n/a,n/a,n/a,Something else,REF6,n/a,£1.00,£501.00",
    ]);
    expect(pinAll(r)).toEqual([
      "2 FX_CONVERSION 2024-12-02 q=0 -44.69 EUR - pair",
      "2 FX_CONVERSION 2024-12-02 q=0 36.48 GBP - pair",
      "3 FEE 2024-12-05 q=0 -4.99 GBP -",
      "4 DEPOSIT 2025-04-06 q=0 500 GBP -",
    ]);
    expect(r.skippedRows).toEqual([{ line: 5, reason: 'Line 5: "Something else" (07/04/2025, £1.00) is a type the importer does not know, so what it moved cannot be told; not imported, enter it by hand if it moved cash' }]);
  });

  test("a fund named EUROPEAN is a trade, not an exchange of euros", async () => {
    const r = await parseText([HEADER, '15/01/2023,17/01/2023,EUFU,B456TR0,100,£12.50,"100 EUROPEAN EQUITY FUND Del  12.50 S Date 17/01/23",REF4,"£1,250.00",n/a,"£10,000.00"']);
    expect(pinAll(r)).toEqual(["2 BUY 2023-01-15 q=100 -1250 GBP EUFU order=REF4"]);
  });
});

describe("interactive investor: the file's currency", () => {
  test("a dollar file is read in USD and leaves its exchange lines to the sterling file", async () => {
    const r = await parseText([
      HEADER,
      '15/01/2025,17/01/2025,n/a,n/a,500.0,$1.25219,"500 U.S. DOLLARS          .79 S Date 17/01/25",F250115C2,n/a,$500.00,$500.00',
      "20/01/2025,22/01/2025,AAPL,2046251,2,$221.40,2 APPLE INC  Del  221.40 S Date 22/01/25,B250120U1,$442.80,n/a,$57.20",
    ]);
    expect(pinAll(r)).toEqual(["3 BUY 2025-01-20 q=2 -442.8 USD AAPL order=B250120U"]);
    expect(r.skippedRows).toEqual([{ line: 2, reason: expect.stringContaining("sterling account's file") }]);
  });

  test("amounts without a symbol are pounds with a warning, or the currency of option currency", async () => {
    const lines = [HEADER, "02/01/2025,02/01/2025,n/a,n/a,n/a,n/a,Debit Card Payment,DCP1,n/a,100.00,100.00"];
    const assumed = await parseText(lines);
    expect(pinAll(assumed)).toEqual(["2 DEPOSIT 2025-01-02 q=0 100 GBP -"]);
    expect(assumed.warnings.map((w) => w.code)).toEqual(["currencyAssumed"]);
    expect(pinAll(await parseText(lines, { currency: "eur" }))).toEqual(["2 DEPOSIT 2025-01-02 q=0 100 EUR -"]);
  });
});
