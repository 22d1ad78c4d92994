import { describe, expect, test } from "bun:test";
import { brokerSaxoPlugin } from "../../plugins/broker-saxo/index.ts";
import { runImportPluginContract } from "../../sdk/testing/index.ts";
import { fixture, pinAll } from "./brim-helpers.ts";

// Hand-checked against test/fixtures/brim/saxo/transactions.xlsx (written by make-sample.ts), before the parser.
const saxo = fixture("saxo", "transactions.xlsx");
const degiro = fixture("degiro", "Account.csv");

runImportPluginContract(brokerSaxoPlugin, { sample: { ...saxo, foreign: degiro.file, foreignBytes: degiro.bytes } });

describe("Saxo Transactions report (XLSX)", () => {
  test("trades from the Event text (foreign ones through an FX pair from the booked euros), commissions, dividends and withholding, interest, custody fees, transfers; splits skipped", async () => {
    const result = await (await brokerSaxoPlugin.create({} as never)).parse(saxo);
    expect(pinAll(result)).toEqual([
      "2 DEPOSIT 2024-01-02 q=0 2000 EUR -",
      "3 BUY 2024-01-05 q=5 -950 USD US0378331005/AAPL:xnas order=50000000",
      "3 FX_CONVERSION 2024-01-05 q=0 -869.96 EUR - order=50000000 pair",
      "3 FX_CONVERSION 2024-01-05 q=0 950 USD - order=50000000 pair",
      "4 FEE 2024-01-05 q=0 -1.83 EUR US0378331005/AAPL:xnas order=50000000",
      "5 BUY 2024-01-10 q=4 -433.68 EUR IE00BK5BQT80/VWCE:xetr order=50000000",
      "6 DIVIDEND 2024-02-15 q=0 1.1 EUR US0378331005/AAPL:xnas",
      "7 TAX 2024-02-15 q=0 -0.17 EUR US0378331005/AAPL:xnas",
      "8 INTEREST 2024-03-01 q=0 0.85 EUR -",
      "9 SELL 2024-03-20 q=-2 344.2 USD US0378331005/AAPL:xnas order=50000000",
      "9 FX_CONVERSION 2024-03-20 q=0 -344.2 USD - order=50000000 pair",
      "9 FX_CONVERSION 2024-03-20 q=0 316.07 EUR - order=50000000 pair",
      "10 FEE 2024-03-31 q=0 -2.5 EUR -",
      "11 WITHDRAWAL 2024-04-02 q=0 -100 EUR -",
    ]);
    expect(result.warnings).toEqual([expect.objectContaining({ code: "unsupportedEvent", row: 12 })]);
  });

  test("the account currency comes from the currency option when the account is not in euros", async () => {
    const result = await (await brokerSaxoPlugin.create({} as never)).parse({ ...saxo, options: { currency: "chf" } });
    expect(result.transactions[0]!.cash).toEqual({ amount: "2000", currency: "CHF" } as never);
  });
});
