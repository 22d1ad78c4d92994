import { describe, expect, test } from "bun:test";
import { brokerEtoroPlugin } from "../../plugins/broker-etoro/index.ts";
import { brokerTraderepublicPlugin } from "../../plugins/broker-traderepublic/index.ts";
import { runImportPluginContract } from "../../sdk/testing/index.ts";
import { fixture, pinAll } from "./brim-helpers.ts";

// Hand-checked against test/fixtures/brim/{traderepublic,etoro}/, written before the parsers.
const tr = fixture("traderepublic", "transactions.csv");
const etoro = fixture("etoro", "account-statement.xlsx");
const degiro = fixture("degiro", "Account.csv");

runImportPluginContract(brokerTraderepublicPlugin, { sample: { ...tr, foreign: degiro.file, foreignBytes: degiro.bytes } });
runImportPluginContract(brokerEtoroPlugin, { sample: { ...etoro, foreign: degiro.file, foreignBytes: degiro.bytes } });

describe("Trade Republic transactions CSV", () => {
  test("German headers and words, decimal commas; net values split into trade and fee, net dividends into gross and tax; gifts skipped", async () => {
    const result = await (await brokerTraderepublicPlugin.create({} as never)).parse(tr);
    expect(pinAll(result)).toEqual([
      "2 DEPOSIT 2024-01-02 q=0 1000 EUR -",
      "3 BUY 2024-01-05 q=4 -433.68 EUR IE00BK5BQT80",
      "3 FEE 2024-01-05 q=0 -1 EUR IE00BK5BQT80",
      "4 BUY 2024-01-15 q=0.587 -50 EUR IE00B4L5Y983",
      "5 DIVIDEND 2024-02-15 q=0 1.2 EUR IE00B4L5Y983",
      "5 TAX 2024-02-15 q=0 -0.18 EUR IE00B4L5Y983",
      "6 INTEREST 2024-03-01 q=0 2.1 EUR -",
      "7 SELL 2024-03-20 q=-2 224.2 EUR IE00BK5BQT80",
      "7 FEE 2024-03-20 q=0 -1 EUR IE00BK5BQT80",
      "8 WITHDRAWAL 2024-04-02 q=0 -100 EUR -",
    ]);
    expect(result.warnings).toEqual([expect.objectContaining({ code: "unsupportedType", row: 9 })]);
  });
});

describe("eToro account statement (XLSX, sheet Account Activity)", () => {
  test("deposits, opened and closed positions as buys and sells, dividends, interest, withdrawals with their fee, overnight fees; adjustments skipped", async () => {
    const result = await (await brokerEtoroPlugin.create({} as never)).parse(etoro);
    expect(pinAll(result)).toEqual([
      "2 DEPOSIT 2024-01-02 q=0 2000 USD -",
      "3 BUY 2024-01-05 q=5 -950 USD AAPL",
      "4 BUY 2024-01-10 q=1 -450 USD SPY5.L",
      "5 DIVIDEND 2024-02-15 q=0 1.02 USD AAPL",
      "6 INTEREST 2024-03-01 q=0 0.35 USD -",
      "7 SELL 2024-03-20 q=-2 344.2 USD AAPL",
      "8 WITHDRAWAL 2024-04-02 q=0 -100 USD -",
      "9 FEE 2024-04-02 q=0 -5 USD -",
      "10 FEE 2024-04-03 q=0 -0.12 USD SPY5.L",
    ]);
    expect(result.warnings).toEqual([expect.objectContaining({ code: "unsupportedType", row: 11 })]);
  });
});

describe("detection", () => {
  test("each claims its own file only", async () => {
    const [a, b] = await Promise.all([brokerTraderepublicPlugin.create({} as never), brokerEtoroPlugin.create({} as never)]);
    expect([a.accepts(tr.file) > 0, a.accepts(etoro.file) > 0, a.accepts(degiro.file) > 0]).toEqual([true, false, false]);
    expect([b.accepts(etoro.file) > 0, b.accepts(tr.file) > 0, b.accepts(degiro.file) > 0]).toEqual([true, false, false]);
  });
});
