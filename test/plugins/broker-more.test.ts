import { describe, expect, test } from "bun:test";
import { brokerDirectaPlugin } from "../../plugins/broker-directa/index.ts";
import { brokerScalablePlugin } from "../../plugins/broker-scalable/index.ts";
import { brokerSchwabPlugin } from "../../plugins/broker-schwab/index.ts";
import { runImportPluginContract } from "../../sdk/testing/index.ts";
import { fixture, pinAll } from "./brim-helpers.ts";

// Hand-checked against test/fixtures/brim/{scalable,schwab,directa}/, written before the parsers.
const scalable = fixture("scalable", "transactions.csv");
const schwab = fixture("schwab", "transactions.csv");
const directa = fixture("directa", "movimenti.csv");
const degiro = fixture("degiro", "Account.csv");

runImportPluginContract(brokerScalablePlugin, { sample: { ...scalable, foreign: degiro.file, foreignBytes: degiro.bytes } });
runImportPluginContract(brokerSchwabPlugin, { sample: { ...schwab, foreign: degiro.file, foreignBytes: degiro.bytes } });
runImportPluginContract(brokerDirectaPlugin, { sample: { ...directa, foreign: degiro.file, foreignBytes: degiro.bytes } });

describe("Scalable Capital transactions export", () => {
  test("deposits, buys and savings plans with fees, distributions and interest with their tax, sells with fee and tax, withdrawals; cancelled rows skipped", async () => {
    const result = await (await brokerScalablePlugin.create({} as never)).parse(scalable);
    expect(pinAll(result)).toEqual([
      "2 DEPOSIT 2024-01-02 q=0 1000 EUR -",
      "3 BUY 2024-01-05 q=4 -433.68 EUR IE00BK5BQT80",
      "3 FEE 2024-01-05 q=0 -0.99 EUR IE00BK5BQT80",
      "4 BUY 2024-01-15 q=2.5 -213 EUR IE00B4L5Y983",
      "5 DIVIDEND 2024-02-15 q=0 1.2 EUR IE00B4L5Y983",
      "5 TAX 2024-02-15 q=0 -0.32 EUR IE00B4L5Y983",
      "6 INTEREST 2024-03-01 q=0 2.1 EUR -",
      "6 TAX 2024-03-01 q=0 -0.55 EUR -",
      "7 SELL 2024-03-20 q=-2 224.2 EUR IE00BK5BQT80",
      "7 FEE 2024-03-20 q=0 -0.99 EUR IE00BK5BQT80",
      "7 TAX 2024-03-20 q=0 -1.1 EUR IE00BK5BQT80",
      "9 WITHDRAWAL 2024-04-02 q=0 -100 EUR -",
    ]);
    expect(result.warnings).toEqual([expect.objectContaining({ code: "notExecuted", row: 8 })]);
  });
});

describe("Charles Schwab transactions export", () => {
  test("month-first dates (the trade date of 'as of'), $ amounts net of fees split into trade and fee, dividends, NRA tax, interest, MoneyLink in and out", async () => {
    const result = await (await brokerSchwabPlugin.create({} as never)).parse(schwab);
    expect(pinAll(result)).toEqual([
      "2 WITHDRAWAL 2024-04-02 q=0 -100 USD -",
      "3 SELL 2024-03-20 q=-2 344.2 USD AAPL",
      "3 FEE 2024-03-20 q=0 -0.02 USD AAPL",
      "4 DIVIDEND 2024-02-15 q=0 1.2 USD AAPL",
      "5 TAX 2024-02-15 q=0 -0.18 USD AAPL",
      "6 INTEREST 2024-01-31 q=0 0.35 USD -",
      "7 BUY 2024-01-05 q=5 -950 USD AAPL",
      "8 BUY 2024-01-05 q=3 -706.2 USD VTI",
      "9 DEPOSIT 2024-01-02 q=0 2000 USD -",
    ]);
    expect(result.warnings).toEqual([expect.objectContaining({ code: "unsupportedAction", row: 10 }), expect.objectContaining({ code: "summaryRowSkipped", row: 11 })]);
  });
});

describe("Directa movimenti export", () => {
  test("the account block is skipped; transfers in and out, buys and sells with commissions and the Tobin tax, dividends and withholding, interest", async () => {
    const result = await (await brokerDirectaPlugin.create({} as never)).parse(directa);
    expect(pinAll(result)).toEqual([
      "5 DEPOSIT 2024-01-02 q=0 7000 EUR -",
      "6 BUY 2024-01-15 q=1000 -6512 EUR IT0003128367/ENEL order=A00001",
      "7 FEE 2024-01-15 q=0 -5 EUR IT0003128367/ENEL order=A00001",
      "8 TAX 2024-01-15 q=0 -6.51 EUR IT0003128367/ENEL order=A00001",
      "9 DIVIDEND 2024-01-31 q=0 215 EUR IT0003128367/ENEL",
      "10 TAX 2024-01-31 q=0 -55.9 EUR IT0003128367/ENEL",
      "11 SELL 2024-02-20 q=-500 3400 EUR IT0003128367/ENEL order=A00002",
      "12 FEE 2024-02-20 q=0 -5 EUR IT0003128367/ENEL order=A00002",
      "13 INTEREST 2024-02-29 q=0 1.25 EUR -",
      "14 WITHDRAWAL 2024-03-01 q=0 -1000 EUR -",
    ]);
  });
});

describe("detection of the three layouts", () => {
  test("each claims its own file and none of the others", async () => {
    const plugins = await Promise.all([brokerScalablePlugin, brokerSchwabPlugin, brokerDirectaPlugin].map((p) => p.create({} as never)));
    const files = [scalable.file, schwab.file, directa.file];
    expect(plugins.map((p) => files.map((f) => p.accepts(f) > 0))).toEqual([[true, false, false], [false, true, false], [false, false, true]]);
  });
});
